"""The dice reader's nets from scratch, one command: `python -m vision_tools.train all --out DIR`.

Trains the detector, then (after mining its false peaks on the photos) the first classifier
and the second look, each a fixed number of seeded steps (`Recipe`), and exports the three
ONNX files in the form vision/ loads, with DIR/recipe.json (the command, the recipe, the
times). Everything it learns from is cut once and cached (`vision_tools/train/cache/`,
keyed by the photos' bytes, the recipe's data fields and the cutting code): crops of
every labelled die and of "not a die" places around them (context crops, 2.4 die sides
across at 40 px a side, so that the batch's jitter of place, size, turn and mirror stays
inside them), rendered dice (plain, aslant, translucent, marbled or glittery, cocked on an
edge, on printed boards), printed number tokens, boards and patterns, and the detector's
128x128 crops with their targets. Batches are drawn from the cache and jittered on the
whole batch at once (torch: `colour_batch`, `cls_views`, `det_views`): colour is what the
nets overfit, so every batch's colours are scrambled (channels permuted, inverted, grey,
gain, contrast, brightness, gamma, blur, lower resolution, noise).

Each step's randomness comes from (seed, step) alone, and the training state (weights,
optimizer, step) is saved every `ckpt_every` steps in DIR/state/: a run stopped at any
point and started again with the same command goes on from the last save and ends with
the weights of an uninterrupted run; the same seed gives the same nets on one machine
(same torch, same thread count).
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import itertools
import json
import math
import os
import platform
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, fields, replace

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from vision.classifier import CLS, CROP, crop_affine
from vision.detector import DET_MIN, DET_STRIDE, det_size
from vision.settings import Config

from ..machine import cpu
from . import data as D
from .data import FOLDERS, NO_VALUE, SHARED, SMOOTHING

CACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cache")
CTX = 96                # a cached classifier crop's side, pixels ...
CTX_SIDES = 2.4         # ... covering this many die sides (40 px a side, as CLS covers CROP sides)
DET_IN = DET_MIN        # the detector's training crops (the reader pads a smaller input to this)
DET_BIG = 120.0         # ... whose dice are at most this many px: a die a third of a close photo's height is seen whole
CUT_VERSION = 1         # bump when the cutting code changes what it cuts (the cache key has it)


@dataclass(frozen=True)
class Recipe:
    """Every choice of a run. The data fields (up to `cut_dice`) key the cache of cut crops."""

    seed: int = 0
    split: str = "train"            # the photos' split (data.SPLITS): fit + val; the held-out fifth never
    folders: tuple[str, ...] = FOLDERS
    photos: int = 0                 # at most this many photos of each folder (0: all; a test's tiny recipe)
    scenes: int = 300               # rendered scenes (data.synthetic), this share of them seen aslant:
    tilt: float = 0.3
    ghost_scenes: int = 120         # translucent dice, the bottom face's middle pip showing
    finish_scenes: int = 150        # marbled, glittery or clear bodies
    board_scenes: int = 120         # rendered dice on printed boards (number tokens around them)
    boards: int = 60                # printed boards with no die
    cocked: int = 600               # dice cocked on an edge (two thirds) or leaning a little
    pieces: int = 1500              # round things beside a tray (number tokens, coins, pieces)
    textures: int = 600             # checked, striped, dotted cloth and blocky noise
    negatives: int = 6              # "not a die" crops cut per photo (3 per rendered scene)
    det_crops: int = 24             # detector crops cut per photo (3 per rendered scene, 4 per board)
    board_crops: int = 8            # "not a die" crops per board (on its tokens, and anywhere)
    cloth_scenes: int = 0           # rendered dice on checked, striped or dotted cloths (as dice on boards)
    det_big: float = DET_BIG        # the detector's crops hold dice of 8 to this many px
    spread: float = D.SPREAD        # half the touching rendered scenes mix dice up to exp(2 x this) apart in size
    cut_dice: int = 0               # rendered dice cut by the frame, 30-60 % of their side out: a die, no value
    # nets
    det_width: tuple[int, ...] = (16, 24, 48, 64, 32)
    cls_width: tuple[int, ...] = (24, 32, 64, 128)
    wide_width: tuple[int, ...] = (24, 32, 64, 96, 96)
    det_steps: int = 11000
    cls_steps: int = 17000
    wide_steps: int = 10000
    det_batch: int = 24
    small_share: float = 0.0        # the first share of each net's steps on smaller crops, a step about half
    small_cls: int = 32             # the CPU: the classifiers' crops this many px a side (the reader's: CLS),
    small_det: int = 96             # the detector's windows of its crops this many px (of DET_IN)
    det_around: float = 0.5         # the detector's centre offset and side taught at the 8 cells around a
                                    # die's centre cell too, at this weight (0: the centre cell only)
    cls_batch: int = 128
    # classifier batches: the share drawn from each of GROUPS, and their colour jitter's lower
    # resolution and blur (share, lowest, span; the detector's: colour_batch's defaults)
    cls_shares: tuple[float, ...] = (0.40, 0.10, 0.08, 0.14, 0.04, 0.08, 0.06, 0.05, 0.05)
    cls_low: tuple[float, ...] = (0.2, 0.5, 0.35)
    cls_blur: tuple[float, ...] = (0.3, 0.3, 0.7)
    cls_plain: float = 0.35         # the share of classifier crops that keep their hues (colour_batch)
    hard: float = 0.0               # this share of a classifier batch's photo dice drawn from those the net
    hard_below: float = 0.9         # itself gives their value less than this, looked for every
    hard_every: int = 1000          # this many steps (and kept in the saved state)
    lr: float = 2e-3
    warmup: int = 100
    ema: float = 0.0                # the nets exported: the weights' moving average at this decay a step (0: the
                                    # last step's weights)
    ckpt_every: int = 250
    peaks: bool = True              # the classifiers learn the new detector's false peaks ...
    peaks_from: int = 6500          # ... the first classifier from this step (before it: beside the detector,
                                    # --jobs), the second look from its step wide_peaks_from (with --jobs 3
    wide_peaks_from: int = 0        # it too trains beside the detector until then)
    threads: int = 1                # torch threads a process (two on a shared machine were slower)
    channels_last: bool = True      # the nets' activations stored channels last: a third less CPU a step
    bf16: bool | None = None        # forward passes in bfloat16 (weights, optimizer and losses in float32):
                                    # half the CPU a step where the CPU computes bfloat16 (AVX-512 BF16,
                                    # AMX), eight times it where it does not; None: where it does (`resolved`)

    def __post_init__(self):
        if not 0 <= self.small_share < 1:
            raise ValueError(f"small_share {self.small_share}: a share of the steps, below 1 (the last at the reader's sizes)")
        if not (16 <= self.small_det < DET_IN and self.small_det % 16 == 0):   # the net halves its input 4 times
            raise ValueError(f"small_det {self.small_det}: a multiple of 16 below {DET_IN}")
        if not 16 <= self.small_cls <= CLS:
            raise ValueError(f"small_cls {self.small_cls}: 16 to {CLS} px")

    def data_key(self) -> dict:
        names = [f.name for f in fields(self)]
        return {n: getattr(self, n) for n in names[:names.index("cut_dice") + 1]}


def native_bf16() -> bool:
    """Whether this CPU computes bfloat16 convolutions itself (oneDNN's AVX-512 BF16 or AMX)."""
    return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())


