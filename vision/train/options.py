"""Command-line options shared by the scripts that measure the learned reader
(eval_heldout, sweep, benchmarks/bench_vision.py)."""

from __future__ import annotations

from .. import learned as L


def add_reader_options(ap) -> None:
    """--models and --vouch: which nets to measure, and how far up the wider net backs the first's values."""
    ap.add_argument("--models", default=L.MODELS, help="folder of the .onnx files to measure")
    ap.add_argument("--vouch", type=float, default=L.P_VOUCH,
                    help=f"the wider net backs the first's values below this (P_VOUCH, {L.P_VOUCH})")


def use_reader_options(a) -> None:
    """Point the reader at the parsed options' nets and P_VOUCH."""
    L.MODELS, L.P_VOUCH = a.models, a.vouch
