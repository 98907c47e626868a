"""Learned dice reader (experiment): a tiny centre-heatmap detector + a crop classifier.

Both nets are ONNX files in vision/models/, run with cv2.dnn (no torch at run
time). Trained by vision/train/train_dice.py; see docs/vision.md ("Learned
reader: experiment").

1. Detector (`dice_det.onnx`): the frame is resized to about DET_AREA pixels;
   outputs at stride 4: a die-centre heatmap, log die size, centre offset.
2. Classifier (`dice_cls.onnx`): a CLS x CLS crop around each centre (side
   CROP x the die's box side), classes 0 = not a die, 1-6 = value.
A die gets a value only when the classifier is sure (p >= P_SURE); otherwise
it is reported with value None.
"""

from __future__ import annotations

import math
import os

import cv2
import numpy as np

from .reading import Die, Reading

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
DET_AREA = 384 * 216     # detector input area, pixels
DET_STRIDE = 4
CLS = 32                 # classifier crop size, pixels
CROP = 1.15              # crop side / die box side
HEAT_T = 0.3             # detector peak threshold
NMS = 0.6                # peaks closer than NMS x die side are one die
P_SURE = 0.9             # classifier probability needed to give a value
P_NOT_DIE = 0.6          # classifier "not a die" probability that drops a detection

_nets: dict = {}


def available() -> bool:
    return all(os.path.isfile(os.path.join(MODELS, f)) for f in ("dice_det.onnx", "dice_cls.onnx"))


def _net(name: str):
    if name not in _nets:
        _nets[name] = cv2.dnn.readNetFromONNX(os.path.join(MODELS, name))
    return _nets[name]


def det_size(w: int, h: int) -> tuple[int, int, float]:
    """Detector input (width, height) (multiples of 16) and the scale used."""
    s = math.sqrt(DET_AREA / float(w * h))
    dw = max(32, int(round(w * s / 16)) * 16)
    dh = max(32, int(round(h * s / 16)) * 16)
    return dw, dh, s


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
        out[i] = cv2.warpAffine(frame, m, (CLS, CLS), flags=cv2.INTER_AREA if side * CROP > 2 * CLS
                                else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return (out.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)


def classify(frame: np.ndarray, boxes) -> np.ndarray:
    """(N, 7) probabilities (0 = not a die, 1-6) for boxes [(cx, cy, side)]."""
    if not len(boxes):
        return np.zeros((0, 7), np.float32)
    net = _net("dice_cls.onnx")
    net.setInput(crops(frame, boxes))
    z = net.forward().reshape(len(boxes), 7)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def detect(frame: np.ndarray) -> list[tuple[float, float, float, float]]:
    """[(cx, cy, side, score)] of die centres on a BGR frame."""
    H, W = frame.shape[:2]
    dw, dh, _ = det_size(W, H)
    sx, sy = W / dw, H / dh
    small = cv2.resize(frame, (dw, dh), interpolation=cv2.INTER_AREA)
    net = _net("dice_det.onnx")
    net.setInput(cv2.dnn.blobFromImage(small, 1 / 255.0))
    out = net.forward()[0]                       # (4, dh/4, dw/4)
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peak) & (heat >= HEAT_T))
    res = []
    for y, x in zip(ys, xs):
        cx = (x + 0.5 + float(out[2, y, x])) * DET_STRIDE * sx
        cy = (y + 0.5 + float(out[3, y, x])) * DET_STRIDE * sy
        side = float(np.exp(out[1, y, x])) * math.sqrt(sx * sy)
        res.append((cx, cy, side, float(heat[y, x])))
    # One die, one peak: drop a peak within half a die of a stronger one.
    res.sort(key=lambda r: -r[3])
    kept: list = []
    for r in res:
        if all(math.hypot(r[0] - k[0], r[1] - k[1]) > NMS * max(r[2], k[2]) for k in kept):
            kept.append(r)
    return kept


def read_learned(frame: np.ndarray) -> Reading:
    """Read a validated BGR frame with the learned nets alone."""
    H, W = frame.shape[:2]
    dets = detect(frame)
    probs = classify(frame, [(cx, cy, s) for cx, cy, s, _ in dets])
    dice = []
    for (cx, cy, side, sc), p in zip(dets, probs):
        if p[0] >= P_NOT_DIE:
            continue
        v = int(np.argmax(p[1:])) + 1
        conf = float(p[v] * min(1.0, sc / 0.5))
        sure = p[v] >= P_SURE and sc >= 0.4
        half = side / 2
        box = (int(round(cx - half)), int(round(cy - half)), int(round(side)), int(round(side)))
        dice.append(Die(v if sure else None, (cx, cy), box, conf, "" if sure else "learned-unsure",
                        side / 1.2))
    dice.sort(key=lambda d: (round(d.center[1] / max(8.0, d.box[3])), d.center[0]))
    return Reading(tuple(dice), W, H)


def read_combined(frame: np.ndarray, config=None, use_det: bool = True) -> Reading:
    """Classical reader cross-checked by the learned nets (validated BGR frame).

    Dice come from the classical reader and (use_det) the learned detector;
    every one is classified by the crop classifier. A value is reported when
    both agree, or when one has none (unsure / not seen) and the other gives
    one with its own confidence (classical value + classifier leaning the
    same way, or classifier p >= P_SURE). Disagreement -> unsure.
    """
    from .detect import read_frame

    H, W = frame.shape[:2]
    rc = read_frame(frame, config)
    dets = detect(frame) if use_det else []
    cl = list(rc.dice)
    pairs: list[tuple[Die | None, tuple | None]] = []
    used = set()
    for d in dets:
        best, bd = None, 1e9
        for j, c in enumerate(cl):
            if j in used:
                continue
            dist = math.hypot(c.center[0] - d[0], c.center[1] - d[1])
            if dist < 0.5 * max(d[2], c.box[2]) and dist < bd:
                best, bd = j, dist
        if best is not None:
            used.add(best)
        pairs.append((cl[best] if best is not None else None, d))
    pairs += [(c, None) for j, c in enumerate(cl) if j not in used]
    boxes = []
    for c, d in pairs:
        if d is not None:
            boxes.append((d[0], d[1], d[2]))
        else:
            boxes.append((c.center[0], c.center[1], math.sqrt(c.box[2] * c.box[3])))
    probs = classify(frame, boxes)
    dice = []
    for (c, d), p, (cx, cy, side) in zip(pairs, probs, boxes):
        vl = int(np.argmax(p[1:])) + 1
        lsure = p[vl] >= P_SURE and (d is None or d[3] >= 0.4)
        vc = c.value if c is not None else None
        if c is None and p[0] >= P_NOT_DIE:
            continue
        if vc is not None and lsure:
            v = vc if vc == vl else None
        elif vc is not None:
            v = vc if int(np.argmax(p)) == vc else None
        elif lsure:
            v = vl
        else:
            v = None
        if c is not None:
            centre, box, s = c.center, c.box, c.side
        else:
            centre = (cx, cy)
            box = (int(round(cx - side / 2)), int(round(cy - side / 2)), int(round(side)), int(round(side)))
            s = side / 1.2
        conf = float(p[v]) if v is not None else float(p[1:].max())
        dice.append(Die(v, centre, box, conf, "" if v is not None else "disagree", s))
    dice.sort(key=lambda d: (round(d.center[1] / max(8.0, d.box[3])), d.center[0]))
    return Reading(tuple(dice), W, H)
