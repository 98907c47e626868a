"""Train the learned dice reader (detector + crop classifier) and export ONNX.

Run from the repository root (needs torch, onnx; training only, never a run-time
dependency):

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python -m vision_tools.train.train_dice {det,cls,wide} --minutes M --seed S --out DIR ...

The recipe of the shipped models, its steps in the order they must run (each
learns from the nets then in vision/models/), is in vision_tools/train/README.md.

`--checkpoint FILE.pt` also saves the torch weights and `--resume FILE.pt
--lr 5e-4` goes on training them (the ONNX export folds batch norm away); the
shipped classifiers' are in vision_tools/train/checkpoints/.
`--textures P`: that share of the classifier's crops are checked, striped or
dotted patterns or blocky noise, to be called "not a die".
`--cocked P`: that share are rendered dice leaning on an edge (`data.cocked_die`),
cropped on one of their faces as the detector sees them: two thirds cocked
(38-52 degrees), whose target is each value at a sixth (a die, no value), a
third leaning 5-32 degrees, read by their top face.
`--see-through P`: that share of the crops not already taken by `--textures` and
`--cocked` are picked from rendered scenes of translucent dice
(`data.synthetic(ghosts=True)`), the bottom face's middle pip showing up to
nearly as strongly as a pip, and cropped as photo dice are: read by their top
face, or, about 3 in 10, a crop beside or between them, "not a die".
`--finishes P`: likewise, that share of the crops left are picked from rendered
scenes whose dice have a real die's body (`data.synthetic(finishes=True)`:
marbled, flecked with glitter, or clear).
`--hard P`: when a labelled photo die is picked for a crop, it is one of the
dice the classifier in vision/models/ gives their value less than 0.9 with
probability P (with 0.3, about a fifth of the photo crops).

Data: the "fit" split (vision_tools.train.data) of ../shared/data/dice/{nell-byler,
rune55-gray} (`--split` to change) plus scenes from vision.render.render_scene
with random dice colours, trays, sizes, blur, light, glare and see-through dice. Held-out photos
are never read unless `--split all`.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import time
from dataclasses import dataclass, field, fields, replace

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from vision.classifier import CLS, CROP, classify, crop_affine, crops
from vision.detector import DET_MIN, DET_STRIDE, det_size, detect
from vision.settings import Config

from .data import (COCKED, FOLDERS, NO_VALUE, SHARED, SMOOTHING, cocked_die, colour_aug, degrade, face_centres,
                   folder_list, photos, piece, synthetic, targets, texture)

SHIPPED = Config()   # the reader as shipped: its nets (vision/models/) find the hard examples
COCKED_POOL = 900   # rendered cocked dice to crop from (rendering one costs ~15 ms: a crop, well under 1)
LEANING_LITTLE = (5.0, 32.0)  # a third of the pool leans this far: still read, its top face up
SEE_THROUGH_POOL = 300   # rendered scenes of translucent dice (data.synthetic(ghosts=True)) to crop from
FINISHES_POOL = 300      # rendered scenes of marbled, glittery or clear dice (data.synthetic(finishes=True))


@dataclass(frozen=True)
class Recipe:
    """One training run's choices (the command line's options), passed to every step that uses them.

    split: the photos trained on ("val" chooses thresholds, "heldout" only measures);
    folders: the shared folders trained on (one alone: a test on the other);
    synthetic: rendered scenes made; syn_share: the share of batches drawn from them;
    tilt: the share of rendered scenes with dice seen at an angle, side faces showing;
    grey: the share of classifier crops made grey;
    hard: the chance a labelled photo die picked for a crop is a hard one;
    textures, cocked, see_through, finishes: the shares of classifier crops that are a patterned
    cloth or blocky noise ("not a die"), a die cocked on an edge (no value), a translucent die,
    a marbled, glittery or clear one; pieces: that share are round things beside a tray (a printed
    number token, a coin, a plastic piece: `data.piece`), "not a die"; degrade: that share of all
    classifier crops seen at a lower resolution, JPEG-compressed or squeezed (`data.degrade`);
    det_sides: detector crops scaled so a photo's median die is LO-HI px (log-uniform) in a share
    det_sides_share of them, the rest (and all with None) at its first-pass size x 0.5-2;
    keep: classifiers, a run that starts from a net: the weight of `keep_loss`, which holds the net to
    its starting outputs on the crops that net classed right.
    """

    split: str = "fit"
    folders: tuple[str, ...] = FOLDERS
    synthetic: int = 400
    syn_share: float = 0.3
    tilt: float = 0.0
    grey: float = 0.2
    hard: float = 0.0
    textures: float = 0.0
    cocked: float = 0.0
    see_through: float = 0.0
    finishes: float = 0.0
    pieces: float = 0.0
    degrade: float = 0.0
    det_sides: tuple[float, float] | None = None
    det_sides_share: float = 1.0
    keep: float = 0.0


@dataclass
class Pools:
    """What a classifier batch draws from besides its photos or scenes, made once a run.

    real: the labelled photos that `hard` and `hard_dice` index; hard: the detector's false peaks
    on them, (photo index, cx, cy, side); hard_dice: labelled dice the shipped classifier finds
    hard, (photo index, die index); cocked: rendered dice on an edge (`data.cocked_die`);
    see_through, finished: rendered scenes of translucent, and of marbled or glittery dice."""

    real: list = field(default_factory=list)
    hard: list = field(default_factory=list)
    hard_dice: list = field(default_factory=list)
    cocked: list = field(default_factory=list)
    see_through: list = field(default_factory=list)
    finished: list = field(default_factory=list)


def conv(i, o, s=1, d=1, bn=True):
    """A 3x3 convolution, batch norm and ReLU; bn=False: the convolution carries a bias instead (the
    form of an exported net, batch norm folded into it, which `from_onnx` loads to fine-tune)."""
    if not bn:
        return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=True), nn.ReLU(inplace=True))
    return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o),
                         nn.ReLU(inplace=True))


class Cls(nn.Module):
    """48x48 crop -> 7 logits (0 = not a die, 1-6). About 21 M multiply-adds a crop."""

    def __init__(self, bn=True):
        super().__init__()
        self.f = nn.Sequential(conv(3, 24, bn=bn), nn.MaxPool2d(2),
                               conv(24, 32, bn=bn), conv(32, 32, bn=bn), nn.MaxPool2d(2),
                               conv(32, 64, bn=bn), conv(64, 64, bn=bn), nn.MaxPool2d(2),
                               conv(64, 128, bn=bn), nn.AdaptiveAvgPool2d(1))
        self.h = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, 7))

    def forward(self, x):
        return self.h(self.f(x))


class ClsWide(nn.Module):
    """The second look (dice_cls_wide.onnx): the same 48x48 crop, wider and one layer more,
    about 53 M multiply-adds a crop (2.5x Cls); run only on the dice Cls cannot value."""

    def __init__(self, bn=True):
        super().__init__()
        self.f = nn.Sequential(conv(3, 32, bn=bn), nn.MaxPool2d(2),
                               conv(32, 48, bn=bn), conv(48, 48, bn=bn), nn.MaxPool2d(2),
                               conv(48, 96, bn=bn), conv(96, 96, bn=bn), nn.MaxPool2d(2),
                               conv(96, 160, bn=bn), conv(160, 160, bn=bn), nn.AdaptiveAvgPool2d(1))
        self.h = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(160, 7))

    def forward(self, x):
        return self.h(self.f(x))


ARCH = {"cls": Cls, "wide": ClsWide}
ONNX_NAME = {"cls": "dice_cls.onnx", "wide": "dice_cls_wide.onnx", "det": "dice_det.onnx"}


class Det(nn.Module):
    """Frame -> (4, H/4, W/4): a die-centre heatmap (logit), log die side, centre offset."""

    def __init__(self, bn=True):
        super().__init__()
        self.c1 = conv(3, 16, 2, bn=bn)
        self.c2 = nn.Sequential(conv(16, 24, 2, bn=bn), conv(24, 24, bn=bn))
        self.c3 = nn.Sequential(conv(24, 48, 2, bn=bn), conv(48, 48, bn=bn))
        self.c4 = nn.Sequential(conv(48, 64, 2, bn=bn), conv(64, 64, bn=bn), conv(64, 64, d=2, bn=bn))
        self.l3 = nn.Conv2d(64, 48, 1)
        self.m3 = conv(48, 48, bn=bn)
        self.l2 = nn.Conv2d(48, 24, 1)
        self.m2 = conv(24, 32, bn=bn)
        self.head = nn.Conv2d(32, 4, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x):
        a = self.c2(self.c1(x))
        b = self.c3(a)
        c = self.c4(b)
        b = self.m3(b + self.up(self.l3(c)))
        a = self.m2(a + self.up(self.l2(b)))
        return self.head(a)


# ----------------------------------------------------------------------------- samples

def load_sources(r: Recipe):
    real = []
    for f in r.folders:
        real += photos(os.path.join(SHARED, f), r.split)
    syn = synthetic(r.synthetic, seed=1, tilt=r.tilt)
    print(f"train photos {len(real)} ({sum(len(l) for _, _, l in real)} dice), synthetic {len(syn)}",
          flush=True)
    return real, syn


def false_peaks(real, s: Config = SHIPPED, heat_t: float = 0.2) -> list:
    """Detector peaks (with `s`'s nets, down to `heat_t`) on the labelled photos `real` that lie on no
    labelled die: [(image index, cx, cy, side)]. Far from every label's centre: loose or offset boxes
    must not make real dice negatives."""
    from vision.labels import match
    from vision.reading import Die, Reading

    loose = replace(s, heat_t=heat_t)
    out = []
    for k, (_, img, labs) in enumerate(real):
        dets = detect(img, loose)
        _, extra, _ = match(Reading(tuple(Die(None, (cx, cy), (0, 0, 1, 1), sc) for cx, cy, _, sc in dets)), labs)
        unmatched = {d.center for d in extra}
        for cx, cy, side, _ in dets:
            if (cx, cy) in unmatched and all(math.hypot(cx - (x + w / 2), cy - (y + h / 2)) > 0.7 * math.sqrt(w * h)
                                             for _, x, y, w, h in labs):
                out.append((k, cx, cy, side))
    return out


def mine_hard_negatives(real):
    """Detector peaks on the train photos that match no label: (image index, cx, cy, side)."""
    if not os.path.isfile(os.path.join(SHIPPED.models, "dice_det.onnx")):
        return []
    out = false_peaks(real)
    print(f"hard negatives from the detector: {len(out)}", flush=True)
    return out


HARD_BELOW = 0.9   # the shipped second look was mined at this bound: wider than the dice it reads (p_look)


def mine_hard_dice(real, below: float = HARD_BELOW):
    """Labelled dice of the train photos the classifier in vision/models/ gives their value less
    than `below`: (image index, label index). The second look is trained more on them."""
    if not os.path.isfile(os.path.join(SHIPPED.models, "dice_cls.onnx")):
        raise SystemExit(f"--hard needs a classifier to find the hard dice: no dice_cls.onnx in {SHIPPED.models}")
    out = []
    for k, (_, img, labs) in enumerate(real):
        p = classify(img, [(x + w / 2, y + h / 2, math.sqrt(w * h)) for _, x, y, w, h in labs], SHIPPED)
        out += [(k, j) for j, (v, *_) in enumerate(labs) if p[j, v] < below]
    print(f"hard dice (shipped classifier below {below}): {len(out)}", flush=True)
    return out


def _crop(img, cx, cy, side, rng, flip=True):
    m = crop_affine(cx, cy, side, rng.uniform(0, 2 * np.pi))
    if flip and rng.random() < 0.5:
        m = np.array([[-1, 0, CLS], [0, 1, 0]], np.float32) @ np.vstack([m, [0, 0, 1]])
    # Bilinear: warpAffine has no area mode (the shipped nets were trained with
    # INTER_AREA asked for, which gives the same pixels).
    return cv2.warpAffine(img, m.astype(np.float32), (CLS, CLS), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def die_crop(img, cx, cy, side, rng):
    """A crop of the die at (cx, cy), side `side`, off centre and size as the detector's boxes are."""
    return _crop(img, cx + rng.uniform(-0.12, 0.12) * side, cy + rng.uniform(-0.12, 0.12) * side,
                 side * CROP * math.exp(rng.uniform(math.log(0.75), math.log(1.35))), rng)


def peak_crop(img, cx, cy, side, rng):
    """A crop around a detector peak (cx, cy, side) that is no die, a little off as it would be read."""
    return _crop(img, cx + rng.uniform(-0.1, 0.1) * side, cy + rng.uniform(-0.1, 0.1) * side,
                 side * CROP * rng.uniform(0.85, 1.2), rng)


def _negative(img, labs, v, cx, cy, side, rng):
    """A crop the classifier must call "not a die", or None: near, inside or between dice, or away."""
    kind = rng.random()
    if kind < 0.25:             # a pip-sized crop inside the die (detector peaks on pips of big dice)
        return _crop(img, cx + rng.uniform(-0.3, 0.3) * side, cy + rng.uniform(-0.3, 0.3) * side,
                     side * rng.uniform(0.2, 0.5), rng)
    if kind < 0.4 and len(labs) > 1:   # between this die and the next one
        others = [(math.hypot(x + w / 2 - cx, y + h / 2 - cy), x + w / 2, y + h / 2)
                  for _, x, y, w, h in labs]
        others = [o for o in others if o[0] > 0.3 * side]
        if others:
            _, ox, oy = min(others)
            t = rng.uniform(0.4, 0.6)
            px, py = cx + t * (ox - cx), cy + t * (oy - cy)
            if all(math.hypot(px - (x + w / 2), py - (y + h / 2)) > 0.4 * math.sqrt(w * h)
                   for _, x, y, w, h in labs):
                return _crop(img, px, py, side * CROP * rng.uniform(0.8, 1.3), rng)
    for _ in range(20):         # beside the die, or anywhere on the tray
        if rng.random() < 0.5:
            a, r = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 1.1) * side
            px, py = cx + r * math.cos(a), cy + r * math.sin(a)
        else:
            px, py = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
        if all(math.hypot(px - (x + w / 2), py - (y + h / 2)) > 0.45 * math.sqrt(w * h)
               for _, x, y, w, h in labs):
            return _crop(img, px, py, side * CROP * rng.uniform(0.7, 1.4), rng)
    return None


