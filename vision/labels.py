"""The labelled-photo format of ../shared/data/dice/README.md, read and matched.

    DIR/images/*.jpg               the photographs (JPEG or PNG)
    DIR/labels.csv                 header `image,value,x,y,w,h`, one row per die

`value` is the face on top (1-6), `x, y` the top-left corner of the die's box
and `w, h` its size, in the image's pixels. An image with no row holds no die.
The bench measures the reader on such folders, the companion exports its
confirmed rolls in it, and teaching (vision.teach) learns from it. A reported
die matches a label when its centre lies inside the label's box, one to one,
closest centres first (`match`).
"""

from __future__ import annotations

import csv
import math
import os
from collections import defaultdict

LABEL_COLUMNS = ("image", "value", "x", "y", "w", "h")
IMAGE_TYPES = (".jpg", ".jpeg", ".png")

Label = tuple[int, float, float, float, float]     # (value, x, y, w, h)


def load_labels(folder: str) -> dict[str, list[Label]]:
    """labels.csv -> {image name: [(value, x, y, w, h), ...]}; ValueError naming the line of a bad row."""
    out: dict[str, list] = defaultdict(list)
    path = os.path.join(folder, "labels.csv")
    with open(path, newline="", encoding="utf-8-sig") as fh:    # -sig: a spreadsheet's BOM
        rows = csv.DictReader(fh)
        missing = [c for c in LABEL_COLUMNS if c not in (rows.fieldnames or ())]
        if missing:
            raise ValueError(f"{path}: the header must name {','.join(LABEL_COLUMNS)}; "
                             f"{', '.join(missing)} missing (header: {','.join(rows.fieldnames or ()) or 'none'})")
        for row in rows:
            out[row["image"]].append(_label(row, f"{path}, line {rows.line_num}"))
    return out


def _label(row: dict, where: str) -> Label:
    """One labels.csv row as (value, x, y, w, h); ValueError naming `where` if it is not a die."""
    try:
        if not row["image"]:
            raise ValueError("no image name")
        value = int(row["value"])
        x, y, w, h = (float(row[c]) for c in "xywh")
    except (TypeError, ValueError) as exc:
        # TypeError: a short row (csv gives None for the cells it lacks)
        raise ValueError(f"{where}: not a label (image,value,x,y,w,h): {exc}") from None
    if not 1 <= value <= 6:
        raise ValueError(f"{where}: a die's value is 1-6, not {value}")
    if not (all(math.isfinite(v) for v in (x, y, w, h)) and w > 0 and h > 0):
        raise ValueError(f"{where}: a box needs finite x, y and w, h > 0, not {x}, {y}, {w}, {h}")
    return value, x, y, w, h


def image_names(folder: str, labels: dict) -> list[str]:
    """Every image of the folder, sorted: the labelled ones and those in images/ with no label
    (no dice, so a die reported there is a phantom)."""
    d = os.path.join(folder, "images")
    files = [n for n in os.listdir(d) if n.lower().endswith(IMAGE_TYPES)] if os.path.isdir(d) else []
    return sorted(set(labels) | set(files))


def _centre(box) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def inside(point, box) -> bool:
    """Is `point` (x, y) inside `box` (x, y, w, h)? The rule `match` pairs a die with a label by."""
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def match(reading, labels) -> tuple[list, list, list]:
    """One-to-one match of a reading's dice to labels [(value, x, y, w, h)].

    Returns (pairs [(die, label)], unmatched dice, unmatched labels).
    """
    cand = []
    for di, d in enumerate(reading.dice):
        for li, label in enumerate(labels):
            if inside(d.center, label[1:]):
                cx, cy = _centre(label[1:])
                cand.append((math.hypot(d.center[0] - cx, d.center[1] - cy), di, li))
    cand.sort()
    used_d, used_l, pairs = set(), set(), []
    for _, di, li in cand:
        if di in used_d or li in used_l:
            continue
        used_d.add(di)
        used_l.add(li)
        pairs.append((reading.dice[di], labels[li]))
    return (pairs, [d for i, d in enumerate(reading.dice) if i not in used_d],
            [lab for i, lab in enumerate(labels) if i not in used_l])
