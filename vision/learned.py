"""The learned dice reader, one declared pipeline:

    frame checks (vision.frame) -> detector (vision.detector)
    -> classifiers (vision.classifier) -> decision (vision.decision)
    -> reading, and, uncalibrated, a close-up re-read (vision.close_up)

Every step takes the one frozen `vision.Config` passed in. How the nets are
trained, on what data, and the reader's figures: docs/vision.md.
"""

from __future__ import annotations

import numpy as np

from .classifier import classify, classify_pooled, wide_probs
from .close_up import close_up
from .decision import beside_unclear, cut_by_frame, decide, second_looks, valuable
from .detector import detect
from .frame import flat, tray_area
from .reading import Die, Reading, in_reading_order
from .settings import Config


def read_learned(frame: np.ndarray, config: Config | None = None) -> Reading:
    """Read a validated (H, W, 3) uint8 BGR frame with settings `config` (None: the defaults)."""
    s = config or Config()
    taught = None
    if s.taught:
        from . import teach
        taught = teach.load(s.taught)
    reading, dropped, seen = read_once(frame, s, pooled=taught is not None and taught.teaches())
    if not s.die_px:
        reading = close_up(frame, s, reading, dropped, lambda again: read_once(frame, again)[0])
    if taught is not None:
        reading = teach.apply(frame, reading, taught, s, seen)
    return reading


def read_once(frame: np.ndarray, s: Config, pooled: bool = False) -> tuple[Reading, list, dict]:
    """One reading of the frame, the detector at s.die_px or auto-zoomed; the
    detections the first net called no die, (cx, cy, side) each; and, with
    `pooled`, each die's (cx, cy, side) -> the first net's (probabilities,
    pooled features), which light teaching compares with its examples."""
    H, W = frame.shape[:2]
    img, ox, oy = tray_area(frame, s.roi)
    if flat(img):
        return Reading((), W, H), [], {}
    # Dice are looked for in the tray area, but read on the whole frame: a die
    # on the area's edge keeps its real pixels.
    dets = [(cx + ox, cy + oy, side, score) for cx, cy, side, score in detect(img, s)]
    boxes = [(cx, cy, side) for cx, cy, side, _ in dets]
    cuts = [cut_by_frame(cx, cy, side, W, H) for cx, cy, side, _ in dets]
    scores = [score for *_, score in dets]
    sides = [side for _, _, side, _ in dets]
    first, feats = classify_pooled(frame, boxes, s) if pooled else (classify(frame, boxes, s), None)
    relooked, vouch = second_looks(first, valuable(cuts, scores, sides, s), s)
    wide = wide_probs(frame, boxes, relooked | vouch, s)        # one batch for both
    verdicts = decide(first, wide, cuts, scores, sides, s)
    dice, dropped, kept, seen = [], [], [], {}
    for i, ((cx, cy, side, score), v) in enumerate(zip(dets, verdicts)):
        if v is None:
            dropped.append((cx, cy, side))
            continue
        kept.append((cx, cy, side, score))
        if feats is not None:
            seen[(cx, cy, side)] = (first[i], feats[i])
        box = (int(round(cx - side / 2)), int(round(cy - side / 2)), int(round(side)), int(round(side)))
        dice.append(Die(v.value, (cx, cy), box, v.confidence, v.reason, side))
    return Reading(tuple(in_reading_order(beside_unclear(dice, kept, s))), W, H), dropped, seen