def cls_batch(srcs, n, rng, r: Recipe = Recipe(), pools: Pools = Pools()):
    """(crops (n, 3, CLS, CLS) in 0..1, targets (n, 7)) drawn from photos or scenes `srcs` and,
    by the recipe's shares, from `pools`."""
    xs, ys = np.empty((n, CLS, CLS, 3), np.float32), np.empty(n, np.int64)
    real = pools.real
    for i in range(n):
        if rng.random() < r.textures:
            xs[i], ys[i] = colour_aug(texture(rng, CLS), rng, r.grey), 0
            continue
        if r.pieces and rng.random() < r.pieces:      # no draw at 0: older recipes keep their crops
            xs[i], ys[i] = colour_aug(piece(rng, CLS), rng, r.grey), 0
            continue
        if pools.cocked and rng.random() < r.cocked:
            c, ys[i] = _cocked_crop(pools.cocked, rng)
            xs[i] = colour_aug(c, rng, r.grey)
            continue
        pick = pools.see_through if pools.see_through and rng.random() < r.see_through else srcs
        if pick is srcs and r.finishes and pools.finished and rng.random() < r.finishes:
            pick = pools.finished
        if pick is real and pools.hard and rng.random() < 0.08:
            k, cx, cy, side = pools.hard[rng.integers(len(pools.hard))]
            c = peak_crop(real[k][1], cx, cy, side, rng)
            xs[i], ys[i] = colour_aug(c.astype(np.float32), rng, r.grey), 0
            continue
        if pick is real and pools.hard_dice and rng.random() < r.hard:
            k, j = pools.hard_dice[rng.integers(len(pools.hard_dice))]
            _, img, labs = real[k]
            v, x, y, w, h = labs[j]
        else:
            _, img, labs = pick[rng.integers(len(pick))]
            v, x, y, w, h = labs[rng.integers(len(labs))]
        side = math.sqrt(w * h)
        cx, cy = x + w / 2, y + h / 2
        c = _negative(img, labs, v, cx, cy, side, rng) if rng.random() < 0.3 else None
        if c is None:
            c = die_crop(img, cx, cy, side, rng)
            ys[i] = v
        else:
            ys[i] = 0
        xs[i] = colour_aug(c.astype(np.float32), rng, r.grey)
    if r.degrade:       # no draw at 0: older recipes keep their crops
        for i in range(n):
            if rng.random() < r.degrade:
                xs[i] = degrade(xs[i], rng)
    return torch.from_numpy(xs.transpose(0, 3, 1, 2) / 255.0), torch.from_numpy(targets(ys))


