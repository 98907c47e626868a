"""Labelled photos, the deterministic train / held-out split, and augmented samples.

Needs only numpy + OpenCV. The split: a photo is held out when the first byte of
md5(file name) is < 52 (about 20 %); held-out photos are never used for training.
"""

from __future__ import annotations

import hashlib
import math
import os

import cv2
import numpy as np

from ..bench import load_labels

SHARED = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "shared", "data", "dice")
FOLDERS = ("nell-byler", "rune55-gray")


def folder_list(text: str) -> tuple[str, ...]:
    """argparse type: comma-separated shared folder names, each one of FOLDERS."""
    out = tuple(f for f in text.split(",") if f)
    if not out or set(out) - set(FOLDERS):
        raise ValueError(text)
    return out


def _byte(name: str) -> int:
    return hashlib.md5(name.encode()).digest()[0]


def held_out(name: str) -> bool:
    return _byte(name) < 52  # 52/256 ~ 20 %


def validation(name: str) -> bool:
    """A tenth of the train split, kept out of fitting to choose thresholds on."""
    return 52 <= _byte(name) < 78


SPLITS = {
    "train": lambda n: not held_out(n),             # fit + val
    "fit": lambda n: not held_out(n) and not validation(n),
    "val": validation,
    "heldout": held_out,
    "all": lambda n: True,
}


def photos(folder: str, split: str):
    """[(name, image BGR, [(value, x, y, w, h)])] of `split` (a key of SPLITS)."""
    labels = load_labels(folder)
    keep = SPLITS[split]
    out = []
    for name in sorted(labels):
        if not keep(name):
            continue
        img = cv2.imread(os.path.join(folder, "images", name), cv2.IMREAD_COLOR)
        if img is not None:
            out.append((name, img, labels[name]))
    return out


SEE_THROUGH_DRAW = (0.35, (0.15, 0.55))  # synthetic(): share of scenes with see-through dice, and how strongly
SPREAD = 0.3          # synthetic(): half its touching scenes mix dice up to exp(2 x spread) = 1.8 x apart in size
GHOSTS = (0.3, 0.9)   # see_through of synthetic(ghosts=True): up to nearly a pip's contrast (111919)


def synthetic(n: int, seed: int = 0, tilt: float = 0.0, ghosts: bool = False, finishes: bool = False,
              spread: float = SPREAD):
    """n rendered scenes with varied dice, trays, sizes and light -> same tuples as `photos`.

    tilt: the share of scenes whose dice are seen at an angle, showing side faces.
    ghosts: every scene's dice translucent, their bottom face's middle pip showing as in
    photos (strength drawn from GHOSTS, ghost_fade 1); with `tilt`, the scenes seen aslant
    stay opaque (vision.render draws a tilted die opaque).
    finishes: every die drawn flat has a real die's body (marbled, glitter or clear:
    vision.render.FINISHES); the draws here are the same, so scene i has the plain set's
    dice (places and values), tray and light strength, its dice colours after the first,
    the light's direction, glare and noise drawn anew.
    spread: half the touching scenes mix dice of several sizes, each side up to exp(+-spread) of
    the scene's (drawn apart: with 0, every scene is as it would be without mixing)."""
    from vision.render import render_scene

    rng, sizes = np.random.default_rng(seed), np.random.default_rng([seed, 1])
    share, strength = (1.0, GHOSTS) if ghosts else SEE_THROUGH_DRAW
    out = []
    for i in range(n):
        k = int(rng.integers(1, 11))
        vals = rng.integers(1, 7, k).tolist()
        die_px = float(np.exp(rng.uniform(np.log(22), np.log(110))))
        size = (640, 384) if die_px < 70 else (1024, 576)
        cols = dice_colours(rng, int(rng.integers(1, 4)))
        tray = tuple(int(c) for c in rng.integers(0, 256, 3))
        scene_seed, touching = int(rng.integers(1 << 30)), bool(rng.random() < 0.3)
        # small dice touching bigger ones, drawn apart so that the other scenes stay as they were
        mixed = spread if touching and sizes.random() < 0.5 else 0.0
        try:
            img, dice = render_scene(vals, seed=scene_seed, size=size, die_px=die_px / math.exp(mixed),
                                     tray=tray, colours=cols, touching=touching, spread=mixed,
                                     **appearance(rng),
                                     see_through=float(rng.uniform(*strength)) if rng.random() < share else 0.0,
                                     ghost_fade=1.0 if ghosts else 0.0,
                                     tilt=float(rng.uniform(15, 45)) if tilt and rng.random() < tilt else 0.0,
                                     finishes=1.0 if finishes else 0.0)
        except Exception:
            continue
        labs = [(d.value, *d.box) for d in dice]
        out.append((f"syn{i}", img, labs))
    return out


