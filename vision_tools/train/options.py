"""Command-line options shared by the scripts that measure the learned reader
(eval_heldout, sweep, benchmarks/bench_vision.py): they make the reader's settings."""

from __future__ import annotations

from dataclasses import fields, replace

from vision.settings import Config


def add_reader_options(ap) -> None:
    """--models and --vouch: which nets to measure, and how far up the wider net backs the first's values."""
    ap.add_argument("--models", default=Config.models, help="folder of the .onnx files to measure")
    ap.add_argument("--vouch", type=float, default=Config.p_vouch,
                    help=f"the wider net backs the first's values below this (p_vouch, {Config.p_vouch})")
    ap.add_argument("--set", action="append", default=[], type=setting, metavar="NAME=VALUE",
                    help="another value of one of vision.Config's numbers or switches (repeatable)")


def setting(text: str) -> tuple[str, object]:
    """'p_sure=0.8' -> ('p_sure', 0.8): a Config field of type bool, int or float, and its value."""
    import argparse

    name, _, value = (part.strip() for part in text.partition("="))
    kind = type(getattr(Config, name)) if name in {f.name for f in fields(Config)} else None
    if kind not in (bool, int, float) or not value:
        raise argparse.ArgumentTypeError(f"{text!r}: not NAME=VALUE with NAME a number or switch of vision.Config")
    value = value.lower()
    if kind is bool:
        if value not in ("true", "false", "1", "0", "on", "off"):
            raise argparse.ArgumentTypeError(f"{text!r}: {name} is true or false")
        return name, value in ("true", "1", "on")
    try:
        return name, kind(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: {name} is a number") from None


def reader_settings(a, base: Config | None = None) -> Config:
    """`base` (default: the shipped settings) with the parsed options' nets and p_vouch."""
    return replace(base or Config(), models=a.models, p_vouch=a.vouch, **dict(getattr(a, "set", [])))