def resolved(r: Recipe) -> Recipe:
    """`r` with its choices left to the machine made: bf16 None is bfloat16 where the CPU computes
    it (emulated, a step costs eight times float32's). recipe.json records what was run."""
    return r if r.bf16 is not None else replace(r, bf16=native_bf16())


TINY = Recipe(peaks=True, peaks_from=0, cls_plain=0.0, photos=4, scenes=6, ghost_scenes=2, finish_scenes=2,
              board_scenes=2, boards=2, cocked=6, pieces=8, textures=4, negatives=2, det_crops=2, board_crops=2, cloth_scenes=2, cut_dice=4,
              det_width=(4, 4, 8, 8, 4),
              cls_width=(4, 4, 8, 8), wide_width=(4, 4, 8, 8, 8), det_steps=6, cls_steps=6, wide_steps=4,
              det_batch=4, cls_batch=8, warmup=2, ckpt_every=2, threads=1)


# ----------------------------------------------------------------------------- nets

def conv(i, o, s=1, d=1, bn=True):
    if not bn:
        return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=True), nn.ReLU(inplace=True))
    return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Classifier(nn.Module):
    """48x48 crop -> 7 logits (0 = not a die, 1-6). Widths (a, b, c, d[, e]): train_dice.Cls is
    (24, 32, 64, 128), ClsWide (32, 48, 96, 160, 160); a fifth width adds a last layer."""

    def __init__(self, w=(16, 32, 48, 96), bn=True):
        super().__init__()
        a, b, c, d = w[:4]
        layers = [conv(3, a, bn=bn), nn.MaxPool2d(2), conv(a, b, bn=bn), conv(b, b, bn=bn), nn.MaxPool2d(2),
                  conv(b, c, bn=bn), conv(c, c, bn=bn), nn.MaxPool2d(2), conv(c, d, bn=bn)]
        if len(w) > 4:
            layers.append(conv(d, w[4], bn=bn))
        self.f = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1))
        self.h = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(w[-1], 7))

    def forward(self, x):
        return self.h(self.f(x))


class Detector(nn.Module):
    """Frame -> (4, H/4, W/4): die-centre heatmap (logit), log side, centre offset. Widths
    (a, b, c, d, e); train_dice.Det is (16, 24, 48, 64, 32)."""

    def __init__(self, w=(16, 24, 48, 64, 32), bn=True):
        super().__init__()
        a, b, c, d, e = w
        self.c1 = conv(3, a, 2, bn=bn)
        self.c2 = nn.Sequential(conv(a, b, 2, bn=bn), conv(b, b, bn=bn))
        self.c3 = nn.Sequential(conv(b, c, 2, bn=bn), conv(c, c, bn=bn))
        self.c4 = nn.Sequential(conv(c, d, 2, bn=bn), conv(d, d, bn=bn), conv(d, d, d=2, bn=bn))
        self.l3 = nn.Conv2d(d, c, 1)
        self.m3 = conv(c, c, bn=bn)
        self.l2 = nn.Conv2d(c, b, 1)
        self.m2 = conv(b, e, bn=bn)
        self.head = nn.Conv2d(e, 4, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x):
        a = self.c2(self.c1(x))
        b = self.c3(a)
        c = self.c4(b)
        b = self.m3(b + self.up(self.l3(c)))
        a = self.m2(a + self.up(self.l2(b)))
        return self.head(a)


def build(kind: str, r: Recipe, bn: bool = True) -> nn.Module:
    return Detector(r.det_width, bn) if kind == "det" else Classifier(r.cls_width if kind == "cls" else r.wide_width, bn)


def widths_of(kind: str, conv_outs: list[int]) -> tuple[int, ...]:
    """The widths of a net whose convolutions give `conv_outs` channels, in graph order (an
    exported net read back: from_onnx)."""
    if kind == "det":                  # c1, c2 x2, c3 x2, c4 x3, l3, m3, l2, m2, head
        return conv_outs[0], conv_outs[1], conv_outs[3], conv_outs[5], conv_outs[11]
    w = [conv_outs[0], conv_outs[1], conv_outs[3], conv_outs[5]]
    return tuple(w + conv_outs[6:7])


# ----------------------------------------------------------------------------- cutting (once, cached)