def _cocked_crop(pool: list, rng) -> tuple[np.ndarray, int]:
    """A crop of a die of `pool` (Pools.cocked) and its label, as the detector sees it: centred on
    one of its faces (it peaks on the top face, or on the side face beside it: a phantom die),
    about a face across. Leaning COCKED, any face, NO_VALUE; leaning less, the top face, its value
    (so the net still reads a die that leans a little, as on a die seen aslant)."""
    img, d = pool[rng.integers(len(pool))]
    faces = face_centres(d)
    cocked = d.tilt >= COCKED[0]
    cx, cy = faces[str(rng.choice(sorted(faces))) if cocked else "top"]
    c = _crop(img, cx + rng.uniform(-0.1, 0.1) * d.side, cy + rng.uniform(-0.1, 0.1) * d.side,
              d.side * 1.15 * CROP * math.exp(rng.uniform(math.log(0.8), math.log(1.25))), rng)
    return c.astype(np.float32), NO_VALUE if cocked else d.value


def val_crops():
    """Centred crops of every labelled die of the "val" photos: (x, y) for monitoring."""
    xs, ys = [], []
    for f in FOLDERS:
        for _, img, labs in photos(os.path.join(SHARED, f), "val"):
            boxes = [(x + w / 2, y + h / 2, math.sqrt(w * h)) for _, x, y, w, h in labs]
            xs.append(crops(img, boxes))
            ys += [v for v, *_ in labs]
    return torch.from_numpy(np.concatenate(xs)), np.array(ys)


