"""The confirmed rolls kept to teach the dice reader: `<data folder>/rolls/`.

Each dice input the table enters from a camera reading (as proposed, or with
dice corrected) is kept with the frame it was read from: a JPEG in
`rolls/images/` and one row per die in `rolls/labels.csv`, the value entered
and the reader's box of that die. That is the labelled-photo format of
../shared/data/dice/README.md (`vision.labels`), so the folder is what
`companion dice export` copies and what teaching (`vision.teach`) learns from.

Bounded: beyond `max_bytes` of images the oldest rolls are dropped first.
`[dice] keep_rolls = false` keeps none; `companion dice clear` deletes them.
Keeping a roll never fails an input: the session calls the keeper after the
input is saved, and anything that goes wrong here is logged, not raised.
"""

from __future__ import annotations

import csv
import logging
import os
import shutil
import threading
import time
from pathlib import Path

log = logging.getLogger("companion.rolls")

ROLLS_DIR_NAME = "rolls"
COLUMNS = ("image", "value", "x", "y", "w", "h")
JPEG_QUALITY = 90


def rolls_dir(data_dir: Path) -> Path:
    return Path(data_dir) / ROLLS_DIR_NAME


class RollKeeper:
    """Keeps confirmed rolls in `folder` (images/ + labels.csv), at most `max_bytes` of images.

    Called as `keeper(frame, dice, values)`: frame (H, W, 3) uint8 BGR, dice the reading's
    dice as dicts with "box" [x, y, w, h] (the reading's to_dict()), values the entered
    value of each, in the same order."""

    def __init__(self, folder: Path, max_bytes: int, clock=time.time):
        self.folder = Path(folder)
        self.max_bytes = max_bytes
        self.clock = clock
        self._lock = threading.Lock()

    def __call__(self, frame, dice, values) -> str | None:
        """Keep one roll; returns the image's name, or None when it was not kept (logged why)."""
        try:
            return self.keep(frame, dice, values)
        except Exception:   # a full card, a read-only folder: the game goes on
            log.exception("could not keep a confirmed roll in %s", self.folder)
            return None

    def keep(self, frame, dice, values) -> str:
        import cv2

        if len(dice) != len(values) or not values:
            raise ValueError(f"{len(values)} values for {len(dice)} dice")
        rows = []
        for d, v in zip(dice, values):
            x, y, w, h = (int(c) for c in d["box"])
            if not (isinstance(v, int) and 1 <= v <= 6) or w <= 0 or h <= 0:
                raise ValueError(f"not a die's value and box: {v!r}, {d['box']!r}")
            rows.append((v, x, y, w, h))
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise ValueError("the frame could not be encoded as JPEG")
        with self._lock:
            images = self.folder / "images"
            images.mkdir(parents=True, exist_ok=True)
            name = self._new_name(images)
            tmp = images / (name + ".tmp")
            try:
                tmp.write_bytes(data.tobytes())
                tmp.replace(images / name)
            except BaseException:
                tmp.unlink(missing_ok=True)      # a full card leaves no half image behind
                raise
            try:
                self._append_rows(name, rows)
            except BaseException:
                (images / name).unlink(missing_ok=True)   # an image with no row would read as no dice
                raise
            self._trim()
        return name

    def _append_rows(self, name: str, rows: list) -> None:
        """The roll's rows at the end of labels.csv, all or none: a failed write is cut back off."""
        labels = self.folder / "labels.csv"
        new = not labels.exists()
        with labels.open("a", newline="", encoding="utf-8") as fh:
            start = fh.tell()
            try:
                out = csv.writer(fh)
                if new:
                    out.writerow(COLUMNS)
                out.writerows((name, *row) for row in rows)
                fh.flush()
            except BaseException:
                try:
                    fh.truncate(start)
                except OSError:
                    pass
                raise

    def sweep(self) -> int:
        """Remove what a write cut short (`images/*.tmp`, `labels.tmp`): called once at start,
        before anything is kept. Returns how many files were removed (logged)."""
        found = list((self.folder / "images").glob("*.tmp")) if (self.folder / "images").is_dir() else []
        found += [p for p in [self.folder / "labels.tmp"] if p.exists()]
        removed = 0
        for p in found:
            try:
                p.unlink()
                removed += 1
            except OSError as exc:
                log.warning("could not remove the unfinished %s: %s", p, exc)
        if removed:
            log.warning("removed %d unfinished file(s) left in %s by a roll that was not kept", removed,
                        self.folder)
        return removed

    def _new_name(self, images: Path) -> str:
        # Names sort in the order kept: the oldest first when trimming.
        t = self.clock()
        stem = time.strftime("roll-%Y%m%d-%H%M%S", time.gmtime(t)) + f"-{int(t * 1000) % 1000:03d}"
        name, k = stem + ".jpg", 1
        while (images / name).exists():
            name, k = f"{stem}-{k}.jpg", k + 1
        return name

    def _trim(self) -> None:
        """Drop the oldest rolls (image and rows) until the images fit in max_bytes."""
        images = self.folder / "images"
        files = sorted(p for p in images.iterdir() if p.suffix == ".jpg")
        sizes = {p.name: p.stat().st_size for p in files}
        total, gone = sum(sizes.values()), set()
        for p in files[:-1]:            # the roll just kept stays
            if total <= self.max_bytes:
                break
            total -= sizes[p.name]
            gone.add(p.name)
        if not gone:
            return
        labels = self.folder / "labels.csv"
        with labels.open(newline="", encoding="utf-8") as fh:
            rows = [r for r in csv.reader(fh)][1:]
        tmp = labels.with_suffix(".tmp")
        try:
            with tmp.open("w", newline="", encoding="utf-8") as fh:
                out = csv.writer(fh)
                out.writerow(COLUMNS)
                out.writerows(r for r in rows if r and r[0] not in gone)
            tmp.replace(labels)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise     # the rows go first: an image with no row would read as a tray with no dice
        for name in gone:
            (images / name).unlink(missing_ok=True)

    def count(self) -> int:
        images = self.folder / "images"
        return sum(1 for p in images.iterdir() if p.suffix == ".jpg") if images.is_dir() else 0

    def export(self, out: Path) -> int:
        """Copy the kept rolls to `out` (images/ and labels.csv); returns how many.
        `out` must not exist yet, or be an empty folder."""
        out = Path(out)
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise ValueError(f"{out}: not an empty folder (export writes images/ and labels.csv there)")
        with self._lock:
            n = self.count()
            if not n:
                raise ValueError(f"no rolls kept in {self.folder} yet")
            out.mkdir(parents=True, exist_ok=True)
            shutil.copytree(self.folder / "images", out / "images",
                            ignore=lambda _, names: [x for x in names if not x.endswith(".jpg")])
            shutil.copyfile(self.folder / "labels.csv", out / "labels.csv")
        return n

    def clear(self) -> int:
        """Delete every kept roll; returns how many there were."""
        with self._lock:
            n = self.count()
            if self.folder.is_dir():
                shutil.rmtree(self.folder)
        return n
