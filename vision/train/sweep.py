"""Choose the learned reader's thresholds on the "val" split (never on held-out photos).

    .venv/bin/python -m vision.train.sweep [--split val] [--models DIR] [--no-second-look]

Runs the detector and the classifier once on every photo of the split, keeps
each detection's probabilities and its matched label (same rule as the
bench), then prints per-die accuracy, wrong values, unsure, missed and
phantoms for a grid of P_SURE x P_NOT_DIE. Needs no torch.
"""

from __future__ import annotations

import argparse
import os

import cv2
import numpy as np

from .. import learned as L
from ..bench import match
from ..reading import Die, Reading
from .data import FOLDERS, SHARED, photos


def collect(split: str, two_views: bool, second_look: bool = True):
    """Per folder: (list of (probs, the first net's "not a die" probability, detector score,
    label value or None), labelled dice, missed)."""
    out = {}
    for f in FOLDERS:
        rows, n, missed = [], 0, 0
        for _, img, labs in photos(os.path.join(SHARED, f), split):
            dets = L.detect(img)
            boxes = [(cx, cy, s) for cx, cy, s, _ in dets]
            first = L.classify(img, boxes, two_views)
            probs = L.second_look(img, boxes, first) if second_look else first
            r = Reading(tuple(Die(None, (cx, cy), (0, 0, 1, 1), sc) for cx, cy, _, sc in dets))
            pairs, _, miss = match(r, labs)
            lab_of = {id(d): lab[0] for d, lab in pairs}
            for d, p, p1, det in zip(r.dice, probs, first, dets):
                rows.append((p, p1[0], det[3], lab_of.get(id(d))))
            n += len(labs)
            missed += len(miss)
        out[f] = (rows, n, missed)
    return out


def score(rows, n, missed, p_sure, p_not):
    right = wrong = unsure = phantom = phantom_valued = dropped = 0
    for p, p_first_not, sc, lab in rows:
        if p_first_not >= p_not:   # the first net decides what is a die (learned.second_look)
            dropped += lab is not None
            continue
        v = int(np.argmax(p[1:])) + 1
        sure = p[v] >= p_sure and sc >= L.MIN_SCORE
        if lab is None:
            phantom += 1
            phantom_valued += sure
        elif not sure:
            unsure += 1
        elif v == lab:
            right += 1
        else:
            wrong += 1
    return dict(acc=right / n, wrong=wrong, unsure=unsure, missed=missed + dropped, phantom=phantom,
                phantom_valued=phantom_valued, n=n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="val", choices=["val", "fit", "train"])
    ap.add_argument("--models", default=L.MODELS)
    ap.add_argument("--one-view", action="store_true")
    ap.add_argument("--no-second-look", action="store_true", help="the first classifier alone")
    a = ap.parse_args()
    L.MODELS = a.models
    cv2.setNumThreads(1)
    data = collect(a.split, not a.one_view, not a.no_second_look)
    for f, (rows, n, missed) in data.items():
        print(f"== {f} [{a.split}] {n} dice, detector missed {missed}, detections {len(rows)}")
        for p_not in (0.4, 0.5, 0.6, 0.7, 0.8):
            for p_sure in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98):
                r = score(rows, n, missed, p_sure, p_not)
                print(f"  not>={p_not:.2f} sure>={p_sure:.2f}: acc {100 * r['acc']:6.2f}% wrong {r['wrong']:3d}"
                      f" unsure {r['unsure']:3d} missed {r['missed']:3d} phantoms {r['phantom']:3d}"
                      f" ({r['phantom_valued']} valued)")


if __name__ == "__main__":
    main()