def dice_colours(rng, n: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """n random (body BGR, pip BGR) pairs, the pips contrasting with the body."""
    cols = []
    for _ in range(n):
        body = rng.integers(0, 256, 3)
        pip = 255 - body if rng.random() < 0.5 else rng.integers(0, 256, 3)
        if np.abs(body.astype(int) - pip.astype(int)).sum() < 150:
            pip = np.where(body.mean() > 128, 20, 235) * np.ones(3, int)
        cols.append((tuple(int(c) for c in body), tuple(int(c) for c in pip)))
    return cols


def appearance(rng) -> dict:
    """render_scene's blur, noise, light, glare and pip size for a training scene, drawn in
    that order (the draws of recorded training commands depend on it)."""
    return dict(blur=float(rng.uniform(0, 1.2)), noise=float(rng.uniform(0, 6)),
                light=float(rng.uniform(0, 0.5)), glare=bool(rng.random() < 0.3),
                pip_scale=float(rng.uniform(0.8, 1.25)))


COCKED = (38.0, 52.0)   # a die leaning this far (deg) has no face clearly up
NO_VALUE = -1           # a classifier label: a die, but every value as likely (a cocked die)
SMOOTHING = 0.05        # the classifiers' label smoothing: they are taught a value at p 1 - 6/7 of it, not 1


def targets(labels: np.ndarray) -> np.ndarray:
    """(n, 7) float32 class probabilities for classifier labels 0-6 (0: not a die), NO_VALUE
    spread evenly over 1-6: the net learns to give such a die no value, yet call it a die."""
    out = np.eye(7, dtype=np.float32)[np.clip(labels, 0, 6)]
    out[labels == NO_VALUE] = [0.0] + [1 / 6] * 6
    return out


def cocked_die(rng, leans: tuple[float, float] = COCKED):
    """A rendered die cocked on an edge, leaning `leans` degrees (COCKED: a side face shows
    nearly as much as the top), alone or beside another die, with random colours, size and
    light: (image BGR uint8, its vision.render.RenderedDie). Leaning COCKED, no value is right
    for it: the classifier is taught to give none (train_dice `--cocked`)."""
    from vision.render import render_scene

    die_px = float(np.exp(rng.uniform(np.log(24), np.log(90))))
    size = (int(die_px * 4.5), int(die_px * 3.5))
    n = 1 + int(rng.random() < 0.4)
    for _ in range(100):
        try:
            img, dice = render_scene(rng.integers(1, 7, n).tolist(), seed=int(rng.integers(1 << 30)), size=size,
                                     die_px=die_px, tray=tuple(int(c) for c in rng.integers(0, 256, 3)),
                                     colours=dice_colours(rng, 2), touching=n > 1, **appearance(rng),
                                     cocked=[float(rng.uniform(*leans))] + [0.0] * (n - 1))
            return img, dice[0]
        except ValueError:      # no room for the second die: draw again
            continue
    raise ValueError(f"no die leaning {leans} degrees could be drawn")


def face_centres(die) -> dict[str, tuple[float, float]]:
    """{face name: its centre in image px} of the faces of a rendered die turned to the
    camera ("top" and the side faces a lean shows): where the detector peaks on it."""
    from vision.render import _cube

    return {name: (float(c[0]), float(c[1])) for name, _, c, _, _ in _cube(die)[1]}


# ----------------------------------------------------------------------------- augmentation

def colour_aug(x: np.ndarray, rng, grey: float = 0.2) -> np.ndarray:
    """Photometric jitter of a float32 BGR batch-free image (H, W, 3) in 0..255.

    grey: how often the colours are dropped (grey cameras); red pips on a dark
    die may then vanish, so too much of it teaches the net to doubt such dice.
    """
    if rng.random() < 0.5:
        x = x[..., rng.permutation(3)]
    if rng.random() < grey:
        g = x.mean(axis=2, keepdims=True)
        x = np.repeat(g, 3, axis=2)
    if rng.random() < 0.15:
        x = 255.0 - x
    # per-channel gain, contrast, brightness, gamma
    x = x * rng.uniform(0.8, 1.2, 3)[None, None, :].astype(np.float32)
    m = x.mean()
    x = (x - m) * rng.uniform(0.6, 1.4) + m + rng.uniform(-40, 40)
    x = np.clip(x, 0, 255)
    if rng.random() < 0.3:
        x = 255.0 * (x / 255.0) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:
        s = rng.uniform(0.3, 1.2)
        x = cv2.GaussianBlur(x, (0, 0), s)
    if rng.random() < 0.5:
        x = x + rng.normal(0, rng.uniform(1, 8), x.shape).astype(np.float32)
    return np.clip(x, 0, 255).astype(np.float32)


def degrade(x: np.ndarray, rng) -> np.ndarray:
    """A float32 BGR crop (H, W, 3) in 0..255 as a poorer camera gives it: seen at a lower
    resolution, JPEG-compressed hard, or squeezed along one direction (a camera aslant)."""
    h, w = x.shape[:2]
    kind = rng.random()
    if kind < 0.4:
        f = rng.uniform(0.35, 0.8)
        small = cv2.resize(x, (max(8, round(w * f)), max(8, round(h * f))), interpolation=cv2.INTER_AREA)
        return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if kind < 0.7:
        _, jpg = cv2.imencode(".jpg", np.clip(x, 0, 255).astype(np.uint8),
                               [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 71))])
        return cv2.imdecode(jpg, cv2.IMREAD_COLOR).astype(np.float32)
    a, k = rng.uniform(0, np.pi), rng.uniform(0.75, 0.95)
    c, s = np.cos(a), np.sin(a)
    rot = np.array([[c, -s], [s, c]])
    m = rot @ np.diag([1.0, k]) @ rot.T               # squeeze by k along the direction a + 90 deg
    centre = np.array([w / 2, h / 2])
    affine = np.hstack([m, (centre - m @ centre)[:, None]]).astype(np.float32)
    return cv2.warpAffine(x, affine, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# ----------------------------------------------------------------------------- textures

def texture(rng, out: int = 48) -> np.ndarray:
    """An out x out float32 BGR crop of a repeating or blocky pattern, for the classifier to
    call "not a die": a checked or striped cloth, a dotted one, blocky noise. Patches of a
    checkerboard or of blocky noise were read as valued 6s; a die's pips stop at its edges,
    a pattern's do not (the crop's margin shows it going on)."""
    big = 2 * out                                    # drawn at twice the size, then shrunk
    img = pattern(rng, big, big, rng.uniform(0.1, 0.45) * big)     # 2-9 repeats across the crop
    return cv2.resize(img, (out, out), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def pattern(rng, w: int, h: int, period: float) -> np.ndarray:
    """An (h, w, 3) float32 BGR cloth: checked, gingham, striped, dotted or blocky noise, repeating
    every `period` pixels at a random angle, in two contrasting colours, slightly blurred."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u = (xx * math.cos(a) + yy * math.sin(a)) / period
    v = (-xx * math.sin(a) + yy * math.cos(a)) / period
    kind = rng.integers(5)
    if kind == 0:                                    # checkerboard
        m = ((np.floor(u) + np.floor(v)) % 2).astype(np.float32)
    elif kind == 1:                                  # gingham: two sets of stripes, blended
        m = 0.5 * ((np.floor(u) % 2) + (np.floor(v) % 2))
    elif kind == 2:                                  # stripes
        m = (np.floor(u) % 2).astype(np.float32)
    elif kind == 3:                                  # dots on a grid
        r = rng.uniform(0.15, 0.35)
        m = (np.hypot(u - np.floor(u) - 0.5, v - np.floor(v) - 0.5) < r).astype(np.float32)
    else:                                            # blocky noise
        nw, nh = max(2, int(round(w / period * 2))), max(2, int(round(h / period * 2)))
        m = cv2.resize(rng.random((nh, nw)).astype(np.float32), (w, h), interpolation=cv2.INTER_NEAREST)
    c0, c1 = rng.integers(0, 256, 3).astype(np.float32), rng.integers(0, 256, 3).astype(np.float32)
    if np.abs(c0 - c1).sum() < 150:                  # keep it contrasty, like pips on a die
        c1 = np.where(c0.mean() > 128, 20.0, 235.0) * np.ones(3, np.float32)
    img = c0 + m[..., None] * (c1 - c0)
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))


# ----------------------------------------------------------------------------- board pieces

def piece(rng, out: int = 48) -> np.ndarray:
    """An out x out float32 BGR crop of something round that lies beside a dice tray on a game table,
    for the classifier to call "not a die": a printed number token (a disc with a numeral, maybe
    dots under it, as on a board game's hexes: its numeral's blob reads as a 1 or a 3), a coin
    or counter with a rim, or a smooth plastic piece with a highlight, on a plain or printed ground.
    A die's face is square, its pips a grid; these are round, their marks a glyph."""
    big = 2 * out                                    # drawn at twice the size, then shrunk
    ground = rng.integers(0, 256, 3).astype(np.float32)
    img = np.empty((big, big, 3), np.float32)
    img[:] = ground
    if rng.random() < 0.5:                           # a printed board around it: blotches of colour
        n = int(rng.integers(2, 5))
        blot = cv2.resize(rng.random((n, n, 3)).astype(np.float32) * 255, (big, big), interpolation=cv2.INTER_CUBIC)
        img = 0.5 * img + 0.5 * blot
    c = big / 2 + rng.uniform(-0.12, 0.12, 2) * big
    r = rng.uniform(0.28, 0.5) * big
    centre = (int(c[0]), int(c[1]))
    body = rng.integers(0, 256, 3).astype(np.float32)
    mark = np.where(body.mean() > 128, rng.uniform(0, 70), rng.uniform(185, 255)) * np.ones(3, np.float32)
    kind = rng.integers(3)
    if kind == 0:                                    # a number token
        cv2.circle(img, centre, int(r), body.tolist(), -1, cv2.LINE_AA)
        text = str(int(rng.integers(1, 13)))
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                               cv2.FONT_HERSHEY_TRIPLEX]))
        scale = r / 22.0 * rng.uniform(0.6, 1.0) / max(1, len(text)) ** 0.5
        thick = max(1, int(round(scale * rng.uniform(1.5, 3.0))))
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
        cv2.putText(img, text, (int(c[0] - tw / 2), int(c[1] + th / 2)), font, scale, mark.tolist(), thick, cv2.LINE_AA)
        for k in range(int(rng.integers(0, 6))):     # the dots under the numeral
            dx = (k - 2) * r * 0.16
            cv2.circle(img, (int(c[0] + dx), int(c[1] + th / 2 + r * 0.25)), max(1, int(r * 0.05)), mark.tolist(),
                       -1, cv2.LINE_AA)
    elif kind == 1:                                  # a coin or counter: a rim, maybe a mark
        cv2.circle(img, centre, int(r), body.tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, centre, int(r * rng.uniform(0.7, 0.9)), mark.tolist(), max(1, int(r * 0.06)), cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.circle(img, centre, int(r * rng.uniform(0.15, 0.3)), mark.tolist(), -1, cv2.LINE_AA)
    else:                                            # a plastic piece: a smooth blob, lit from one side
        pts = [(c[0] + r * rng.uniform(0.6, 1.1) * math.cos(a), c[1] + r * rng.uniform(0.6, 1.1) * math.sin(a))
               for a in np.linspace(0, 2 * np.pi, 9)[:-1]]
        cv2.fillPoly(img, [np.array(pts, np.int32)], body.tolist(), cv2.LINE_AA)
        img = cv2.GaussianBlur(img, (0, 0), 2.0)
        hl = (int(c[0] + rng.uniform(-0.4, 0.4) * r), int(c[1] + rng.uniform(-0.4, 0.4) * r))
        cv2.circle(img, hl, max(2, int(r * rng.uniform(0.1, 0.25))), (245.0, 245.0, 245.0), -1, cv2.LINE_AA)
    if rng.random() < 0.4:                           # a shadow or a worn print
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    m = cv2.getRotationMatrix2D((big / 2, big / 2), float(rng.uniform(0, 360)), 1.0)
    img = cv2.warpAffine(img, m, (big, big), borderMode=cv2.BORDER_REFLECT)
    return np.clip(cv2.resize(img, (out, out), interpolation=cv2.INTER_AREA), 0, 255).astype(np.float32)
