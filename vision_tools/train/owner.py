"""Full teaching: the reader's three nets fine-tuned on an owner's confirmed rolls.

    .venv/bin/pip install -e '.[train]'            # torch and onnx: any computer, CPU is enough
    .venv/bin/python -m vision_tools.train --owner EXPORT --out DIR

EXPORT is a folder of labelled photos (images/*.jpg, labels.csv), as
`companion dice export` writes it. Each net starts from the installed one
(vision/models/, read back from its ONNX file: `from_onnx`) and is trained a
fixed number of steps (`Recipe`) on the owner's photos, mixed with rendered
scenes so that it keeps what it knew:

- the detector on crops of the photos at the sizes the reader looks at them
  (train_dice.det_batch): this table's dice where they were missed, and its
  printed board, cables or cloth as "no die";
- the two classifiers on crops of the labelled dice (jittered as detector
  boxes are) and on "not a die" crops: beside, inside and between the dice,
  and at the installed detector's false peaks on these photos.

DIR receives the three nets and taught.json (what they learned from, and how
they read the taught photos). `companion dice nets DIR` installs them on the
device; the shipped nets stay there as the fallback. A seed gives the same
nets on the same machine and torch.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn.functional as F

from vision.classifier import CLS
from vision.settings import MODELS

from . import from_onnx
from . import train_dice as T
from .data import SMOOTHING, colour_aug, synthetic, targets

MANIFEST = "taught.json"


@dataclass(frozen=True)
class Recipe:
    """How the nets are fine-tuned. Steps, not minutes, so that a seed gives the same nets."""

    det_steps: int = 300         # detector steps, det_batch crops of 128x128 each
    cls_steps: int = 800         # first classifier steps, cls_batch crops of 48x48 each
    wide_steps: int = 500        # second-look classifier steps
    det_batch: int = 16
    cls_batch: int = 64
    lr: float = 1e-3             # peak learning rate (AdamW, cosine decay), half of training's
    warmup: int = 20             # steps of rising learning rate first
    scenes: int = 80             # rendered scenes mixed in (vision.render via data.synthetic) ...
    syn_share: float = 0.3       # ... as this share of the batches
    negatives: float = 0.3       # share of classifier crops that are "not a die" beside, inside or between dice
    peaks: float = 0.15          # ... and that are the installed detector's false peaks on the photos
    seed: int = 0
    threads: int = 2


def photos(folder: str, names=None) -> list:
    """[(name, image BGR, [(value, x, y, w, h)])] of the labelled photos `names` of `folder` (all by
    default); photos without dice are kept (the detector's peaks on them are false peaks)."""
    from vision.image_file import load_image
    from vision.labels import image_names, load_labels

    labels = load_labels(folder)
    names = image_names(folder, labels) if names is None else list(names)
    return [(n, load_image(os.path.join(folder, "images", n)), labels.get(n, [])) for n in names]


def false_peaks(pool: list, models: str = MODELS) -> list:
    """The installed detector's peaks on the photos that lie on no labelled die: [(image, cx, cy, side)]."""
    from dataclasses import replace

    from vision.settings import Config

    loose = replace(Config(), models=models)
    return [(pool[k][1], cx, cy, side) for k, cx, cy, side in T.false_peaks(pool, loose)]


def cls_batch(pool: list, peaks: list, n: int, rng, r: Recipe):
    """(crops (n, 3, CLS, CLS) in 0..1, targets (n, 7)) from photos `pool` and false peaks `peaks`."""
    with_dice = [p for p in pool if p[2]]
    xs, ys = np.empty((n, CLS, CLS, 3), np.float32), np.zeros(n, np.int64)
    for i in range(n):
        u = rng.random()
        if peaks and u < r.peaks:
            img, cx, cy, side = peaks[rng.integers(len(peaks))]
            c = T.peak_crop(img, cx, cy, side, rng)
        else:
            _, img, labs = with_dice[rng.integers(len(with_dice))]
            v, x, y, w, h = labs[rng.integers(len(labs))]
            side, cx, cy = math.sqrt(w * h), x + w / 2, y + h / 2
            # the negatives' share is of all crops: r.negatives past the peaks' share, or alone without peaks
            c = T._negative(img, labs, v, cx, cy, side, rng) if u < (r.peaks if peaks else 0) + r.negatives else None
            if c is None:
                c = T.die_crop(img, cx, cy, side, rng)
                ys[i] = v
        xs[i] = colour_aug(c.astype(np.float32), rng, T.Recipe.grey)
    return torch.from_numpy(xs.transpose(0, 3, 1, 2) / 255.0), torch.from_numpy(targets(ys))


def _schedule(opt, step: int, steps: int, r: Recipe) -> None:
    k = (step + 1) / r.warmup if step < r.warmup else 0.5 * (1 + math.cos(math.pi * step / steps))
    for group in opt.param_groups:
        group["lr"] = r.lr * k


def fine_tune(kind: str, pool: list, scenes: list, peaks: list, r: Recipe, models: str = MODELS,
              say=print) -> torch.nn.Module:
    """Net `kind` of folder `models`, trained r.*_steps on the owner's photos and rendered scenes."""
    model = from_onnx.load(models, kind)
    steps = {"det": r.det_steps, "cls": r.cls_steps, "wide": r.wide_steps}[kind]
    rng = np.random.default_rng(r.seed + {"det": 0, "cls": 1, "wide": 2}[kind])
    opt = torch.optim.AdamW(model.parameters(), r.lr, weight_decay=1e-4)
    with_dice = [p for p in pool if p[2]]
    ema, t0 = None, time.perf_counter()
    model.train()
    for step in range(steps):
        _schedule(opt, step, steps, r)
        rendered = bool(scenes) and rng.random() < r.syn_share
        if kind == "det":
            x, heat, reg, mask = T.det_batch(scenes if rendered else with_dice, r.det_batch, rng)
            out = model(x)
            m = mask.unsqueeze(1)
            lreg = (F.smooth_l1_loss(out[:, 1:4], reg, reduction="none") * m).sum() / m.sum().clamp(min=1)
            loss = T.focal(out[:, 0], heat) + lreg
        else:
            x, y = cls_batch(scenes if rendered else pool, [] if rendered else peaks, r.cls_batch, rng, r)
            loss = F.cross_entropy(model(x), y, label_smoothing=SMOOTHING)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema = loss.item() if ema is None else 0.95 * ema + 0.05 * loss.item()
        if (step + 1) % 100 == 0 or step + 1 == steps:
            say(f"  {kind} step {step + 1}/{steps}, loss {ema:.3f}, {time.perf_counter() - t0:.0f} s")
    model.eval()
    return model


def teach(folder: str, out: str, names=None, recipe: Recipe | None = None, models: str = MODELS,
          say=print) -> dict:
    """Fine-tune the nets of `models` on the labelled photos `names` of `folder` (all by default) and
    write them, with MANIFEST, to the folder `out` (replaced whole, never left half written).
    Returns the manifest. ValueError when the photos hold no labelled die."""
    r = recipe or Recipe()
    _writable(out, folder)
    import cv2

    threads = torch.get_num_threads(), cv2.getNumThreads()
    torch.set_num_threads(r.threads)
    cv2.setNumThreads(1)
    try:
        return _teach(folder, out, names, r, models, say)
    finally:
        torch.set_num_threads(threads[0])
        cv2.setNumThreads(threads[1])


def _writable(out: str, folder: str) -> None:
    """ValueError unless `out` may be replaced by taught nets: missing, empty, or an earlier output
    (it holds MANIFEST), and neither the photos' folder nor one holding it."""
    o, f = os.path.realpath(out), os.path.realpath(folder)
    if f == o or f.startswith(o.rstrip(os.sep) + os.sep):
        raise ValueError(f"{out} holds the photos taught from: write the nets to another folder")
    if os.path.exists(out) and (not os.path.isdir(out)
                                or (os.listdir(out) and not os.path.isfile(os.path.join(out, MANIFEST)))):
        raise ValueError(f"{out} is not an earlier output of teaching (no {MANIFEST}): give a new or empty folder")


def _teach(folder: str, out: str, names, r: Recipe, models: str, say) -> dict:
    start = time.perf_counter()
    torch.manual_seed(r.seed)
    pool = photos(folder, names)
    dice = sum(len(labs) for _, _, labs in pool)
    if not dice:
        raise ValueError(f"{folder}: no labelled die to teach from")
    peaks = false_peaks(pool, models)
    scenes = synthetic(r.scenes, seed=r.seed + 1) if r.scenes else []
    say(f"teaching from {len(pool)} photos ({dice} dice, {len(peaks)} false peaks), {len(scenes)} rendered scenes")
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".taught-", dir=parent)
    try:
        for kind in ("det", "cls", "wide"):
            T.export(fine_tune(kind, pool, scenes, peaks, r, models, say), kind, tmp, say)
        manifest = {"photos": [name for name, _, _ in pool], "dice": dice, "false_peaks": len(peaks),
                    "recipe": asdict(r), "seconds": round(time.perf_counter() - start, 1),
                    "made": time.strftime("%Y-%m-%dT%H:%M:%S"), "from": os.path.abspath(folder),
                    "on_taught_photos": {"shipped": _score(pool, models), "taught": _score(pool, tmp)}}
        with open(os.path.join(tmp, MANIFEST), "w") as f:
            json.dump(manifest, f, indent=1)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


def _score(pool: list, models: str) -> dict:
    """Per die right and silent errors of the reader with the nets of `models` on the photos `pool`."""
    from dataclasses import replace

    from vision import read
    from vision.labels import match
    from vision.settings import Config

    s = replace(Config(), models=models)
    right = silent = n = 0
    for _, img, labs in pool:
        pairs, extra, _ = match(read(img, s), labs)
        n += len(labs)
        right += sum(d.value == lab[0] for d, lab in pairs)
        silent += sum(d.value is not None and d.value != lab[0] for d, lab in pairs)
        silent += sum(d.value is not None for d in extra)
    return {"per_die": round(right / n, 4) if n else None, "silent": silent}
