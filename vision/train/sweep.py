"""Choose the learned reader's thresholds on the "val" split (never on held-out photos).

    .venv/bin/python -m vision.train.sweep [--split val] [--models DIR]

Runs the detector and both classifiers once on every photo of the split, keeps
each detection's probabilities and its matched label (same rule as the
bench), then prints per-die accuracy, wrong values, unsure, missed and
phantoms for a grid of P_SURE x P_NOT_DIE (at the shipped P_LOOK), of
P_SURE x P_LOOK (at the shipped P_NOT_DIE; P_LOOK 0: no second look), and of
P_SURE x P_BACKED (the others shipped; P_BACKED 0: no backing asked).
The pip reader's cross-check is left out: it is slow, and asked of few dice.
Needs no torch.
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
from .options import add_reader_options, use_reader_options

P_SURES = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98)


def collect(split: str, two_views: bool):
    """Per folder: (list of (the first net's probs, the wide net's probs, detector score,
    label value or None), labelled dice, missed)."""
    out = {}
    for f in FOLDERS:
        rows, n, missed = [], 0, 0
        for _, img, labs in photos(os.path.join(SHARED, f), split):
            dets = L.detect(img)
            boxes = [(cx, cy, s) for cx, cy, s, _ in dets]
            first = L.classify(img, boxes, two_views)
            wide = L.classify(img, boxes, two_views, net=L.WIDE_NET)
            r = Reading(tuple(Die(None, (cx, cy), (0, 0, 1, 1), sc) for cx, cy, _, sc in dets))
            pairs, _, miss = match(r, labs)
            lab_of = {id(d): lab[0] for d, lab in pairs}
            for d, p1, pw, det in zip(r.dice, first, wide, dets):
                rows.append((p1, pw, det[3], lab_of.get(id(d))))
            n += len(labs)
            missed += len(miss)
        out[f] = (rows, n, missed)
    return out


def score(rows, n, missed, p_sure, p_not, p_look, p_backed=None):
    """The reader's verdicts (as read_learned, without the pips) for these thresholds."""
    # P_LOOK 0 is the reader without its second look: no backing either.
    p_backed = 0.0 if p_look == 0 else L.P_BACKED if p_backed is None else p_backed
    right = wrong = unsure = phantom = phantom_valued = dropped = 0
    for p1, pw, sc, lab in rows:
        if p1[0] >= p_not:         # the first net decides what is a die
            dropped += lab is not None
            continue
        again = p1[1:].max() < p_look
        p = pw if again else p1
        v = int(np.argmax(p[1:])) + 1
        agree = not again or int(np.argmax(p1)) == v   # as read_learned: 0 (not a die) disagrees
        if not again and p1[v] < L.P_VOUCH:            # ... and the wider net must back the value
            agree = pw[v] >= p_backed
        sure = agree and p[v] >= p_sure and sc >= L.MIN_SCORE
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


def line(label: str, r: dict) -> str:
    return (f"  {label}: acc {100 * r['acc']:6.2f}% wrong {r['wrong']:3d} unsure {r['unsure']:3d}"
            f" missed {r['missed']:3d} phantoms {r['phantom']:3d} ({r['phantom_valued']} valued)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="val", choices=["val", "fit", "train"])
    add_reader_options(ap)
    ap.add_argument("--one-view", action="store_true")
    a = ap.parse_args()
    use_reader_options(a)
    cv2.setNumThreads(1)
    data = collect(a.split, not a.one_view)
    for f, (rows, n, missed) in data.items():
        print(f"== {f} [{a.split}] {n} dice, detector missed {missed}, detections {len(rows)}")
        print(f"  -- P_SURE x P_NOT_DIE, P_LOOK {L.P_LOOK}")
        for p_not in (0.4, 0.5, 0.6, 0.7, 0.8):
            for p_sure in P_SURES:
                print(line(f"not>={p_not:.2f} sure>={p_sure:.2f}", score(rows, n, missed, p_sure, p_not, L.P_LOOK)))
        print(f"  -- P_SURE x P_LOOK, P_NOT_DIE {L.P_NOT_DIE}")
        for p_look in (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
            for p_sure in P_SURES:
                print(line(f"look<{p_look:.2f} sure>={p_sure:.2f}", score(rows, n, missed, p_sure, L.P_NOT_DIE, p_look)))
        print(f"  -- P_SURE x P_BACKED, P_NOT_DIE {L.P_NOT_DIE}, P_LOOK {L.P_LOOK}")
        for p_backed in (0.0, 0.3, 0.4, 0.5, 0.6, 0.7):
            for p_sure in P_SURES:
                print(line(f"backed>={p_backed:.2f} sure>={p_sure:.2f}",
                           score(rows, n, missed, p_sure, L.P_NOT_DIE, L.P_LOOK, p_backed)))


if __name__ == "__main__":
    main()
