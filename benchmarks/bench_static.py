"""What does not move: the reader with and without a frame of the tray before the roll.

    .venv/bin/python benchmarks/bench_static.py [DATA_DIR] [--per-photo N] [--limit N] [--seed N]

Composites, since no shared folder holds a frame of the same tray before its
roll: each photo of the epanemu-* folders (a Catan board, a white table, a
purple cloth, desks; used for measuring only, never training) is the tray.
Dice crops of nell-byler and rune55-gray (their labelled boxes, turned by a
multiple of 90 degrees, corners rounded off) are pasted onto it at the size of
the photo's own dice, 1-4 at a time, where nothing else is pasted. Two scenes
per composite:

- "bare":  the photo's own dice painted out (cv2.inpaint): the frame before the
           roll is the bare board or cloth, as an empty tray saved at
           calibration would be; what is printed there (a board's number
           tokens) must not be valued;
- "lying": the photo's own dice left where they are in both frames: dice lying
           from before the roll, which are not this roll's and must not be
           valued either (each one valued counts as a silent error).

The frame before and the still frame after each get their own sensor noise
(sigma 2) and JPEG (quality 85); the still frame is also 0-8 % brighter or
darker and shifted by up to a pixel (the camera's auto-exposure and shake).

For each scene it prints, over the pasted dice: per-die right, unsure, wrong,
missed; valued phantoms (tokens, printing, dice lying); the silent-error rate
((wrong + valued phantoms) / pasted dice); and the pasted dice dropped as
static (a real die lost: the cost). Four readers: none (vision.read as is),
"empty tray" (vision.static.drop_static with the bare tray, photographed
apart: what calibration saves), "before" (with the frame before: what the
settle watcher keeps), "before+iou" (the same, and a die must overlap a
detection on the frame before: measured, not used). One OpenCV thread.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

import cv2
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from vision import Config, read  # noqa: E402
from vision.image_file import load_image  # noqa: E402
from vision.labels import image_names, load_labels, match  # noqa: E402
from vision.static import Reference, drop_static  # noqa: E402

TRAYS = ("epanemu-table", "epanemu-cloth", "epanemu-desk")   # measuring only, never training
DICE = ("nell-byler", "rune55-gray")
READERS = ("none", "empty tray", "before", "before+iou")


def dice_crops(data: str, per_source: int, rng) -> list[tuple[int, np.ndarray]]:
    """(value, square BGR crop) of up to `per_source` labelled dice of each DICE folder."""
    crops = []
    for src in DICE:
        folder = os.path.join(data, src)
        labels = load_labels(folder)
        items = [(name, lab) for name in sorted(labels) for lab in labels[name]]
        for k in rng.permutation(len(items))[:per_source]:
            name, (value, x, y, w, h) = items[k]
            img = load_image(os.path.join(folder, "images", name))
            side = max(w, h)
            cx, cy = x + w / 2, y + h / 2
            x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
            x1, y1 = x0 + int(round(side)), y0 + int(round(side))
            if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
                continue        # a die cut by its photo's edge
            crops.append((value, img[y0:y1, x0:x1].copy()))
    return crops


def paint_out(img: np.ndarray, labs) -> np.ndarray:
    mask = np.zeros(img.shape[:2], np.uint8)
    for _, x, y, w, h in labs:
        g = 0.15 * max(w, h)
        cv2.rectangle(mask, (int(x - g), int(y - g)), (int(x + w + g), int(y + h + g)), 255, -1)
    return cv2.inpaint(img, mask, 7, cv2.INPAINT_TELEA)


def paste(img: np.ndarray, crop: np.ndarray, x: int, y: int) -> None:
    s = crop.shape[0]
    alpha = np.zeros((s, s), np.float32)
    r = max(1, int(0.12 * s))
    cv2.rectangle(alpha, (r, 0), (s - 1 - r, s - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (s - 1, s - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (s - 1 - r, r), (r, s - 1 - r), (s - 1 - r, s - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 1.0, -1)
    alpha = cv2.GaussianBlur(alpha, (3, 3), 0)[..., None]
    roi = img[y:y + s, x:x + s].astype(np.float32)
    img[y:y + s, x:x + s] = (alpha * crop + (1 - alpha) * roi).round().astype(np.uint8)


def camera(img: np.ndarray, rng, gain: float = 1.0, shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    out = img.astype(np.float32) * gain + rng.normal(0, 2.0, img.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if shift != (0, 0):
        out = np.roll(out, shift, (0, 1))
    return cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_COLOR)


def composite(tray: np.ndarray, own_labs, crops, rng):
    """The tray with 1-4 crops pasted (none on another, none on the photo's own dice);
    returns (image, [(value, x, y, w, h)] of the pasted dice)."""
    H, W = tray.shape[:2]
    sides = [max(w, h) for _, _, _, w, h in own_labs] or [60.0]
    taken = [(x, y, w, h) for _, x, y, w, h in own_labs]
    out, labs = tray.copy(), []
    for _ in range(int(rng.integers(1, 5))):
        value, crop = crops[int(rng.integers(len(crops)))]
        s = int(round(max(28.0, float(np.median(sides)) * rng.uniform(0.8, 1.2))))
        if s >= min(H, W) // 2:
            continue
        c = np.rot90(cv2.resize(crop, (s, s), interpolation=cv2.INTER_AREA), int(rng.integers(4))).copy()
        for _try in range(30):
            x, y = int(rng.integers(0, W - s)), int(rng.integers(0, H - s))
            if all(x + s + 4 < bx or bx + bw + 4 < x or y + s + 4 < by or by + bh + 4 < y
                   for bx, by, bw, bh in taken):
                paste(out, c, x, y)
                taken.append((x, y, s, s))
                labs.append((value, float(x), float(y), float(s), float(s)))
                break
    return out, labs


def tally(reading, labs, lying) -> np.ndarray:
    """[pasted, right, unsure, wrong, missed, valued phantoms, lying dice, lying dice valued] of a
    reading; `lying`: the photo's own dice left in the tray (scene "lying"), else []."""
    pairs, extra, lost = match(reading, labs)
    stay, other, _ = match(type(reading)(tuple(extra), reading.width, reading.height), lying)
    return np.array([len(labs), sum(d.value == lab[0] for d, lab in pairs),
                     sum(d.value is None for d, _ in pairs),
                     sum(d.value is not None and d.value != lab[0] for d, lab in pairs),
                     len(lost), sum(d.value is not None for d in other), len(lying),
                     sum(d.value is not None for d, _ in stay)])


def lost_to_static(reading, labs) -> int:
    """The pasted dice the reading ignored as static (a real die of the roll lost)."""
    pairs, _, _ = match(type(reading)(reading.ignored, reading.width, reading.height), labs)
    return len(pairs)


PAIR_ALIKE = 0.03     # photos whose thumbnails differ on at most this share: the camera did not move


def real_pairs(data: str, cfg, folders=TRAYS + DICE) -> None:
    """The shared photos that come in near-identical pairs (the same camera, tray and light, a
    new roll): each photo read with its pair as the frame before. Every labelled die of a photo
    is a die of its roll unless it lies there the same in the other (looked at: see the report)."""
    import itertools

    print("\nReal photo pairs (the same camera and tray, thumbnails alike; each photo read with the "
          "other as the frame before):")
    print(f"{'folder':<14} {'pairs':>5} {'dice':>5} {'right':>7} {'right+ref':>9} {'ignored':>8} "
          f"{'v.phant':>8} {'v.phant+ref':>11}")
    for folder in folders:
        path = os.path.join(data, folder)
        if not os.path.isfile(os.path.join(path, "labels.csv")):
            continue
        labels = load_labels(path)
        names = image_names(path, labels)
        thumbs = {}
        for n in names:
            img = cv2.imread(os.path.join(path, "images", n), cv2.IMREAD_REDUCED_GRAYSCALE_4)
            if img is not None:
                thumbs[n] = (img.shape, cv2.resize(img, (48, 36), interpolation=cv2.INTER_AREA).astype(np.float32))
        pairs = [(a, b) for a, b in itertools.combinations(sorted(thumbs), 2)
                 if thumbs[a][0] == thumbs[b][0]
                 and float((np.abs(thumbs[a][1] - thumbs[b][1]) > 12).mean()) <= PAIR_ALIKE]
        t = np.zeros(6, int)
        cache = {}
        for a, b in pairs:
            for after, before in ((a, b), (b, a)):
                for n in (after, before):
                    if n not in cache:
                        cache[n] = load_image(os.path.join(path, "images", n))
                labs = labels.get(after, [])
                reading = read(cache[after], cfg)
                kept = drop_static(reading, cache[after], [Reference(cache[before])])
                p0, x0, _ = match(reading, labs)
                p1, x1, _ = match(kept, labs)
                t += [len(labs), sum(d.value == lab[0] for d, lab in p0), sum(d.value == lab[0] for d, lab in p1),
                      lost_to_static(kept, labs), sum(d.value is not None for d in x0),
                      sum(d.value is not None for d in x1)]
                for d, lab in match(type(kept)(kept.ignored, kept.width, kept.height), labs)[0]:
                    print(f"  {folder}/{after}: labelled {lab[0]} at ({lab[1]:.0f},{lab[2]:.0f}) ignored, "
                          f"lying alike in {before}")
        n = max(1, t[0])
        print(f"{folder:<14} {len(pairs):>5} {t[0]:>5} {100 * t[1] / n:6.1f}% {100 * t[2] / n:8.1f}% "
              f"{t[3]:>8} {t[4]:>8} {t[5]:>11}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("data", nargs="?", default=os.path.join(os.path.dirname(REPO), "shared", "data", "dice"))
    p.add_argument("--per-photo", type=int, default=2, help="composites per tray photo and scene")
    p.add_argument("--limit", type=int, default=0, help="tray photos per folder (0: all)")
    p.add_argument("--seed", type=int, default=45)
    a = p.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(a.seed)
    crops = dice_crops(a.data, 150, rng)
    cfg = Config()
    totals = defaultdict(lambda: np.zeros(8, int))
    lost = defaultdict(int)
    times = []
    for folder in TRAYS:
        path = os.path.join(a.data, folder)
        if not os.path.isfile(os.path.join(path, "labels.csv")):
            print(f"{folder}: not present, skipped")
            continue
        labels = load_labels(path)
        names = image_names(path, labels)[:a.limit or None]
        for name in names:
            photo = load_image(os.path.join(path, "images", name))
            own = labels.get(name, [])
            bare = paint_out(photo, own)
            for scene, tray in (("bare", bare), ("lying", photo)):
                for _ in range(a.per_photo):
                    after, labs = composite(tray, own, crops, rng)
                    if not labs:
                        continue
                    before = camera(tray, rng)
                    shift = (int(rng.integers(-1, 2)), int(rng.integers(-1, 2)))
                    still = camera(after, rng, gain=float(rng.uniform(0.92, 1.08)), shift=shift)
                    reading = read(still, cfg)
                    ref_reading = read(before, cfg)
                    variants = {"none": reading}
                    t1 = time.perf_counter()
                    variants["before"] = drop_static(reading, still, [Reference(before)])
                    times.append(time.perf_counter() - t1)
                    empty = camera(bare, rng)
                    variants["empty tray"] = drop_static(reading, still, [Reference(empty, None, "empty tray")])
                    variants["before+iou"] = drop_static(reading, still, [Reference(before, ref_reading)])
                    lying = own if scene == "lying" else []
                    for r in READERS:
                        t = tally(variants[r], labs, lying)
                        totals[(folder, scene, r)] += t
                        totals[("all", scene, r)] += t
                        lost[(folder, scene, r)] += lost_to_static(variants[r], labs)
                        lost[("all", scene, r)] += lost_to_static(variants[r], labs)
    print("Pasted dice (nell-byler, rune55-gray) on epanemu-* photos; the frame before = the tray "
          "without them.")
    print("dice: pasted (the roll's); v.phant: valued where no die is (printing, tokens); lying: the "
          "photo's own dice, lying since before the roll, and how many were valued; silent: (wrong + "
          "v.phant + lying valued) / dice; lost: rolled dice ignored as static")
    print(f"{'trays':<14} {'scene':<6} {'reference':<11} {'dice':>5} {'right':>7} {'unsure':>7} "
          f"{'wrong':>6} {'missed':>7} {'v.phant':>8} {'lying':>9} {'silent':>7} {'lost':>5}")
    for key in sorted(totals, key=lambda k: (k[0] == "all", k[0], k[1], READERS.index(k[2]))):
        n, right, unsure, wrong, missed, phant, lying, lying_valued = totals[key]
        print(f"{key[0]:<14} {key[1]:<6} {key[2]:<11} {n:>5} {100 * right / n:6.1f}% {100 * unsure / n:6.1f}% "
              f"{wrong:>6} {missed:>7} {phant:>8} {f'{lying_valued}/{lying}':>9} "
              f"{100 * (wrong + phant + lying_valued) / n:6.1f}% {lost[key]:>5}")
    real_pairs(a.data, cfg)
    if times:
        print(f"drop_static: median {1000 * float(np.median(times)):.2f} ms, "
              f"p95 {1000 * float(np.percentile(times, 95)):.2f} ms per reading (one thread)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
