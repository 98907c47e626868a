"""How precisely the detector finds a die: its centre and its box, on rendered scenes.

    .venv/bin/python benchmarks/bench_detector.py [--models DIR ...] [--scenes N]

Each set of nets (default: the shipped ones) reads N rendered scenes of three
dice at each of four sizes (30, 40, 70 and 150 px a face) with the detector
alone. For each size it prints the centre's error as a share of the face's
side (median and 90th percentile), the box side over the true box's
(`RenderedDie.box_side`: the face to 1.41 x it, turned; median, 10th and 90th
percentiles) and the dice missed (no peak within half a side). The reader's
tests ask a centre within 0.15 of the side (`tests/vision/test_learned.py`).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from vision import detector  # noqa: E402
from vision.render import render_scene  # noqa: E402
from vision.settings import Config  # noqa: E402

SIZES = (30, 40, 70, 150)


def measure(models: str, scenes: int, die_px: float) -> dict:
    """{centre: [error / side], box: [side / true box], missed: n} over `scenes` scenes."""
    s = replace(Config(), models=models)
    centre, box, missed = [], [], 0
    for seed in range(scenes):
        img, truth = render_scene([1, 3, 5], seed=seed, die_px=die_px)
        dets = detector.detect(img, s)
        for t in truth:
            off, d = min(((np.hypot(d[0] - t.center[0], d[1] - t.center[1]), d) for d in dets),
                         key=lambda pair: pair[0], default=(np.inf, None))
            if off >= 0.5 * t.side:
                missed += 1
                continue
            centre.append(off / t.side)
            box.append(d[2] / t.box_side)
    return {"centre": centre, "box": box, "missed": missed}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", action="append", help="folder of the nets (repeatable; default the shipped)")
    ap.add_argument("--scenes", type=int, default=12, help="rendered scenes of three dice per size")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    print("| nets | face px | centre error / side, median / p90 | box / true box, p10 / median / p90 | missed |")
    print("| --- | --- | --- | --- | --- |")
    for models in a.models or [Config().models]:
        for px in SIZES:
            m = measure(models, a.scenes, px)
            c, b = np.array(m["centre"] or [np.nan]), np.array(m["box"] or [np.nan])
            print(f"| {models} | {px} | {np.median(c):.3f} / {np.percentile(c, 90):.3f} | "
                  f"{np.percentile(b, 10):.2f} / {np.median(b):.2f} / {np.percentile(b, 90):.2f} | {m['missed']} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