DET_IN = DET_MIN  # detector crop side (the reader pads a smaller input to it)


def det_batch(srcs, n, rng, r: Recipe = Recipe()):
    g = DET_IN // DET_STRIDE
    xs = np.empty((n, DET_IN, DET_IN, 3), np.float32)
    heat = np.zeros((n, g, g), np.float32)
    reg = np.zeros((n, 3, g, g), np.float32)
    mask = np.zeros((n, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32) + 0.5
    for i in range(n):
        _, img, labs = srcs[rng.integers(len(srcs))]
        H, W = img.shape[:2]
        _, _, s0 = det_size(W, H, SHIPPED)
        sides = [math.sqrt(w * h) for _, _, _, w, h in labs]
        # (no draw at share 1: a run with `--det-sides` alone keeps its random sequence)
        if r.det_sides and (r.det_sides_share >= 1.0 or rng.random() < r.det_sides_share):
            s = math.exp(rng.uniform(*np.log(r.det_sides))) / float(np.median(sides))
        else:
            s = s0 * math.exp(rng.uniform(math.log(0.5), math.log(2.0)))
        s = min(s, 100.0 / max(sides), 1.5)
        s = max(s, 7.0 / min(sides))
        ang = rng.uniform(0, 2 * np.pi)
        # centre the crop on a random die (or random point)
        if rng.random() < 0.8:
            _, x, y, w, h = labs[rng.integers(len(labs))]
            fx, fy = x + w / 2 + rng.uniform(-40, 40) / s, y + h / 2 + rng.uniform(-40, 40) / s
        else:
            fx, fy = rng.uniform(0, W), rng.uniform(0, H)
        m = crop_affine(fx, fy, DET_IN / s, ang, out=DET_IN)
        if rng.random() < 0.5:
            m = (np.array([[-1, 0, DET_IN], [0, 1, 0]], np.float32) @ np.vstack([m, [0, 0, 1]]))
        m = m.astype(np.float32)
        bval = tuple(float(c) for c in rng.integers(0, 256, 3))
        c = cv2.warpAffine(img, m, (DET_IN, DET_IN), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
                           if rng.random() < 0.5 else cv2.BORDER_REFLECT, borderValue=bval)
        xs[i] = colour_aug(c.astype(np.float32), rng)
        for (v, x, y, w, h), side in zip(labs, sides):
            px = m[0, 0] * (x + w / 2) + m[0, 1] * (y + h / 2) + m[0, 2]
            py = m[1, 0] * (x + w / 2) + m[1, 1] * (y + h / 2) + m[1, 2]
            gx, gy = px / DET_STRIDE, py / DET_STRIDE
            if not (0 <= gx < g and 0 <= gy < g):
                continue
            sd = side * s
            sig = max(0.6, sd / DET_STRIDE * 0.15)
            heat[i] = np.maximum(heat[i], np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig)))
            ix, iy = int(gx), int(gy)
            heat[i, iy, ix] = 1.0
            mask[i, iy, ix] = 1.0
            reg[i, :, iy, ix] = (math.log(sd), gx - ix - 0.5, gy - iy - 0.5)
    return (torch.from_numpy(xs.transpose(0, 3, 1, 2) / 255.0), torch.from_numpy(heat),
            torch.from_numpy(reg), torch.from_numpy(mask))