def _ctx(img, cx, cy, side) -> np.ndarray:
    """A CTX x CTX crop of CTX_SIDES x `side` around (cx, cy), as the reader cuts (bilinear, edge
    replicated): the batch's jitter cuts the CLS crop out of it."""
    m = crop_affine(cx, cy, side * CTX_SIDES, 0.0, out=CTX)
    return cv2.warpAffine(img, m, (CTX, CTX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def cut_die(img, lab, rng, out=(Config().edge, 0.6)) -> np.ndarray:
    """The context crop of die `lab` (value, x, y, w, h) of `img` with the frame ending across it,
    `out` of its box side beyond one edge (edge replicated, as the reader cuts): what is left may
    show fewer pips than its face (half a 6 is a 3), so it is a die of no value. The reader says
    "edge" for such a die whatever the net says; the net must not call it no die. Less than the
    reader's `edge` out, it values a die at p_edge: those are not taught "no value"."""
    _, x, y, w, h = lab
    cx, cy = x + w / 2, y + h / 2
    share = rng.uniform(*out)
    side = int(rng.integers(4))                       # the frame's left, right, top or bottom edge
    if side == 0:
        x0 = int(round(x + share * w))
        img, cx = img[:, max(0, x0):], cx - max(0, x0)
    elif side == 1:
        img = img[:, :max(1, int(round(x + w - share * w)))]
    elif side == 2:
        y0 = int(round(y + share * h))
        img, cy = img[max(0, y0):], cy - max(0, y0)
    else:
        img = img[:max(1, int(round(y + h - share * h)))]
    return _ctx(np.ascontiguousarray(img), cx, cy, math.sqrt(w * h))


def _flat_ctx(crop48: np.ndarray) -> np.ndarray:
    """A CLS x CLS "not a die" crop (a token, a pattern) as a context crop: its die side the crop's
    side / CROP, the margin mirrored."""
    big = cv2.resize(np.clip(crop48, 0, 255).astype(np.uint8), (round(CTX * CROP / CTX_SIDES),) * 2,
                     interpolation=cv2.INTER_LINEAR)
    pad = (CTX - big.shape[0]) // 2
    return cv2.copyMakeBorder(big, pad, CTX - big.shape[0] - pad, pad, CTX - big.shape[1] - pad, cv2.BORDER_REFLECT)


def _negatives(img, labs, rng, k: int) -> list[np.ndarray]:
    """k "not a die" context crops of a photo or scene: inside a die at pip size, between two dice,
    beside one, anywhere away from them (the places the detector peaks without a die)."""
    out = []
    centres = [(x + w / 2, y + h / 2, math.sqrt(w * h)) for _, x, y, w, h in labs]
    H, W = img.shape[:2]

    def away(px, py, f=0.45):
        return all(math.hypot(px - x, py - y) > f * s for x, y, s in centres)

    for _ in range(k * 4):
        if len(out) >= k or not centres:
            break
        cx, cy, side = centres[rng.integers(len(centres))]
        kind = rng.random()
        if kind < 0.2:
            out.append(_ctx(img, cx + rng.uniform(-0.3, 0.3) * side, cy + rng.uniform(-0.3, 0.3) * side,
                            side * rng.uniform(0.2, 0.5) / CROP))
        elif kind < 0.4 and len(centres) > 1:
            ox, oy, _ = min((c for c in centres if math.hypot(c[0] - cx, c[1] - cy) > 0.3 * side),
                            key=lambda c: math.hypot(c[0] - cx, c[1] - cy), default=(cx, cy, side))
            t = rng.uniform(0.4, 0.6)
            px, py = cx + t * (ox - cx), cy + t * (oy - cy)
            if (ox, oy) != (cx, cy) and away(px, py, 0.4):
                out.append(_ctx(img, px, py, side * rng.uniform(0.8, 1.3)))
        else:
            if rng.random() < 0.5:
                a, d = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 1.1) * side
                px, py = cx + d * math.cos(a), cy + d * math.sin(a)
            else:
                px, py = rng.uniform(0, W), rng.uniform(0, H)
            if away(px, py):
                out.append(_ctx(img, px, py, side * rng.uniform(0.7, 1.4)))
    return out


def det_cut(img, labs, rng, big=DET_BIG, share=0.5, s: Config = Config()):
    """One detector crop (DET_IN x DET_IN uint8) of a photo or scene and its targets (heat (g, g),
    reg (3, g, g), mask (g, g)): scaled so its dice are 8-`big` px (half the crops) or at the
    reader's first-pass size x 0.5-2, turned, centred on a die (4 in 5) or anywhere."""
    g = DET_IN // DET_STRIDE
    heat, reg, mask = np.zeros((g, g), np.float32), np.zeros((3, g, g), np.float32), np.zeros((g, g), np.float32)
    H, W = img.shape[:2]
    side_of = [math.sqrt(w * h) for _, _, _, w, h in labs]
    if side_of:
        if rng.random() < share:
            k = math.exp(rng.uniform(*np.log((8.0, big)))) / float(np.median(side_of))
        else:
            k = det_size(W, H, s)[2] * math.exp(rng.uniform(math.log(0.5), math.log(2.0)))
        k = max(min(k, big / max(side_of), 1.5), 7.0 / min(side_of))
    else:
        k = math.exp(rng.uniform(math.log(0.2), math.log(1.2)))
    if labs and rng.random() < 0.8:
        _, x, y, w, h = labs[rng.integers(len(labs))]
        fx, fy = x + w / 2 + rng.uniform(-40, 40) / k, y + h / 2 + rng.uniform(-40, 40) / k
    else:
        fx, fy = rng.uniform(0, W), rng.uniform(0, H)
    m = crop_affine(fx, fy, DET_IN / k, rng.uniform(0, 2 * np.pi), out=DET_IN).astype(np.float32)
    fill = tuple(float(c) for c in rng.integers(0, 256, 3))
    c = cv2.warpAffine(img, m, (DET_IN, DET_IN), flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT if rng.random() < 0.5 else cv2.BORDER_REFLECT, borderValue=fill)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32) + 0.5
    for (_, x, y, w, h), side in zip(labs, side_of):
        px = m[0, 0] * (x + w / 2) + m[0, 1] * (y + h / 2) + m[0, 2]
        py = m[1, 0] * (x + w / 2) + m[1, 1] * (y + h / 2) + m[1, 2]
        gx, gy = px / DET_STRIDE, py / DET_STRIDE
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        sd = side * k
        sig = max(0.6, sd / DET_STRIDE * 0.15)
        heat = np.maximum(heat, np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig)))
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = mask[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(sd), gx - ix - 0.5, gy - iy - 0.5)
    return c, heat, reg, mask


