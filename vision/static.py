"""What did not move is not a roll's die.

The camera sees more than the still frame it reads: the tray before the roll
(the settle watcher keeps it) and, when the owner saved one at
calibration, the empty tray. Printing, a board's number tokens and a die left
lying from before do not move; a rolled die does. So a detection on the still
frame whose patch looks the same in a reference frame, in the same place, was
there before the roll: it is not valued from this roll.

    kept = drop_static(reading, frame, [Reference(before), Reference(empty, source="empty tray")])
    kept.dice      # the dice that moved (or were not there before)
    kept.ignored   # the detections that were there already: value None, reason "static"

Same place, same look: the die's box (less INSET) is compared with the
reference around the same place, searched within SHIFT x the die's side (a
camera that shakes a pixel or two, JPEG), both shrunk to PATCH_PX pixels and
lightly blurred, the reference's brightness matched within GAIN (a camera's
auto-exposure). The die is static when the pixels that differ by more than
PIXEL_STEP in some channel, in blobs ERODE wide (a pip, not an edge a pixel
off), cover at most CHANGED_MAX x the box's side squared, and the patch has no
more contrast than the reference's there (CONTRAST_MAX). With a reference's
own reading, the die must also overlap a detection there (IoU >= IOU_SAME).
All thresholds are here, in one place.

A die rolled onto the very spot of one before, showing the same face turned
the same way, looks the same, and is ignored: nothing in the pictures tells
them apart. It shows as a die too few (the table corrects the count), never as
a wrong value. A die that landed a tenth of its side away, or turned, or with
another face, differs in its pips and edges, and is valued.

Pure: numpy arrays and readings in, a reading out; no file, no state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from .reading import Die, Reading

INSET = 0.1         # the die's box shrunk by this x its side on each side is compared: the die,
                    # not a die that lands beside it
SHIFT = 0.12        # the reference searched within this x the side (camera shake, JPEG, sub-pixel)
PATCH_PX = 64       # patches compared shrunk to about this many pixels across (a pip: 6-10 of them)
PIXEL_STEP = 28     # a pixel differs when a channel differs by more than this (noise: a few levels)
ERODE = 3           # ... and so do its neighbours within this square: a pip's worth, not an edge's line
CHANGED_MAX = 0.004 # static when what differs is at most this x the box's side squared (one pip,
                    # eroded, is 0.008 or more: another face always differs by a pip or more;
                    # the same die with noise, JPEG, 7 % brighter, a pixel off: 0.0004 or less)
CONTRAST_MAX = 1.5  # ... and the frame's patch has at most this x the reference's contrast (a white
                    # 1 on a white tray differs from the empty tray by a small pip, but has 6 x its
                    # contrast; the same token, noise, JPEG, 7 % brighter: 1.01)
GAIN = (0.8, 1.25)  # the reference's brightness matched to the frame's within this range, no more
IOU_SAME = 0.5      # with a reference reading: a detection there overlapping the die this much
REASON = "static"   # an ignored die's reason


@dataclass(frozen=True)
class Reference:
    """A frame of the same camera without this roll: the tray before it, or the empty tray.

    image: (H, W, 3) uint8 BGR, the still frame's size (another size is not used).
    reading: that frame's reading, when there is one (the settle watcher reads the tray
        before the roll anyway): a die is then static only where a detection was there too.
    source: "before" or "empty tray", for the record.
    """

    image: np.ndarray
    reading: Reading | None = None
    source: str = "before"


def iou(a, b) -> float:
    """Intersection over union of two (x, y, w, h) boxes."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    iw = min(ax + aw, bx + bw) - max(ax, bx)
    ih = min(ay + ah, by + bh) - max(ay, by)
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = float(iw * ih)
    return inter / float(aw * ah + bw * bh - inter)


def changed_share(frame: np.ndarray, reference: np.ndarray, box) -> float:
    """compare()'s first number."""
    return compare(frame, reference, box)[0]


