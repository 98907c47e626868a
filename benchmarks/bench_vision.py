"""Dice-reader benchmark: accuracy and speed on every shared photo folder.

    .venv/bin/python benchmarks/bench_vision.py [DATA_DIR] [--limit N] [--models DIR] [--no-photos]

DATA_DIR defaults to ../shared/data/dice (relative to the repository); every
sub-folder with a labels.csv is measured with `vision.bench` (the same code as
`python -m vision bench`). Then it times rendered 1280x720 gate rolls (7 dice,
64 px), the product's own setting, and reads rendered rolls of dice seen at an
angle (10-40 degrees from straight down, side faces and their pips showing, as
from a phone held aslant). One OpenCV thread throughout. Prints figures;
asserts nothing (targets are in docs/vision.md). `--models DIR`: the .onnx
files of another training run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import cv2
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from vision import bench, learned, read  # noqa: E402
from vision.render import render_scene  # noqa: E402


def tilted_rolls(n: int = 60) -> str:
    """Rolls of 1-9 dice of 40-90 px seen 10-40 degrees aslant: per die read right, unsure,
    wrong, missed; phantoms; rolls exact."""
    rng = np.random.default_rng(12)
    right = unsure = wrong = missed = phantoms = exact = dice = 0
    for k in range(n):
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 10)))]
        img, truth = render_scene(values, seed=1000 + k, die_px=float(rng.uniform(40, 90)), tilt=40,
                                  touching=bool(k % 3 == 0), blur=float(rng.uniform(0, 1)))
        labels = [(d.value, *d.box) for d in truth]
        pairs, extra, lost = bench.match(read(img), labels)
        ok = sum(d.value == lab[0] for d, lab in pairs)
        right += ok
        unsure += sum(d.value is None for d, _ in pairs)
        wrong += sum(d.value is not None and d.value != lab[0] for d, lab in pairs)
        missed += len(lost)
        phantoms += len(extra)
        exact += ok == len(values) and not extra
        dice += len(values)
    return (f"rendered rolls seen aslant (10-40 deg, {n} rolls, {dice} dice): read right {right} "
            f"({100 * right / dice:.1f} %), unsure {unsure}, wrong {wrong}, missed {missed}, "
            f"phantoms {phantoms}; rolls exact {exact}/{n}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="?", default=os.path.join(os.path.dirname(REPO), "shared", "data", "dice"))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--models", default=learned.MODELS, help="folder of the .onnx files to measure")
    ap.add_argument("--no-photos", action="store_true", help="rendered rolls only")
    a = ap.parse_args()
    learned.MODELS = a.models
    cv2.setNumThreads(1)
    if a.no_photos:
        pass
    elif os.path.isdir(a.data):
        for name in sorted(os.listdir(a.data)):
            folder = os.path.join(a.data, name)
            if os.path.isfile(os.path.join(folder, "labels.csv")):
                total, buckets = bench.run(folder, limit=a.limit)
                print(bench.report(folder, total, buckets, show_errors=10))
                print()
    else:
        print(f"no photo folder at {a.data}: skipping the photo benchmark")
    # Calibrated as `python -m vision calibrate` would: the reader's own size of these dice.
    from vision.calibrate import calibrate

    cal, _ = calibrate(render_scene([2, 3, 4, 5, 6], seed=99, die_px=64)[0])
    for label, cfg in (("uncalibrated", None), (f"calibrated die_px={cal.die_px}", cal)):
        rng = np.random.default_rng(0)
        wall, cpu, right = [], [], 0
        for k in range(30):
            values = [int(v) for v in rng.integers(1, 7, 7)]
            img, truth = render_scene(values, seed=k, die_px=64)
            c0, t0 = time.process_time(), time.perf_counter()
            r = read(img, cfg)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            right += sorted(v for v in r.values if v is not None) == sorted(values) and r.complete
        print(f"rendered 1280x720 gate rolls (7 dice, {label}): {right}/30 exact; wall median "
              f"{statistics.median(wall) * 1000:.1f} ms p95 {np.percentile(wall, 95) * 1000:.1f} ms;"
              f" cpu median {statistics.median(cpu) * 1000:.1f} ms"
              f" p95 {np.percentile(cpu, 95) * 1000:.1f} ms")
    print(tilted_rolls())
    return 0


if __name__ == "__main__":
    sys.exit(main())