def board(rng, size=(480, 360)):
    """A printed game board with no die: hexes of flat colours, roads, printed numbers and round
    number tokens (numeral and dots) -> (image BGR uint8, [(cx, cy, radius)] of its tokens)."""
    W, H = size
    img = np.empty((H, W, 3), np.uint8)
    img[:] = rng.integers(0, 256, 3)
    r = rng.uniform(35, 90)
    palette = rng.integers(0, 256, (6, 3))
    tokens = []
    for row in range(int(H / (r * 1.5)) + 2):
        for col in range(int(W / (r * 1.732)) + 2):
            cx = col * r * 1.732 + (row % 2) * r * 0.866
            cy = row * r * 1.5
            pts = np.array([(cx + r * math.cos(math.pi / 6 + k * math.pi / 3),
                             cy + r * math.sin(math.pi / 6 + k * math.pi / 3)) for k in range(6)], np.int32)
            cv2.fillPoly(img, [pts], palette[rng.integers(6)].tolist(), cv2.LINE_AA)
            cv2.polylines(img, [pts], True, rng.integers(0, 256, 3).tolist(), int(rng.integers(1, 5)), cv2.LINE_AA)
            if rng.random() < 0.4:         # speckle: a printed forest, field or hill
                for _ in range(int(rng.integers(5, 30))):
                    p = (int(cx + rng.uniform(-0.6, 0.6) * r), int(cy + rng.uniform(-0.6, 0.6) * r))
                    cv2.circle(img, p, int(rng.integers(1, 5)), rng.integers(0, 256, 3).tolist(), -1, cv2.LINE_AA)
            if rng.random() < 0.6:         # a number token
                tr = r * rng.uniform(0.25, 0.4)
                p = (int(cx), int(cy))
                body = rng.integers(150, 256, 3) if rng.random() < 0.7 else rng.integers(0, 256, 3)
                cv2.circle(img, p, int(tr), body.tolist(), -1, cv2.LINE_AA)
                ink = (20, 20, 20) if body.mean() > 128 else (235, 235, 235)
                ink = (30, 30, 190) if rng.random() < 0.3 else ink
                text = str(int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])))
                scale = tr / 22.0 * rng.uniform(0.7, 1.1)
                thick = max(1, int(round(scale * 2)))
                (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
                cv2.putText(img, text, (int(cx - tw / 2), int(cy + th / 2 - tr * 0.1)), cv2.FONT_HERSHEY_DUPLEX,
                            scale, ink, thick, cv2.LINE_AA)
                for k in range(int(rng.integers(1, 6))):
                    cv2.circle(img, (int(cx + (k - 2) * tr * 0.22), int(cy + tr * 0.55)), max(1, int(tr * 0.07)),
                               ink, -1, cv2.LINE_AA)
                tokens.append((cx, cy, tr))
    for _ in range(int(rng.integers(0, 6))):   # roads, cables
        p = [(int(rng.uniform(0, W)), int(rng.uniform(0, H))) for _ in range(2)]
        cv2.line(img, p[0], p[1], rng.integers(0, 256, 3).tolist(), int(rng.integers(2, 9)), cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    noise = rng.normal(0, rng.uniform(1, 6), img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8), [t for t in tokens if 0 < t[0] < W and 0 < t[1] < H]


def board_scene(rng):
    """Rendered dice on a printed board -> (image, labels, tokens)."""
    bimg, tokens = board(rng, (640, 480))
    img, labs = dice_on(rng, bimg)
    return img, labs, tokens


def cloth_scene(rng):
    """Rendered dice on a checked, striped or dotted cloth (or blocky noise), its repeat 10-120 px
    -> (image, labels): a pattern cut around a die says "not a die", the die on it stays one."""
    period = float(np.exp(rng.uniform(np.log(10), np.log(120))))
    back = np.clip(D.pattern(rng, 640, 480, period), 0, 255).astype(np.uint8)
    return dice_on(rng, back)


def dice_on(rng, back):
    """Rendered dice on the 640 x 480 picture `back`: the scene rendered twice on two tray colours
    (same seed), the pixels that change are the tray's and show `back` instead -> (image, labels)."""
    from vision.render import render_scene

    n = int(rng.integers(1, 8))
    vals = rng.integers(1, 7, n).tolist()
    kw = dict(seed=int(rng.integers(1 << 30)), size=(640, 480), die_px=float(np.exp(rng.uniform(np.log(24), np.log(90)))),
              colours=D.dice_colours(rng, int(rng.integers(1, 4))), touching=bool(rng.random() < 0.3),
              **D.appearance(rng), tilt=float(rng.uniform(15, 40)) if rng.random() < 0.3 else 0.0)
    a, dice = render_scene(vals, tray=(40, 200, 40), **kw)
    b, _ = render_scene(vals, tray=(200, 40, 220), **kw)
    tray = (np.abs(a.astype(int) - b.astype(int)).sum(axis=2) > 90)[..., None]
    return np.where(tray, back, a), [(d.value, *d.box) for d in dice]


def _sources(r: Recipe) -> list:
    out = []
    for f in r.folders:
        got = D.photos(os.path.join(SHARED, f), r.split)
        out += got[:r.photos] if r.photos else got
    return out


def cache_key(r: Recipe) -> str:
    """sha256 of the photos trained on (labels and image bytes), the recipe's data fields, and
    the code that cuts and renders: a change to any of them cuts anew."""
    from vision import render

    h = hashlib.sha256(json.dumps(r.data_key(), sort_keys=True).encode())
    h.update(f"cut {CUT_VERSION} {CTX} {CTX_SIDES} {DET_IN} {CROP} {CLS}".encode())
    for mod in (render, D):
        h.update(inspect.getsource(mod).encode())
    for fn in (_ctx, cut_die, _flat_ctx, _negatives, det_cut, board, board_scene, cloth_scene, dice_on, cut):
        h.update(inspect.getsource(fn).encode())
    for f in r.folders:
        folder = os.path.join(SHARED, f)
        with open(os.path.join(folder, "labels.csv"), "rb") as fh:
            h.update(fh.read())
        for name in sorted(os.listdir(os.path.join(folder, "images"))):
            if D.SPLITS[r.split](name):
                with open(os.path.join(folder, "images", name), "rb") as fh:
                    h.update(name.encode() + hashlib.sha256(fh.read()).digest())
    return h.hexdigest()[:20]


# classifier groups: what each cached crop is, and the share of a batch drawn from each
GROUPS = ("photo dice", "photo not-dice", "false peaks", "rendered dice", "rendered not-dice", "cocked",
          "tokens and patterns", "dice on boards and cloths",
          "board and cloth not-dice")
DET_GROUPS = ("photos", "rendered", "boards and cloths with dice", "boards")
DET_SHARES = np.array([0.6, 0.25, 0.1, 0.05])


def cut(r: Recipe, say=print) -> dict:
    """Everything the nets learn from, cut once: numpy arrays (see `load_cut`)."""
    rng = np.random.default_rng(r.seed + 7)
    cls_x, cls_y, cls_g = [], [], []
    det = {"x": [], "heat": [], "reg": [], "mask": [], "g": []}

    def add(ctx, label, group):
        cls_x.append(ctx)
        cls_y.append(label)
        cls_g.append(group)

    def add_det(img, labs, n, group):
        for _ in range(n):
            c, h, rg, m = det_cut(img, labs, rng, r.det_big)
            for k, v in zip(("x", "heat", "reg", "mask", "g"), (c, h, rg, m, group)):
                det[k].append(v)

    def add_scene(img, labs, dice, not_dice, det_group):
        """A rendered scene's dice, 3 "not a die" crops and 3 detector crops, in those groups."""
        for v, x, y, w, h in labs:
            add(_ctx(img, x + w / 2, y + h / 2, math.sqrt(w * h)), v, dice)
        for c in _negatives(img, labs, rng, 3):
            add(c, 0, not_dice)
        add_det(img, labs, 3, det_group)

    t0 = time.time()
    real = _sources(r)
    for _, img, labs in real:
        for v, x, y, w, h in labs:
            add(_ctx(img, x + w / 2, y + h / 2, math.sqrt(w * h)), v, 0)
        for c in _negatives(img, labs, rng, r.negatives):
            add(c, 0, 1)
        add_det(img, labs, r.det_crops, 0)
    say(f"cut {len(real)} photos ({sum(len(l) for *_, l in real)} dice): {time.time() - t0:.0f} s")
    seed = int(rng.integers(1 << 30))
    rendered = (D.synthetic(r.scenes, seed, tilt=r.tilt, spread=r.spread)
                + D.synthetic(r.ghost_scenes, seed + 1, ghosts=True, spread=r.spread)
                + D.synthetic(r.finish_scenes, seed + 2, finishes=True, spread=r.spread))
    for _, img, labs in rendered:
        add_scene(img, labs, 3, 4, 1)
    say(f"rendered {len(rendered)} scenes: {time.time() - t0:.0f} s")
    n = r.cocked
    for k in range(n):
        img, d = D.cocked_die(rng, D.COCKED if k < n - n // 3 else (5.0, 32.0))
        faces = D.face_centres(d)
        cocked = d.tilt >= D.COCKED[0]
        cx, cy = faces[str(rng.choice(sorted(faces))) if cocked else "top"]
        add(_ctx(img, cx, cy, d.side * 1.15), NO_VALUE if cocked else d.value, 5)
    for _ in range(r.pieces):
        add(_flat_ctx(D.piece(rng, CLS)), 0, 6)
    for _ in range(r.textures):
        add(_flat_ctx(D.texture(rng, CLS)), 0, 6)
    for _ in range(r.board_scenes):
        img, labs, _ = board_scene(rng)
        add_scene(img, labs, 7, 8, 2)
    for _ in range(r.boards):
        img, tokens = board(rng)
        for k in range(r.board_crops):
            if tokens and k % 2 == 0:
                cx, cy, tr = tokens[rng.integers(len(tokens))]
                add(_ctx(img, cx + rng.uniform(-0.1, 0.1) * tr, cy + rng.uniform(-0.1, 0.1) * tr,
                         2 * tr * rng.uniform(0.8, 1.2) / CROP), 0, 8)
            else:
                add(_ctx(img, rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0]),
                         rng.uniform(15, 90)), 0, 8)
        add_det(img, [], 4, 3)
    for _ in range(r.cloth_scenes):             # cut after the rest: their crops stay as they were
        add_scene(*cloth_scene(rng), 7, 8, 2)
    with_dice = [(img, labs) for _, img, labs in rendered if labs]
    for _ in range(r.cut_dice):
        img, labs = with_dice[rng.integers(len(with_dice))]
        add(cut_die(img, labs[rng.integers(len(labs))], rng), NO_VALUE, 3)
    say(f"cut {len(cls_x)} classifier crops, {len(det['x'])} detector crops: {time.time() - t0:.0f} s")
    return {"cls_x": np.stack(cls_x), "cls_y": np.array(cls_y, np.int64), "cls_g": np.array(cls_g, np.int64),
            **{f"det_{k}": np.stack(v) if k != "g" else np.array(v, np.int64) for k, v in det.items()}}


def load_cut(r: Recipe, cache: str = CACHE, say=print) -> dict:
    """`cut(r)`, from the cache when it holds this key's."""
    key = cache_key(r)
    path = os.path.join(cache, f"crops-{key}.npz")
    if os.path.isfile(path):
        with np.load(path) as z:
            out = {k: z[k] for k in z.files}
        say(f"crops from the cache {path}")
        return out
    out = cut(r, say)
    os.makedirs(cache, exist_ok=True)
    tmp = path + ".tmp.npz"
    np.savez(tmp, **out)
    os.replace(tmp, path)
    return out


def peak_crops(r: Recipe, models: str) -> np.ndarray:
    """Context crops at the false peaks of the detector of folder `models` on the photos trained on
    (train_dice.false_peaks: far from every labelled die), at most 3000, in a fixed order."""
    from .train_dice import false_peaks

    real = _sources(r)
    peaks = false_peaks(real, Config(models=models))
    rng = np.random.default_rng(r.seed + 11)
    if len(peaks) > 3000:
        peaks = [peaks[i] for i in sorted(rng.choice(len(peaks), 3000, replace=False))]
    return (np.stack([_ctx(real[k][1], cx, cy, side) for k, cx, cy, side in peaks]) if peaks
            else np.zeros((0, CTX, CTX, 3), np.uint8))


# ----------------------------------------------------------------------------- batches (vectorised)

PERMS = torch.tensor(list(itertools.permutations(range(3))))


def colour_batch(x: torch.Tensor, g: torch.Generator, low=(1 / 3, 0.35, 0.45), blur=(0.3, 0.3, 1.0),
                 plain: float = 0.0) -> torch.Tensor:
    """(N, 3, H, W) in 0..1, each image's colours scrambled: channels permuted, inverted (15 %), grey
    (15 %), per-channel gain, contrast, brightness, gamma, blur (blur[0] of them, sigma blur[1] +
    up to blur[2]), lower resolution (low[0] of them, low[1] + up to low[2] of the size), noise
    (60 %). A share `plain` of the images keep their hues (no permutation, grey or inversion):
    the dice as the camera sees them stay in every batch. Torch on the whole batch: the cost of
    a batch, not of a crop."""
    n = x.shape[0]

    def u(*shape):
        return torch.rand(*shape, generator=g)

    perm = torch.randint(6, (n,), generator=g)
    grey, inverted = u(n) < 0.15, u(n) < 0.15
    if plain > 0:                       # drawn only then: plain=0 keeps the draws of every seed
        kept = u(n) < plain
        perm, grey, inverted = torch.where(kept, 0, perm), grey & ~kept, inverted & ~kept
    x = torch.gather(x, 1, PERMS[perm][:, :, None, None].expand_as(x))
    x = torch.where(grey[:, None, None, None], x.mean(1, keepdim=True).expand_as(x), x)
    x = torch.where(inverted[:, None, None, None], 1.0 - x, x)
    x = x * (0.75 + 0.5 * u(n, 3, 1, 1))
    mean = x.mean((1, 2, 3), keepdim=True)
    x = ((x - mean) * (0.5 + u(n, 1, 1, 1)) + mean + (u(n, 1, 1, 1) - 0.5) * 0.35).clamp(1e-3, 1)
    x = x ** torch.exp((u(n, 1, 1, 1) - 0.5) * torch.where(u(n, 1, 1, 1) < 0.4, 1.0, 0.0))
    # blur: each image its own Gaussian (sigma 0.3-1.3 on 30 %), one grouped convolution
    sig = torch.where(u(n) < blur[0], blur[1] + u(n) * blur[2], torch.full((n,), 0.05))
    t = torch.arange(-2, 3, dtype=torch.float32)
    k1 = torch.exp(-t[None] ** 2 / (2 * sig[:, None] ** 2))
    k1 = k1 / k1.sum(1, keepdim=True)
    k2 = (k1[:, :, None] * k1[:, None, :]).repeat_interleave(3, 0)[:, None]
    H, W = x.shape[2:]
    x = F.conv2d(F.pad(x.reshape(1, n * 3, H, W), (2, 2, 2, 2), mode="replicate"), k2, groups=n * 3).reshape(n, 3, H, W)
    # lower resolution: a third of the batch seen at 0.35-0.8 of its size (one factor a batch)
    low_res = u(n) < low[0]
    if low_res.any():
        f = low[1] + low[2] * float(u(1))
        small = F.interpolate(x[low_res], size=(max(8, round(H * f)), max(8, round(W * f))), mode="area")
        x = x.clone()
        x[low_res] = F.interpolate(small, size=(H, W), mode="bilinear", align_corners=False)
    x = x + torch.randn(x.shape, generator=g) * (u(n, 1, 1, 1) * 0.035) * (u(n, 1, 1, 1) < 0.6)
    return x.clamp(0, 1)


def cls_views(ctx: torch.Tensor, g: torch.Generator, size: int = CLS) -> torch.Tensor:
    """size x size crops (N, 3, size, size; the reader's are CLS) in 0..1 cut from context crops
    (N, CTX, CTX, 3) uint8 as the detector's boxes place them: off centre by up to 0.12 sides, 0.75-1.35 x the size, any turn,
    mirrored half the time (grid_sample on the whole batch)."""
    n = ctx.shape[0]
    u = torch.rand(n, 5, generator=g)
    scale = torch.exp(math.log(0.75) + u[:, 0] * math.log(1.35 / 0.75)) * CROP / CTX_SIDES
    ang = u[:, 1] * 2 * math.pi
    flip = torch.where(u[:, 2] < 0.5, -1.0, 1.0)
    shift = (u[:, 3:5] - 0.5) * 0.24 * 2 / CTX_SIDES
    c, s = torch.cos(ang) * scale, torch.sin(ang) * scale
    theta = torch.stack([torch.stack([c * flip, -s, shift[:, 0]], 1), torch.stack([s * flip, c, shift[:, 1]], 1)], 1)
    return _views(ctx, theta, size)


def _views(ctx: torch.Tensor, theta: torch.Tensor, size: int = CLS) -> torch.Tensor:
    """size x size crops in 0..1 of context crops (N, CTX, CTX, 3) uint8 by affine maps theta (N, 2, 3)."""
    x = ctx.permute(0, 3, 1, 2).float() / 255.0
    grid = F.affine_grid(theta, (len(ctx), 3, size, size), align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def cls_batch(pool: dict, n: int, g: torch.Generator, r: Recipe,
              hard: torch.Tensor | None = None, size: int = CLS) -> tuple[torch.Tensor, torch.Tensor]:
    """n crops drawn from the cached groups by r.cls_shares (an empty group's share to the others),
    jittered and colour-scrambled, and their targets (n, 7). Given `hard` (pool indices of photo
    dice), a share r.hard of the photo dice drawn are drawn from those."""
    shares = torch.tensor([s if len(ix) else 0.0 for s, ix in zip(r.cls_shares, pool["index"])])
    grp = torch.multinomial(shares / shares.sum(), n, replacement=True, generator=g)
    pick = torch.empty(n, dtype=torch.long)
    for k, ix in enumerate(pool["index"]):
        sel = grp == k
        if sel.any():
            pick[sel] = ix[torch.randint(len(ix), (int(sel.sum()),), generator=g)]
    if hard is not None and len(hard):          # drawn only then: without, every seed's draws stay
        take = (grp == 0) & (torch.rand(n, generator=g) < r.hard)
        pick[take] = hard[torch.randint(len(hard), (int(take.sum()),), generator=g)]
    x = colour_batch(cls_views(pool["x"][pick], g, size), g, r.cls_low, r.cls_blur, r.cls_plain)
    return x, torch.from_numpy(D.targets(pool["y"][pick].numpy()))


def hard_dice(model: nn.Module, pool: dict, r: Recipe, layout) -> torch.Tensor:
    """The pool indices of the photo dice (group 0) that `model` gives their value less than
    r.hard_below, each seen as the reader crops it (centred, its size, upright)."""
    ix = pool["index"][0]
    k = CROP / CTX_SIDES
    x = _views(pool["x"][ix], torch.tensor([[k, 0.0, 0.0], [0.0, k, 0.0]]).expand(len(ix), 2, 3))
    was = model.training
    model.eval()
    with torch.no_grad():
        p = torch.cat([F.softmax(_forward(model, x[i:i + 512], layout, resolved(r).bf16), 1) for i in range(0, len(x), 512)])
    model.train(was)
    y = pool["y"][ix]
    return ix[p[torch.arange(len(ix)), y.clamp(0, 6)] < r.hard_below]


def det_views(x, heat, reg, mask, g):
    """The dihedral turns of detector crops and their targets (mirrored offsets), per crop."""
    n = x.shape[0]
    u = torch.rand(n, 3, generator=g) < 0.5
    tr, fx, fy = (u[:, k].view(n, 1, 1, 1) for k in range(3))
    hm = torch.stack([heat, mask], 1)

    def t(a):
        return a.transpose(2, 3)

    x, hm, reg = torch.where(tr, t(x), x), torch.where(tr, t(hm), hm), torch.where(tr, t(reg)[:, [0, 2, 1]], reg)
    x, hm = torch.where(fx, x.flip(3), x), torch.where(fx, hm.flip(3), hm)
    reg = torch.where(fx, reg.flip(3) * torch.tensor([1.0, -1.0, 1.0]).view(1, 3, 1, 1), reg)
    x, hm = torch.where(fy, x.flip(2), x), torch.where(fy, hm.flip(2), hm)
    reg = torch.where(fy, reg.flip(2) * torch.tensor([1.0, 1.0, -1.0]).view(1, 3, 1, 1), reg)
    return x, hm[:, 0], reg, hm[:, 1]


def around(reg: torch.Tensor, mask: torch.Tensor, weight: float, min_side: float = 4 * DET_STRIDE):
    """(reg, weights): each die's side and centre offset (`reg` (n, 3, g, g) at its centre cell, where
    `mask` is 1) taught at the 8 cells around that cell too, each at `weight`, their offsets to the
    same centre. A heatmap peak one cell off then still gives the die's centre. Dice under
    `min_side` input pixels (four cells) keep the centre cell only: two of them may share a cell."""
    w, reg = mask.clone(), reg.clone()
    if weight <= 0:
        return reg, w
    big = mask * (reg[:, 0] >= math.log(min_side))
    H, W = mask.shape[-2:]

    def shifted(a, dy, dx):                      # a's value at (y - dy, x - dx), zero outside
        return F.pad(a, (1, 1, 1, 1))[..., 1 - dy:1 - dy + H, 1 - dx:1 - dx + W]

    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == dy == 0:
                continue
            take = (shifted(big, dy, dx) > 0) & (w == 0)
            r = shifted(reg, dy, dx) - torch.tensor([0.0, dx, dy]).view(1, 3, 1, 1)
            reg = torch.where(take.unsqueeze(1), r, reg)
            w = torch.where(take, torch.full_like(w, weight), w)
    return reg, w


def det_window(x, heat, reg, mask, size: int, g: torch.Generator):
    """The same size x size window of every detector crop (N, DET_IN, DET_IN, 3) and of its targets (on
    the cells of DET_STRIDE), placed by `g`: a die whose centre is outside it is not taught in it."""
    (cx, cy), k = torch.randint((DET_IN - size) // DET_STRIDE + 1, (2,), generator=g).tolist(), size // DET_STRIDE
    x = x[:, cy * DET_STRIDE:cy * DET_STRIDE + size, cx * DET_STRIDE:cx * DET_STRIDE + size]
    return (x, *(a[..., cy:cy + k, cx:cx + k] for a in (heat, reg, mask)))


def det_batch(pool: dict, n: int, g: torch.Generator, size: int = DET_IN):
    """n detector crops and their targets, jittered and colour-scrambled; size < DET_IN: the batch's
    crops cut to one window of size px (on the grid of DET_STRIDE), their targets with them."""
    shares = torch.tensor([s if len(ix) else 0.0 for s, ix in zip(DET_SHARES, pool["index"])])
    grp = torch.multinomial(shares / shares.sum(), n, replacement=True, generator=g)
    pick = torch.empty(n, dtype=torch.long)
    for k, ix in enumerate(pool["index"]):
        sel = grp == k
        if sel.any():
            pick[sel] = ix[torch.randint(len(ix), (int(sel.sum()),), generator=g)]
    x, heat, reg, mask = pool["x"][pick], pool["heat"][pick], pool["reg"][pick], pool["mask"][pick]
    if size < DET_IN:                            # drawn only then: without, every seed's draws stay
        x, heat, reg, mask = det_window(x, heat, reg, mask, size, g)
    x = x.permute(0, 3, 1, 2).float() / 255.0
    x, heat, reg, mask = det_views(x, heat, reg, mask, g)
    return colour_batch(x, g), heat, reg, mask


def _index(groups: np.ndarray, k: int) -> list[torch.Tensor]:
    return [torch.from_numpy(np.nonzero(groups == j)[0]) for j in range(k)]


# ----------------------------------------------------------------------------- training

def focal(logit, gt):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    lp = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    ln = -(torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * (1 - pos)).sum()
    return (lp + ln) / pos.sum().clamp(min=1)


class Stopped(Exception):
    """Raised by `fit` at `stop_after` steps (a test's interruption)."""


def fit(kind: str, r: Recipe, pool: dict, state_dir: str, say=print, stop_after: int | None = None,
        peaks=None) -> nn.Module:
    """Net `kind` trained its recipe's steps from scratch on `pool`, resumed from state_dir's save.
    A classifier given `peaks` (a callable: the new detector's false peak crops, waited for) draws
    them too from its step `peaks_joins(kind, r)` on."""
    r = resolved(r)
    steps = {"det": r.det_steps, "cls": r.cls_steps, "wide": r.wide_steps}[kind]
    seed = r.seed * 1000 + {"det": 1, "cls": 2, "wide": 3}[kind]
    torch.manual_seed(seed)
    model = build(kind, r)
    layout = torch.channels_last if r.channels_last else torch.contiguous_format
    model = model.to(memory_format=layout)
    opt = torch.optim.AdamW(model.parameters(), r.lr, weight_decay=1e-4)
    avg = copy.deepcopy(model).requires_grad_(False) if r.ema > 0 else None
    path = os.path.join(state_dir, f"{kind}.pt")
    start, hard = 0, None
    if os.path.isfile(path):
        st = torch.load(path, map_location="cpu")
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        if avg is not None:
            avg.load_state_dict(st["avg"])
        start, hard = st["step"], st.get("hard")
        if start < steps:
            say(f"{kind}: resumed at step {start}")
    t0, smooth = time.time(), None
    joins = peaks_joins(kind, r) if peaks is not None else None
    small = round(r.small_share * steps)
    for step in range(start, steps):
        if stop_after is not None and step >= stop_after:
            raise Stopped(f"{kind} stopped at step {step}")
        if joins is not None and step >= joins:
            pool, joins = _cls_pool(pool, peaks(), say), None
            say(f"{kind}: the new detector's false peaks join at step {step}")
        k = (step + 1) / r.warmup if step < r.warmup else 0.5 * (1 + math.cos(math.pi * step / steps))
        for group in opt.param_groups:
            group["lr"] = r.lr * k
        g = torch.Generator().manual_seed(seed * 1_000_003 + step)
        torch.manual_seed(seed * 1_000_003 + step)          # dropout
        model.train()
        is_small = step < small
        if kind == "det":
            x, heat, reg, mask = det_batch(pool, r.det_batch, g, r.small_det if is_small else DET_IN)
            out = _forward(model, x, layout, r.bf16)
            reg, w = around(reg, mask, r.det_around)
            lreg = (F.smooth_l1_loss(out[:, 1:4], reg, reduction="none") * w.unsqueeze(1)).sum() / mask.sum().clamp(min=1)
            loss = focal(out[:, 0], heat) + lreg
        else:
            if r.hard > 0 and step and step % r.hard_every == 0:
                hard = hard_dice(model, pool, r, layout)
            x, y = cls_batch(pool, r.cls_batch, g, r, hard, r.small_cls if is_small else CLS)
            loss = F.cross_entropy(_forward(model, x, layout, r.bf16), y, label_smoothing=SMOOTHING)
        opt.zero_grad()
        loss.backward()
        opt.step()
        smooth = loss.item() if smooth is None else 0.98 * smooth + 0.02 * loss.item()
        done = step + 1
        if avg is not None:
            average(avg, model, min(r.ema, (1 + done) / (10 + done)))
        if done % 200 == 0:
            say(f"{kind} step {done}/{steps} {time.time() - t0:.0f} s loss {smooth:.4f}")
        if done % r.ckpt_every == 0 or done == steps:
            tmp = path + ".tmp"
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": done, "hard": hard,
                        **({"avg": avg.state_dict()} if avg is not None else {})}, tmp)
            os.replace(tmp, path)
    model = model if avg is None else avg
    model.eval()
    return model.to(memory_format=torch.contiguous_format)


@torch.no_grad()
def average(avg: nn.Module, model: nn.Module, decay: float) -> None:
    """`avg` moved towards `model` by 1 - decay: its weights and batch-norm statistics (a count
    is copied). A short run's last weights wander with its last batches; their average less."""
    for a, m in zip(avg.state_dict().values(), model.state_dict().values()):
        if a.is_floating_point():
            a.lerp_(m, 1 - decay)
        else:
            a.copy_(m)


def _forward(model: nn.Module, x: torch.Tensor, layout, bf16: bool) -> torch.Tensor:
    """The net's outputs in float32 for a training batch, in `layout` and, with bf16, computed in
    bfloat16 (the exported net runs in float32)."""
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        out = model(x.contiguous(memory_format=layout))
    return out.float()


def _git() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                              cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def _det_pool(data: dict) -> dict:
    return {"x": torch.from_numpy(data["det_x"]), "heat": torch.from_numpy(data["det_heat"]),
            "reg": torch.from_numpy(data["det_reg"]), "mask": torch.from_numpy(data["det_mask"]),
            "index": _index(data["det_g"], len(DET_GROUPS))}


def peaks_joins(kind: str, r: Recipe) -> int | None:
    """The step of classifier `kind` from which it draws the new detector's false peaks (None: never)."""
    if not r.peaks or kind == "det":
        return None
    return r.peaks_from if kind == "cls" else r.wide_peaks_from


def _cls_pool(base: dict, peaks: np.ndarray | None = None, say=print) -> dict:
    """The classifiers' crops: the cut ones (`base`: load_cut's arrays, or a pool) and `peaks`, the
    new detector's false peaks, as "not a die"."""
    if "cls_x" in base:
        x, y, grp = base["cls_x"], base["cls_y"], base["cls_g"]
    else:
        x, y, grp = base["x"].numpy(), base["y"].numpy(), base["g"]
    if peaks is not None and len(peaks):
        x = np.concatenate([x, peaks])
        y = np.concatenate([y, np.zeros(len(peaks), np.int64)])
        grp = np.concatenate([grp, np.full(len(peaks), 2, np.int64)])
    pool = {"x": torch.from_numpy(x), "y": torch.from_numpy(y), "g": grp, "index": _index(grp, len(GROUPS))}
    say("classifier crops: " + ", ".join(f"{name} {len(ix)}" for name, ix in zip(GROUPS, pool["index"])))
    return pool


def _peaks_path(out: str) -> str:
    return os.path.join(out, "state", "peaks.npy")


def _save_peaks(r: Recipe, out: str, say=print) -> None:
    """The false peaks of out's (just exported) detector, saved for the classifiers."""
    peaks = peak_crops(r, out)
    say(f"false peaks of the new detector on the photos: {len(peaks)}")
    tmp = _peaks_path(out) + ".tmp.npy"
    np.save(tmp, peaks)
    os.replace(tmp, _peaks_path(out))


def _wait_peaks(out: str, poll: float = 2.0):
    """A callable giving the saved false peaks, waiting for the detector's process to save them."""
    def peaks() -> np.ndarray:
        while not os.path.isfile(_peaks_path(out)):
            if os.path.isfile(os.path.join(out, "state", "det.failed")):
                raise RuntimeError("the detector's training failed: no false peaks to learn")
            time.sleep(poll)
        return np.load(_peaks_path(out))
    return peaks


def exit_with_parent(parent: int, poll: float = 1.0) -> threading.Thread:
    """A daemon thread ending this process once process `parent` is gone (this process's parent
    is then another): a run killed stops its worker processes too, so that the same command run
    again is the only one writing the state."""
    def watch():
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(1)

    t = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    t.start()
    return t


def _stage(kind: str, r: Recipe, out: str, cache: str, stop_after: int | None) -> float:
    """One net trained and exported in a process of its own (--jobs): its seconds."""
    from .train_dice import export

    t = time.time()
    say = lambda *a: print(*a, flush=True)   # noqa: E731
    r = resolved(r)
    torch.set_num_threads(r.threads)
    cv2.setNumThreads(1)
    try:
        data = load_cut(r, cache, say=lambda *a: None)
        pool = _det_pool(data) if kind == "det" else _cls_pool(data, say=lambda *a: None)
        del data
        model = fit(kind, r, pool, os.path.join(out, "state"), say, stop_after,
                    peaks=_wait_peaks(out) if kind != "det" and r.peaks else None)
        export(model, kind, out, say)
        if kind == "det" and r.peaks:
            _save_peaks(r, out, say)
    except BaseException:
        if kind == "det":      # the classifiers waiting for its peaks stop too
            open(os.path.join(out, "state", "det.failed"), "w").close()
        raise
    return time.time() - t


def run(r: Recipe, out: str, cache: str = CACHE, say=print, stop_after: int | None = None,
        command: str | None = None, jobs: int = 1) -> dict:
    """The whole recipe into folder `out`: the three .onnx files and recipe.json; `out`/state/
    holds the training state (a rerun goes on from it). jobs > 1 trains the three nets in that
    many processes at once, r.threads each (a classifier waits for the detector's false peaks at
    the step they join it: `peaks_joins`): the same nets as one after the other."""
    from .train_dice import export

    r = resolved(r)
    torch.set_num_threads(r.threads)
    cv2.setNumThreads(1)
    state = os.path.join(out, "state")
    os.makedirs(state, exist_ok=True)
    for stale in ("det.failed", "peaks.npy"):     # a detector resumed saves its peaks again
        if os.path.isfile(os.path.join(state, stale)):
            os.remove(os.path.join(state, stale))
    times = {}
    t0 = time.time()
    data = load_cut(r, cache, say)
    times["cut"] = time.time() - t0
    if jobs > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        del data
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=exit_with_parent, initargs=(os.getpid(),)) as ex:
            futures = {k: ex.submit(_stage, k, r, out, cache, stop_after) for k in ("det", "cls", "wide")}
            times.update({k: f.result() for k, f in futures.items()})
    else:
        t = time.time()
        model = fit("det", r, _det_pool(data), state, say, stop_after)
        export(model, "det", out, say)
        times["det"] = time.time() - t
        t = time.time()
        if r.peaks:
            _save_peaks(r, out, say)
        times["peaks"] = time.time() - t
        pool = _cls_pool(data, say=say)
        for kind in ("cls", "wide"):
            t = time.time()
            model = fit(kind, r, pool, state, say, stop_after, peaks=_wait_peaks(out) if r.peaks else None)
            export(model, kind, out, say)
            times[kind] = time.time() - t
    manifest = {
        "command": command, "recipe": asdict(r), "jobs": jobs, "cache_key": cache_key(r), "git": _git(),
        "torch": torch.__version__, "python": platform.python_version(), "machine": platform.machine(),
        "cpu": cpu(), "cpus": os.cpu_count(), "load_average_at_end": os.getloadavg(),
        "seconds": {k: round(v, 1) for k, v in times.items()}, "seconds_total": round(time.time() - t0, 1),
        "parameters": {k: sum(p.numel() for p in build(k, r).parameters()) for k in ("det", "cls", "wide")},
        "note": "seconds of this invocation (a resumed run counts only its own part)",
    }
    with open(os.path.join(out, "recipe.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
    say(f"wrote {out}: {manifest['seconds']} s")
    return manifest


def _widths(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(","))


def _flag(text: str) -> bool:
    return text.lower() in ("1", "true", "yes", "on")


def _flag_or_auto(text: str) -> bool | None:
    return None if text.lower() == "auto" else _flag(text)


def _shares(text: str) -> tuple[float, ...]:
    return tuple(float(v) for v in text.split(","))


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m vision_tools.train all", description=(
        "Train the dice reader's three nets from scratch, a fixed number of seeded steps each, and "
        "export them (ONNX) with recipe.json; rerun the same command to resume an interrupted run."))
    ap.add_argument("--out", required=True, metavar="DIR", help="folder for the nets, recipe.json and state/")
    ap.add_argument("--cache", default=CACHE, help=f"folder of the cut crops (default {CACHE})")
    ap.add_argument("--tiny", action="store_true", help="a few steps on a few crops (a check of the plumbing)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="train the three nets in this many processes at once (default 2: two cores)")
    for f in fields(Recipe):
        if f.name == "folders":
            continue
        kind = ((_widths if isinstance(f.default[0], int) else _shares) if isinstance(f.default, tuple)
                else _flag if isinstance(f.default, bool) else _flag_or_auto if f.default is None
                else type(f.default))
        shown = (",".join(map(str, f.default)) if isinstance(f.default, tuple)
                 else "auto: as the CPU allows" if f.default is None else f.default)
        ap.add_argument("--" + f.name.replace("_", "-"), type=kind, default=None, help=f"(default {shown})")
    a = ap.parse_args(argv)
    r = TINY if a.tiny else Recipe()
    r = replace(r, **{f.name: getattr(a, f.name) for f in fields(Recipe)
                      if f.name != "folders" and getattr(a, f.name) is not None})
    command = "python -m vision_tools.train all " + " ".join(sys.argv[2:] if argv is None else argv)
    run(r, a.out, a.cache, command=command.strip(), jobs=a.jobs)
    return 0
