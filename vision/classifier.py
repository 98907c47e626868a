"""The learned reader's second step: each detected die's value from a crop classifier.

A CLS x CLS crop of the full-resolution frame around each centre (side CROP x
the die's side), seen twice (as is, and turned a quarter and mirrored: a die
face reads the same), classes 0 = not a die, 1-6 = the value. The second look
(nets.WIDE_NET): a wider net, 2.5 times the cost, for the dice the decision
(vision.decision.second_looks) asks it about.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from . import nets
from .settings import Config

CLS = 48                 # classifier crop size, pixels (the nets' input)
CROP = 1.2               # crop side / die side, as the nets were trained


def crop_affine(cx: float, cy: float, side: float, angle: float = 0.0, out: int = CLS) -> np.ndarray:
    """2x3 affine taking the frame to an out x out crop of side `side` centred on (cx, cy)."""
    k = out / side
    c, s = math.cos(angle) * k, math.sin(angle) * k
    return np.array([[c, s, out / 2 - c * cx - s * cy],
                     [-s, c, out / 2 + s * cx - c * cy]], np.float32)


def crops(frame: np.ndarray, boxes) -> np.ndarray:
    """(N, 3, CLS, CLS) float32 blob of crops for boxes [(cx, cy, side)]."""
    out = np.empty((len(boxes), CLS, CLS, 3), np.float32)
    for i, (cx, cy, side) in enumerate(boxes):
        m = crop_affine(cx, cy, side * CROP)
        # warpAffine has no area mode (INTER_AREA gives the same as this): crops of
        # big dice are aliased, as they were in training.
        out[i] = cv2.warpAffine(frame, m, (CLS, CLS), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return (out.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def _probs(net: str, blob: np.ndarray, two: bool, models: str, pooled: bool = False):
    """((N, 7) probabilities of classifier `net` (of folder `models`) on a crops() blob, and with
    `pooled` its pooled features (N, C) from the same pass, else None)."""
    n = len(blob)
    if two:
        # The same die turned a quarter and mirrored (a transpose): the value
        # does not change, so averaging the two damps a view-specific slip.
        blob = np.concatenate([blob, np.ascontiguousarray(blob.transpose(0, 1, 3, 2))])
    out, f = nets.run_pooled(models, net, blob) if pooled else (nets.run(models, net, blob), None)
    p = _softmax(out.reshape(len(blob), 7))
    if two:
        p = (p[:n] + p[n:]) / 2
        f = None if f is None else (f[:n] + f[n:]) / 2
    return p, f


def classify(frame: np.ndarray, boxes, s: Config, net: str = nets.CLS_NET) -> np.ndarray:
    """(N, 7) probabilities (0 = not a die, 1-6) of classifier `net` for boxes [(cx, cy, side)]."""
    if not len(boxes):
        return np.zeros((0, 7), np.float32)
    return _probs(net, crops(frame, boxes), s.two_views, s.models)[0]


def classify_pooled(frame: np.ndarray, boxes, s: Config) -> tuple[np.ndarray, np.ndarray]:
    """(classify()'s probabilities (N, 7), the first classifier's pooled features (N, C), unit
    length) in one pass: what light teaching (vision.teach) compares a die with its examples by."""
    if not len(boxes):
        return np.zeros((0, 7), np.float32), np.zeros((0, 0), np.float32)
    p, f = _probs(nets.CLS_NET, crops(frame, boxes), s.two_views, s.models, pooled=True)
    f = f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)
    return p, f.astype(np.float32)


def wide_probs(frame: np.ndarray, boxes, rows: np.ndarray, s: Config) -> np.ndarray:
    """(N, 7): the wider classifier's probabilities for `rows` (a bool per box), 0 elsewhere.

    The wider net costs 2.5 times as much as the first: it sees only the dice
    the reader asks it about (a few a tray; the reader leaves out the faint
    and cut ones, unsure whatever it reads)."""
    out = np.zeros((len(boxes), 7), np.float32)
    look = np.nonzero(rows)[0]
    if len(look):
        out[look] = classify(frame, [boxes[i] for i in look], s, net=nets.WIDE_NET)
    return out
