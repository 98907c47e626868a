"""Choose the learned reader's thresholds on photos its nets were not trained on.

    .venv/bin/python -m vision_tools.train.sweep [--split val|heldout] [--models DIR]

The nets of `train_dice` left out the "val" tenth; the recipe's (`vision_tools.train all`) train
on it, and leave out only the held-out fifth: sweep their thresholds there (`--split heldout`).

Runs the detector and both classifiers once on every photo of the split, keeps
each detection's probabilities, where it lies and its matched label (same rule
as the bench), then prints per-die accuracy, wrong values, unsure, missed and
phantoms for a grid of p_sure x p_not_die (at the shipped p_look), of
p_sure x p_look (at the shipped p_not_die; p_look 0: no second look), and of
p_sure x p_backed (the others shipped; p_backed 0: no backing asked), each
decided by the reader's own decision (vision.decision.decide). Needs no
torch.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace

import cv2
import numpy as np

from vision.classifier import classify
from vision.decision import cut_by_frame, decide
from vision.detector import detect
from vision.nets import WIDE_NET
from vision.reading import Die, Reading
from vision.settings import Config

from ..bench import match
from .data import FOLDERS, SHARED, photos
from .options import add_reader_options, reader_settings

P_SURES = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98)


def collect(split: str, s: Config):
    """Per folder: (list of (the first net's probs, the wide net's probs, detector score,
    share of the box out of the frame, side, label value or None), labelled dice, missed)."""
    out = {}
    for f in FOLDERS:
        rows, n, missed = [], 0, 0
        for _, img, labs in photos(os.path.join(SHARED, f), split):
            H, W = img.shape[:2]
            dets = detect(img, s)
            boxes = [(cx, cy, side) for cx, cy, side, _ in dets]
            first = classify(img, boxes, s)
            wide = classify(img, boxes, s, net=WIDE_NET)
            r = Reading(tuple(Die(None, (cx, cy), (0, 0, 1, 1), sc) for cx, cy, _, sc in dets))
            pairs, _, miss = match(r, labs)
            lab_of = {id(d): lab[0] for d, lab in pairs}
            for d, p1, pw, (cx, cy, side, sc) in zip(r.dice, first, wide, dets):
                rows.append((p1, pw, sc, cut_by_frame(cx, cy, side, W, H), side, lab_of.get(id(d))))
            n += len(labs)
            missed += len(miss)
        out[f] = (rows, n, missed)
    return out


def grid_point(base: Config, p_sure: float, p_not: float, p_look: float, p_backed: float | None = None) -> Config:
    """`base` at one point of the sweep's grid; p_look 0 is the reader without its second
    look (no backing either)."""
    return replace(base, p_sure=p_sure, p_not_die=p_not, p_look=p_look, second_look=p_look > 0,
                   p_backed=base.p_backed if p_backed is None else p_backed)


def score(rows, n, missed, s: Config):
    """The reader's verdicts (vision.decision.decide) with settings `s`."""
    right = wrong = unsure = phantom = phantom_valued = dropped = 0
    if rows:
        first, wide, scores, cuts, sides, labs = zip(*rows)
        verdicts = decide(np.array(first), np.array(wide), cuts, scores, sides, s)
    else:
        verdicts, labs = [], []
    for v, lab in zip(verdicts, labs):
        if v is None:               # the first net decides what is a die
            dropped += lab is not None
        elif lab is None:
            phantom += 1
            phantom_valued += v.value is not None
        elif v.value is None:
            unsure += 1
        elif v.value == lab:
            right += 1
        else:
            wrong += 1
    return dict(acc=right / n, wrong=wrong, unsure=unsure, missed=missed + dropped, phantom=phantom,
                phantom_valued=phantom_valued, n=n)


def line(label: str, r: dict) -> str:
    return (f"  {label}: acc {100 * r['acc']:6.2f}% wrong {r['wrong']:3d} unsure {r['unsure']:3d}"
            f" missed {r['missed']:3d} phantoms {r['phantom']:3d} ({r['phantom_valued']} valued)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="val", choices=["val", "fit", "train", "heldout"])
    add_reader_options(ap)
    ap.add_argument("--one-view", action="store_true")
    a = ap.parse_args()
    s = replace(reader_settings(a), two_views=not a.one_view)
    cv2.setNumThreads(1)
    data = collect(a.split, s)
    for f, (rows, n, missed) in data.items():
        print(f"== {f} [{a.split}] {n} dice, detector missed {missed}, detections {len(rows)}")
        print(f"  -- p_sure x p_not_die, p_look {s.p_look}")
        for p_not in (0.4, 0.5, 0.6, 0.7, 0.8):
            for p_sure in P_SURES:
                print(line(f"not>={p_not:.2f} sure>={p_sure:.2f}",
                           score(rows, n, missed, grid_point(s, p_sure, p_not, s.p_look))))
        print(f"  -- p_sure x p_look, p_not_die {s.p_not_die}")
        for p_look in (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
            for p_sure in P_SURES:
                print(line(f"look<{p_look:.2f} sure>={p_sure:.2f}",
                           score(rows, n, missed, grid_point(s, p_sure, s.p_not_die, p_look))))
        print(f"  -- p_sure x p_backed, p_not_die {s.p_not_die}, p_look {s.p_look}")
        for p_backed in (0.0, 0.3, 0.4, 0.5, 0.6, 0.7):
            for p_sure in P_SURES:
                print(line(f"backed>={p_backed:.2f} sure>={p_sure:.2f}",
                           score(rows, n, missed, grid_point(s, p_sure, s.p_not_die, s.p_look, p_backed))))


if __name__ == "__main__":
    main()
