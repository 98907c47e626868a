"""Command-line options shared by the scripts that measure the learned reader
(eval_heldout, sweep, benchmarks/bench_vision.py): they make the reader's settings."""

from __future__ import annotations

from dataclasses import replace

from vision.settings import Config


def add_reader_options(ap) -> None:
    """--models and --vouch: which nets to measure, and how far up the wider net backs the first's values."""
    ap.add_argument("--models", default=Config.models, help="folder of the .onnx files to measure")
    ap.add_argument("--vouch", type=float, default=Config.p_vouch,
                    help=f"the wider net backs the first's values below this (p_vouch, {Config.p_vouch})")


def reader_settings(a, base: Config | None = None) -> Config:
    """`base` (default: the shipped settings) with the parsed options' nets and p_vouch."""
    return replace(base or Config(), models=a.models, p_vouch=a.vouch)
