"""A contact sheet of the dice a bench run got wrong, left unsure, missed or
invented: one enlarged tile each, with its label and what was read, so a person
can check by eye whether the reader or the label is wrong."""

from __future__ import annotations

import os
from dataclasses import dataclass

import cv2
import numpy as np

TILE = 128      # tile side, pixels
COLS = 8
CONTEXT = 1.6   # tile shows this x the box's side


@dataclass(frozen=True)
class Look:
    """One die to look at: where it is and what the label and the reader say."""

    image: str
    kind: str                    # "wrong", "unsure", "missed" or "phantom"
    label: int | None            # None for a phantom
    read: int | None             # None for unsure or missed
    confidence: float | None
    box: tuple[float, float, float, float]   # x, y, w, h in the photo


def tile(img: np.ndarray, look: Look) -> np.ndarray:
    """TILE x TILE crop around the look's box, the box drawn and the verdict written."""
    x, y, w, h = look.box
    cx, cy, side = x + w / 2, y + h / 2, max(w, h, 4.0) * CONTEXT
    k = TILE / side
    m = np.array([[k, 0, TILE / 2 - k * cx], [0, k, TILE / 2 - k * cy]], np.float32)
    out = cv2.warpAffine(img, m, (TILE, TILE), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT)
    b = TILE / CONTEXT
    p0 = (int(TILE / 2 - b / 2), int(TILE / 2 - b / 2))
    cv2.rectangle(out, p0, (int(p0[0] + b), int(p0[1] + b)), (0, 200, 255), 1)
    said = "?" if look.read is None else str(look.read)
    lab = "-" if look.label is None else str(look.label)
    conf = "" if look.confidence is None else f" {look.confidence:.2f}"
    text = [f"{look.kind} L{lab} R{said}{conf}", os.path.splitext(look.image)[0][-14:]]
    for i, t in enumerate(text):
        org = (3, 12 + i * 12) if i == 0 else (3, TILE - 4)
        cv2.putText(out, t, org, cv2.FONT_HERSHEY_SIMPLEX, 0.36, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, t, org, cv2.FONT_HERSHEY_SIMPLEX, 0.36, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def contact_sheet(folder: str, looks: list[Look]) -> np.ndarray | None:
    """The tiles of `looks` (photos read from folder/images), COLS a row; None if none."""
    tiles, cache = [], {}
    for look in looks:
        if look.image not in cache:
            cache = {look.image: cv2.imread(os.path.join(folder, "images", look.image), cv2.IMREAD_COLOR)}
        img = cache[look.image]
        if img is not None:
            tiles.append(tile(img, look))
    if not tiles:
        return None
    tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % COLS)
    return np.vstack([np.hstack(tiles[i:i + COLS]) for i in range(0, len(tiles), COLS)])