def compare(frame: np.ndarray, reference: np.ndarray, box) -> tuple[float, float]:
    """How much of the patch around `box` (x, y, w, h) on `frame` differs from the reference at
    its best-matching place within SHIFT x the side, in die faces: the area that differs (in
    blobs ERODE wide) over the box's side squared; 1.0 when there is nothing to compare (a box
    off the frame, frames of different sizes). And the contrast there, the frame's over the
    reference's (their standard deviations, +1): a die on an empty tray has more."""
    if frame.shape != reference.shape or frame.ndim != 3:
        return 1.0, np.inf
    H, W = frame.shape[:2]
    x, y, w, h = (float(v) for v in box)
    side = max(w, h)
    if side < 2:
        return 1.0, np.inf
    m = -INSET * side
    x0, y0 = max(0, int(round(x - m))), max(0, int(round(y - m)))
    x1, y1 = min(W, int(round(x + w + m))), min(H, int(round(y + h + m)))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return 1.0, np.inf
    d = max(1, int(np.ceil(SHIFT * side)))
    rx0, ry0, rx1, ry1 = max(0, x0 - d), max(0, y0 - d), min(W, x1 + d), min(H, y1 + d)
    f = min(1.0, PATCH_PX / float(side + 2 * m))
    patch = _shrink(frame[y0:y1, x0:x1], f)
    search = _shrink(reference[ry0:ry1, rx0:rx1], f)
    ph, pw = patch.shape[:2]
    if search.shape[0] < ph or search.shape[1] < pw:
        return 1.0, np.inf
    # The reference's brightness matched to the frame's (auto-exposure), at the same place.
    ox, oy = int(round((x0 - rx0) * f)), int(round((y0 - ry0) * f))
    ox, oy = min(ox, search.shape[1] - pw), min(oy, search.shape[0] - ph)
    same = search[oy:oy + ph, ox:ox + pw]
    gain = float(np.clip((patch.mean() + 1.0) / (same.mean() + 1.0), *GAIN))
    search = search * gain
    res = cv2.matchTemplate(search, patch, cv2.TM_SQDIFF)
    _, _, (bx, by), _ = cv2.minMaxLoc(res)
    best = search[by:by + ph, bx:bx + pw]
    changed = (np.abs(patch - best).max(axis=2) > PIXEL_STEP).astype(np.uint8)
    # A pip differs as a blob; an edge a pixel off, noise and JPEG as lines and specks.
    changed = cv2.erode(changed, np.ones((ERODE, ERODE), np.uint8))
    contrast = (float(patch.std()) + 1.0) / (float(best.std()) + 1.0)
    return float(np.count_nonzero(changed)) / (side * f) ** 2, contrast


def is_static(die: Die, frame: np.ndarray, ref: Reference) -> bool:
    """Was `die` (on `frame`) already there, the same, in the reference?"""
    if ref.image is None or ref.image.shape != frame.shape:
        return False
    if ref.reading is not None:
        there = tuple(ref.reading.dice) + tuple(getattr(ref.reading, "ignored", ()))
        if not any(iou(die.box, other.box) >= IOU_SAME for other in there):
            return False
    changed, contrast = compare(frame, ref.image, die.box)
    return changed <= CHANGED_MAX and contrast <= CONTRAST_MAX


def drop_static(reading: Reading, frame: np.ndarray, references) -> Reading:
    """`reading` of `frame` without the dice that match a reference (same place, same look).

    references: Reference objects (or bare (H, W, 3) images, taken as references without a
    reading); None and references of another size are skipped. The dice dropped are kept in
    the result's `ignored`, each with value None and reason "static"; the rest are unchanged.
    """
    refs = [r if isinstance(r, Reference) else Reference(r) for r in (references or ()) if r is not None]
    refs = [r for r in refs if r.image is not None and r.image.shape == frame.shape]
    if not refs or not reading.dice:
        return reading
    kept, ignored = [], []
    for die in reading.dice:
        # A stand-in reader's dice may carry no box: nothing to compare, kept.
        if getattr(die, "box", None) is not None and any(is_static(die, frame, r) for r in refs):
            ignored.append(dataclasses.replace(die, value=None, reason=REASON))
        else:
            kept.append(die)
    if not ignored:
        return reading
    return dataclasses.replace(reading, dice=tuple(kept), ignored=tuple(reading.ignored) + tuple(ignored))


def _shrink(img: np.ndarray, f: float) -> np.ndarray:
    if f < 1.0:
        h, w = img.shape[:2]
        img = cv2.resize(img, (max(1, int(round(w * f))), max(1, int(round(h * f)))),
                         interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(img, (3, 3), 0).astype(np.float32)