def focal(logit, gt):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    npos = pos.sum().clamp(min=1)
    lp = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    ln = -(torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * (1 - pos)).sum()
    return (lp + ln) / npos


def keep_loss(logits, start_logits, y):
    """Mean KL divergence from the starting net's probabilities to the net's, over the crops whose
    target gives the starting net's class at least half (it was right): a fine-tune learns the new
    crops without drifting on what it read well (a drift shows as new silent errors elsewhere)."""
    start = torch.softmax(start_logits, 1)
    right = (y.gather(1, start.argmax(1, keepdim=True)).squeeze(1) >= 0.5).float()
    kl = (start * (start.clamp_min(1e-8).log() - F.log_softmax(logits, 1))).sum(1)
    return (kl * right).sum() / right.sum().clamp(min=1)


def make_pools(real: list, r: Recipe, seed: int) -> Pools:
    """The classifier's pools for a run on photos `real` with recipe `r` (each empty at share 0)."""
    rng = np.random.default_rng(seed + 1)
    n = COCKED_POOL if r.cocked else 0
    # two thirds cocked, a third leaning less (read: the contrast teaches where "cocked" starts)
    return Pools(real=real, hard=mine_hard_negatives(real), hard_dice=mine_hard_dice(real) if r.hard else [],
                 cocked=([cocked_die(rng) for _ in range(n - n // 3)]
                         + [cocked_die(rng, LEANING_LITTLE) for _ in range(n // 3)]),
                 see_through=synthetic(SEE_THROUGH_POOL, seed + 2, ghosts=True) if r.see_through else [],
                 finished=synthetic(FINISHES_POOL, seed + 3, finishes=True) if r.finishes else [])


def train(kind: str, minutes: float, seed: int, r: Recipe = Recipe(), out_dir: str = Config.models,
          checkpoint: str | None = None, resume: str | None = None, lr: float = 2e-3,
          from_models: str | None = None):
    classifier = kind in ARCH
    if r.keep < 0 or (r.keep and not (classifier and (from_models or resume))):
        raise ValueError("keep (>= 0) holds a classifier to the net it starts from: give from_models or resume")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    real, syn = load_sources(r)
    pools = make_pools(real, r, seed) if classifier else Pools()
    model = ARCH[kind]() if classifier else Det()
    if from_models:
        # Go on training an exported net, batch norm folded (no checkpoint needed).
        from .from_onnx import load

        model = load(from_models, kind)
        print(f"started from {from_models}", flush=True)
    elif resume:
        # Go on training a saved net (the ONNX export folds batch norm, so keep the .pt).
        model.load_state_dict(torch.load(resume, map_location="cpu"))
        print(f"resumed from {resume}", flush=True)
    start = copy.deepcopy(model).eval() if r.keep else None
    opt = torch.optim.AdamW(model.parameters(), lr, weight_decay=1e-4)
    t0, it, end = time.time(), 0, time.time() + minutes * 60
    bs = 128 if classifier else 24
    ema = None
    val = val_crops() if classifier else None
    while time.time() < end:
        frac = (time.time() - t0) / (minutes * 60)
        for gparam in opt.param_groups:
            gparam["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
        srcs = syn if rng.random() < r.syn_share else real
        model.train()
        if classifier:
            x, y = cls_batch(srcs, bs, rng, r, pools)
            logits = model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=SMOOTHING)
            if start is not None:
                with torch.no_grad():
                    start_logits = start(x)
                loss = loss + r.keep * keep_loss(logits, start_logits, y)
        else:
            x, heat, reg, mask = det_batch(srcs, bs, rng, r)
            out = model(x)
            m = mask.unsqueeze(1)
            lreg = (F.smooth_l1_loss(out[:, 1:4], reg, reduction="none") * m).sum() / m.sum().clamp(min=1)
            loss = focal(out[:, 0], heat) + lreg
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema = loss.item() if ema is None else 0.98 * ema + 0.02 * loss.item()
        it += 1
        if it % 100 == 0:
            print(f"{kind} it {it} {time.time() - t0:.0f}s loss {ema:.4f}", flush=True)
        if val is not None and it % 500 == 0:
            model.eval()
            with torch.no_grad():
                p = torch.softmax(model(val[0]), 1).numpy()
            v = p.argmax(1)
            sure = p.max(1) >= 0.9
            print(f"  val {len(v)} dice: argmax right {np.mean(v == val[1]):.3f}; p>=0.9: "
                  f"right {np.sum(sure & (v == val[1]))} wrong {np.sum(sure & (v != val[1]))}", flush=True)
    model.eval()
    if checkpoint:
        # Half precision halves the file; resuming copies it back into float32.
        torch.save({k: v.half() if v.is_floating_point() else v for k, v in model.state_dict().items()},
                   checkpoint)
        print(f"saved {checkpoint}", flush=True)
    export(model, kind, out_dir)


EXPORT_TOLERANCE = 1e-3      # |OpenCV - torch| on random inputs (the nets' exports give about 1e-5)


def export(model: nn.Module, kind: str, out_dir: str, say=print) -> None:
    """Write ONNX_NAME[kind] to out_dir and check OpenCV's outputs match torch's."""
    model.eval()
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, ONNX_NAME[kind])
    classifier = kind in ARCH
    dummy = torch.zeros(1, 3, CLS, CLS) if classifier else torch.zeros(1, 3, 224, 384)
    dyn = {"x": {0: "n"}} if classifier else {"x": {0: "n", 2: "h", 3: "w"}}
    torch.onnx.export(model, dummy, path, input_names=["x"], output_names=["y"], dynamic_axes=dyn,
                      opset_version=13, dynamo=False)
    # check OpenCV gives the same outputs
    net = cv2.dnn.readNetFromONNX(path)
    x = torch.rand(4, 3, CLS, CLS) if classifier else torch.rand(1, 3, 224, 384)
    net.setInput(x.numpy())
    with torch.no_grad():
        ref = model(x).numpy()
    diff = float(np.abs(net.forward() - ref).max())
    say(f"exported {path} ({os.path.getsize(path) / 1e6:.2f} MB); max |cv2 - torch| = {diff:.2e}")
    if not diff <= EXPORT_TOLERANCE:
        raise RuntimeError(f"{path}: OpenCV's outputs differ from torch's by {diff:.2e} "
                           f"(at most {EXPORT_TOLERANCE:.0e}): the reader would not run the net trained")


def _sides(text: str) -> tuple[float, float]:
    """argparse type of --det-sides: "LO,HI", 0 < LO <= HI."""
    lo, hi = (float(v) for v in text.split(","))
    if not 0 < lo <= hi:
        raise ValueError(text)
    return lo, hi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["cls", "wide", "det"],
                    help="cls: the classifier; wide: the second look; det: the detector")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--synthetic", type=int, default=Recipe.synthetic)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--split", default=Recipe.split, choices=["fit", "train", "all"],
                    help="photos to train on (fit: train minus val; all: for the shipped model)")
    ap.add_argument("--syn-share", type=float, default=Recipe.syn_share, help="share of batches of rendered scenes")
    ap.add_argument("--folders", type=folder_list, default=FOLDERS,
                    help=f"shared folders to train on, comma-separated ({', '.join(FOLDERS)}; one alone: "
                         "the other is a new camera)")
    ap.add_argument("--out", default=Config.models, help="folder for the .onnx file")
    ap.add_argument("--checkpoint", metavar="FILE.pt", help="also save the torch weights (to resume)")
    ap.add_argument("--resume", metavar="FILE.pt", help="start from saved torch weights")
    ap.add_argument("--from-models", metavar="DIR",
                    help="start from the exported net in DIR (e.g. vision/models), batch norm folded")
    ap.add_argument("--pieces", type=float, default=Recipe.pieces,
                    help="classifiers: share of crops of round things beside a tray (number tokens, coins, "
                         "plastic pieces), to be called \"not a die\"")
    ap.add_argument("--degrade", type=float, default=Recipe.degrade,
                    help="classifiers: share of crops seen at a lower resolution, JPEG-compressed hard "
                         "or squeezed as by a camera aslant")
    ap.add_argument("--keep", type=float, default=Recipe.keep,
                    help="classifiers started with --from-models or --resume: weight of a loss holding "
                         "the net to its starting outputs on the crops it classed right")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate (cosine decay)")
    ap.add_argument("--tilt", type=float, default=Recipe.tilt,
                    help="share of rendered scenes whose dice are seen at an angle, side faces showing")
    ap.add_argument("--grey", type=float, default=Recipe.grey, help="share of classifier crops made grey")
    ap.add_argument("--hard", type=float, default=Recipe.hard,
                    help="chance a labelled photo die picked for a crop is one the classifier "
                         "in vision/models/ gives its value less than 0.9")
    ap.add_argument("--textures", type=float, default=Recipe.textures,
                    help="share of classifier crops that are a checked, striped or dotted pattern "
                         "or blocky noise, to be called \"not a die\"")
    ap.add_argument("--cocked", type=float, default=Recipe.cocked,
                    help="classifiers: share of crops of a rendered die leaning on an edge: two thirds "
                         "cocked (38-52 degrees), to be given no value (each of 1-6 a sixth), a third "
                         "leaning 5-32 degrees, read by their top face")
    ap.add_argument("--see-through", type=float, default=Recipe.see_through,
                    help="classifiers: share of crops from rendered translucent dice whose bottom face's "
                         "middle pip shows through (a 2 looking like a 3), read by their top face")
    ap.add_argument("--finishes", type=float, default=Recipe.finishes,
                    help="classifiers: share of crops, of those left by --textures, --cocked and "
                         "--see-through, from rendered dice with a real die's body (marbled, glitter "
                         "or clear; about 3 in 10 become 'not a die' crops beside them)")
    ap.add_argument("--det-sides", type=_sides, default=None,
                    metavar="LO,HI", help="detector: scale each photo so its median die is LO-HI px "
                                          "(log-uniform) instead of its first-pass size x 0.5-2")
    ap.add_argument("--det-sides-share", type=float, default=Recipe.det_sides_share,
                    help="share of detector crops scaled by --det-sides (the rest: first-pass size x 0.5-2)")
    a = ap.parse_args()
    if a.det_sides_share != Recipe.det_sides_share and not a.det_sides:
        ap.error("--det-sides-share needs --det-sides")
    recipe = Recipe(**{f.name: getattr(a, f.name) for f in fields(Recipe)})   # each field is an option
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    if a.from_models and (a.resume or a.checkpoint):
        ap.error("--from-models starts from an exported net, batch norm folded: its weights are the "
                 "ONNX file written, not a --checkpoint to --resume")
    train(a.kind, a.minutes, a.seed, recipe, a.out, a.checkpoint, a.resume, a.lr, a.from_models)


if __name__ == "__main__":
    main()
