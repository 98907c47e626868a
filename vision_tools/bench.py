"""`python -m vision_tools.bench DIR [DIR ...]`: measure the reader on labelled folders.

    python -m vision_tools.bench DIR [DIR ...] [--limit N] [--errors N] [--no-720p]
        [--calibration FILE] [--sheet OUT.png] [--json]
        [--teach F [--teach-mode light|full] [--teach-seed N]]

A tool of the source checkout, beside the reader (never installed with it).

DIR holds images/*.jpg and labels.csv (`image,value,x,y,w,h`), the format of
../shared/data/dice/README.md. A reported die matches a label when its centre
lies inside the label's box, one to one (closest centres first). Unsure dice
that match count as neither correct nor wrong.

Timing runs on one OpenCV thread. Each image is timed as it is, and also
resized to fit a 1280x720 frame (padded), the size of the issue's target.
Both wall-clock and process CPU time are reported: on a shared machine the
wall clock includes waiting for the CPU, the CPU time does not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.image_file import load_image
from vision.labels import LABEL_COLUMNS, image_names, load_labels, match  # noqa: F401 (the bench's API)
from vision.reading import Reading, ReadError

from .machine import cpu
from .sheet import Look


@dataclass
class Tally:
    images: int = 0
    labelled: int = 0
    correct: int = 0
    wrong: int = 0
    unsure: int = 0
    missed: int = 0
    phantoms: int = 0
    phantoms_valued: int = 0
    exact_rolls: int = 0
    complete_wrong: int = 0     # frames read with no die unsure whose values are not the roll's
    times: list = field(default_factory=list)
    times_720p: list = field(default_factory=list)
    cpu: list = field(default_factory=list)
    cpu_720p: list = field(default_factory=list)
    # confusion[true][reported]: reported in 1..6, "?" unsure, "-" missed
    confusion: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    phantom_values: dict = field(default_factory=lambda: defaultdict(int))
    errors: list = field(default_factory=list)
    unreadable: list = field(default_factory=list)   # "image: why" for each image not read
    looks: list = field(default_factory=list)   # vision_tools.sheet.Look of every die not read right
    names: list = field(default_factory=list)   # the images scored

    def add(self, other: "Tally") -> None:
        for f in ("images", "labelled", "correct", "wrong", "unsure", "missed", "phantoms",
                  "phantoms_valued", "exact_rolls", "complete_wrong"):
            setattr(self, f, getattr(self, f) + getattr(other, f))


def source_name(folder: str) -> str:
    """A data folder's name as sheets know it: its last path part (also for ".")."""
    return os.path.basename(os.path.abspath(folder))


def complete_but_wrong(reading: Reading, values) -> bool:
    """Is every die of `reading` valued (the table would take it) while its values are not the
    roll's `values`? A die missed with nothing unsure left to show it is as silent as a wrong value,
    and per-die counts do not show it."""
    return reading.complete and sorted(reading.values) != sorted(values)


def to_720p(img: np.ndarray) -> np.ndarray:
    """Fit `img` (H, W, 3) uint8 into a 1280x720 frame, edge-padded."""
    h, w = img.shape[:2]
    s = min(1280 / w, 720 / h)
    r = cv2.resize(img, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_LINEAR)
    ph, pw = 720 - r.shape[0], 1280 - r.shape[1]
    return cv2.copyMakeBorder(r, ph // 2, ph - ph // 2, pw // 2, pw - pw // 2, cv2.BORDER_REPLICATE)


BUCKETS = ("0", "1", "2-6", "7-9", "10+")


def bucket(n: int) -> str:
    return "0" if n == 0 else "1" if n == 1 else "2-6" if n <= 6 else "7-9" if n <= 9 else "10+"


def run(folder: str, limit: int | None = None, time_720p: bool = True, config=None,
        verbose: bool = False, reader=None, only=None) -> tuple[Tally, dict]:
    """Read every labelled image of `folder`; return the total tally and per-bucket tallies.

    reader: function (frame, config) -> Reading, default `vision.read`.
    only: optional predicate on image names (e.g. the held-out split).
    """
    from vision import read as _read

    read = reader or _read
    cv2.setNumThreads(1)
    labels = load_labels(folder)
    names = [n for n in image_names(folder, labels) if only is None or only(n)]
    if limit:
        names = names[:limit]
    total = Tally()
    buckets: dict[str, Tally] = defaultdict(Tally)
    for name in names:
        # One bad image is reported and skipped; the rest are still measured.
        try:
            img = load_image(os.path.join(folder, "images", name))
            c0, t0 = time.process_time(), time.perf_counter()
            reading = read(img, config)
        except ReadError as exc:
            total.unreadable.append(f"{name}: {exc}")
            continue
        total.times.append(time.perf_counter() - t0)
        total.cpu.append(time.process_time() - c0)
        labs = labels.get(name, [])
        if time_720p:
            f720 = to_720p(img)
            c0, t0 = time.process_time(), time.perf_counter()
            read(f720, config)
            total.times_720p.append(time.perf_counter() - t0)
            total.cpu_720p.append(time.process_time() - c0)
        t = score(name, reading, labs, total)
        total.names.append(name)
        if verbose:
            print(f"{name}: {t.correct}/{len(labs)} wrong {t.wrong} unsure {t.unsure}"
                  f" missed {t.missed} phantoms {t.phantoms}")
        total.add(t)
        buckets[bucket(len(labs))].add(t)
    return total, dict(buckets)


def score(name: str, reading: Reading, labs: list, total: Tally) -> Tally:
    """One image's tally: `reading` matched to its labels `labs` [(value, x, y, w, h)]. The
    confusion, the dice not read right and the silent errors go to `total`."""
    t = Tally(images=1, labelled=len(labs))
    pairs, extra, missed = match(reading, labs)
    for die, lab in pairs:
        if die.value is None:
            t.unsure += 1
            total.confusion[lab[0]]["?"] += 1
            total.looks.append(Look(name, "unsure", lab[0], None, die.confidence, lab[1:]))
        elif die.value == lab[0]:
            t.correct += 1
            total.confusion[lab[0]][die.value] += 1
        else:
            t.wrong += 1
            total.looks.append(Look(name, "wrong", lab[0], die.value, die.confidence, lab[1:]))
            total.confusion[lab[0]][die.value] += 1
            total.errors.append(f"{name}: label {lab[0]} at ({lab[1] + lab[3] / 2:.0f},"
                                f"{lab[2] + lab[4] / 2:.0f}) read as {die.value}"
                                f" (conf {die.confidence:.2f})")
    for lab in missed:
        t.missed += 1
        total.confusion[lab[0]]["-"] += 1
        total.looks.append(Look(name, "missed", lab[0], None, None, lab[1:]))
    for die in extra:
        t.phantoms += 1
        total.phantom_values[die.value if die.value is not None else "?"] += 1
        if die.value is not None:
            t.phantoms_valued += 1
            total.looks.append(Look(name, "phantom", None, die.value, die.confidence, die.box))
            total.errors.append(f"{name}: phantom {die.value} at ({die.center[0]:.0f},"
                                f"{die.center[1]:.0f}) conf {die.confidence:.2f}")
    t.exact_rolls = int(t.correct == len(labs) and not extra)
    t.complete_wrong = int(complete_but_wrong(reading, [lab[0] for lab in labs]))
    if t.complete_wrong:
        total.errors.append(f"{name}: read complete as {sorted(reading.values)}, "
                            f"labelled {sorted(lab[0] for lab in labs)}")
    return t


def _ms_of(ts: list, q: float) -> float | None:
    return round(float(np.percentile(ts, q)) * 1000, 1) if ts else None


def figures(total: Tally) -> dict:
    """The bench's figures for one folder as plain data (the JSON of `--json`): counts, the rates
    (fractions, None without dice or images), and times in ms (None when not measured)."""
    n, rolls = total.labelled, total.images
    silent = total.wrong + total.phantoms_valued
    return {
        "images": rolls, "dice": n, "unreadable": len(total.unreadable),
        "correct": total.correct, "per_die": round(total.correct / n, 4) if n else None,
        "exact_rolls": total.exact_rolls, "exact_roll_rate": round(total.exact_rolls / rolls, 4) if rolls else None,
        "wrong": total.wrong, "unsure": total.unsure, "missed": total.missed,
        "phantoms": total.phantoms, "valued_phantoms": total.phantoms_valued,
        "silent": silent, "silent_rate": round(silent / n, 4) if n else None,
        "complete_but_wrong": total.complete_wrong,
        "median_ms": _ms_of(total.times, 50), "p95_ms": _ms_of(total.times, 95),
        "cpu_median_ms": _ms_of(total.cpu, 50), "cpu_p95_ms": _ms_of(total.cpu, 95),
        "median_ms_720p": _ms_of(total.times_720p, 50), "p95_ms_720p": _ms_of(total.times_720p, 95),
        "cpu_median_ms_720p": _ms_of(total.cpu_720p, 50), "cpu_p95_ms_720p": _ms_of(total.cpu_720p, 95),
    }


TEACH_SEED = 0


def teach_split(names: list[str], share: float, seed: int = TEACH_SEED) -> tuple[list[str], list[str]]:
    """(taught, scored): the folder's image names, sorted, shuffled by random.Random(seed); the
    first round(share x n) of them (at least 1, and at least one left to score) are the owner's
    confirmed rolls, the rest are scored. Disjoint, and the same for the same names and seed."""
    import random

    if not 0 < share < 1:
        raise ValueError(f"the taught share is a fraction between 0 and 1, not {share}")
    order = sorted(names)
    if len(order) < 2:
        raise ValueError("teaching needs at least two images: some to teach from, some to score")
    random.Random(seed).shuffle(order)
    k = min(len(order) - 1, max(1, round(share * len(order))))
    return sorted(order[:k]), sorted(order[k:])


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.2f}%" if b else "n/a"


def _ms(ts: list) -> str:
    if not ts:
        return "n/a"
    med = statistics.median(ts) * 1000
    p95 = float(np.percentile(ts, 95)) * 1000
    return f"median {med:.1f} ms, p95 {p95:.1f} ms"


def _load() -> str:
    try:
        return "load average %.2f %.2f %.2f on %d cores (wall times above are inflated when" \
               " load > cores)" % (*os.getloadavg(), os.cpu_count() or 1)
    except OSError:
        return "n/a"


def report(folder: str, total: Tally, buckets: dict, show_errors: int = 0) -> str:
    """The bench's figures for one folder."""
    n = total.labelled
    lines = [
        f"folder: {folder}",
        f"images {total.images}, labelled dice {n}",
        *([f"unreadable images {len(total.unreadable)} (not counted above):"]
          + ["  " + u for u in total.unreadable[:10]]
          + ([f"  ... and {len(total.unreadable) - 10} more"] if len(total.unreadable) > 10 else [])
          if total.unreadable else []),
        f"per-die accuracy   {_pct(total.correct, n)}  ({total.correct}/{n})",
        f"per-roll accuracy  {_pct(total.exact_rolls, total.images)}  ({total.exact_rolls}/"
        f"{total.images} rolls exact: every die right, none missing, unsure or extra)",
        f"wrong values       {_pct(total.wrong, n)}  ({total.wrong})",
        f"unsure             {_pct(total.unsure, n)}  ({total.unsure})",
        f"missed             {_pct(total.missed, n)}  ({total.missed})",
        f"phantoms           {total.phantoms}  (given a value: {total.phantoms_valued})",
        f"silent-error rate  {_pct(total.wrong + total.phantoms_valued, n)}  "
        f"((wrong + valued phantoms) / labelled)",
        f"complete but wrong {_pct(total.complete_wrong, total.images)}  ({total.complete_wrong}/"
        f"{total.images} images: no die unsure, the values not the roll's)",
        f"time per image     {_ms(total.times)}  (wall clock, as stored, one thread)",
        f"cpu time per image {_ms(total.cpu)}  (process CPU time: unaffected by other load)",
        f"time 1280x720      {_ms(total.times_720p)}  (wall clock, each image fitted to 1280x720)",
        f"cpu time 1280x720  {_ms(total.cpu_720p)}",
        f"machine load       {_load()}",
        f"machine            {cpu()}",
        "by dice per image:",
    ]
    for b in BUCKETS:
        t = buckets.get(b)
        if t is None:
            continue
        lines.append(f"  {b:>4}: {t.images:4d} images {t.labelled:5d} dice  per-die "
                     f"{_pct(t.correct, t.labelled):>7}  per-roll {_pct(t.exact_rolls, t.images):>7}"
                     f"  wrong {t.wrong}  unsure {t.unsure}  missed {t.missed}  phantoms {t.phantoms}")
    cols = [1, 2, 3, 4, 5, 6, "?", "-"]
    lines.append("confusion (rows: label; columns: read, ? unsure, - missed):")
    lines.append("       " + "".join(f"{c!s:>6}" for c in cols))
    for v in range(1, 7):
        row = total.confusion.get(v, {})
        lines.append(f"  {v:>4} " + "".join(f"{row.get(c, 0):>6}" for c in cols))
    lines.append("  phantom" + "".join(f"{total.phantom_values.get(c, 0):>6}" for c in cols[:7]))
    if show_errors and total.errors:
        lines.append(f"silent errors (first {show_errors}):")
        lines.extend("  " + e for e in total.errors[:show_errors])
    return "\n".join(lines)


# The command line.

def _config(path: str | None):
    """The calibration at `path` (None: uncalibrated, the shipped settings)."""
    from vision.calibrate import calibration_named
    return calibration_named(path)


def _owner():
    """vision_tools.train.owner (full teaching), or ReadError when torch is not installed."""
    import importlib.util

    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("onnx") is None:
        raise ReadError("--teach-mode full fine-tunes the nets with torch: pip install -e '.[train]'")
    from vision_tools.train import owner
    return owner


def cmd_bench(a) -> int:
    cfg = _config(a.calibration)
    say = (lambda *x: print(*x, file=sys.stderr)) if a.json else print   # --json: stdout is the JSON
    folders = []
    for folder in a.dirs:
        if not os.path.isfile(os.path.join(folder, "labels.csv")):
            raise ReadError(f"{folder}: no labels.csv (see ../shared/data/dice/README.md)")
        if a.teach is None:
            total, buckets = run(folder, limit=a.limit, time_720p=not a.no_720p, config=cfg)
            if not total.images and not total.unreadable:
                raise ReadError(f"{folder}: no images to read (labels.csv names none, images/ holds none)")
            folders.append({"folder": folder, "figures": figures(total)})
            if not a.json:
                print(report(folder, total, buckets, show_errors=a.errors))
        else:
            entry, reports = _bench_taught(a, folder, cfg)
            folders.append(entry)
            total = reports[-1][1]
            if not a.json:
                for title, t, b in reports:
                    print(f"== {title}")
                    print(report(folder, t, b, show_errors=a.errors))
                print(f"teaching: {a.teach_mode}, from {len(entry['teach']['photos'])} photos "
                      f"(seed {a.teach_seed}) in {entry['teach']['seconds']:.1f} s: {entry['teach']['taught']}")
        if a.sheet:
            _write_sheet(a.sheet, folder, total.looks, several=len(a.dirs) > 1, say=say)
        if not a.json:
            print()
    if a.json:
        print(json.dumps({"folders": folders, "machine": cpu()}))
    return 0


def _bench_taught(a, folder: str, cfg):
    """Teach from a seeded share of the folder's photos (teach_split), then score the rest
    untaught and taught. ({"folder", "teach", "untaught", "taught"}, [(title, tally, buckets)])."""
    import tempfile
    from dataclasses import replace

    from vision.settings import Config

    cfg = cfg or Config()
    taught_names, scored = teach_split(image_names(folder, load_labels(folder)), a.teach, a.teach_seed)
    only = set(scored).__contains__
    with tempfile.TemporaryDirectory() as tmp:
        c0 = time.perf_counter()
        if a.teach_mode == "full":
            owner = _owner()
            # progress to stderr: with --json, stdout is the JSON
            state = owner.teach(folder, os.path.join(tmp, "nets"), taught_names,
                                say=lambda *x: print(*x, file=sys.stderr))
            taught_cfg = replace(cfg, models=os.path.join(tmp, "nets"))
            summary = {k: state[k] for k in ("dice", "false_peaks", "on_taught_photos")}
        else:
            from vision import teach

            state = teach.teach(folder, taught_names, cfg)
            taught_cfg = replace(cfg, taught=teach.save(state, os.path.join(tmp, "taught.npz")))
            summary = state.to_dict()
        seconds = time.perf_counter() - c0
        before = run(folder, limit=a.limit, time_720p=not a.no_720p, config=cfg, only=only)
        after = run(folder, limit=a.limit, time_720p=not a.no_720p, config=taught_cfg, only=only)
    entry = {"folder": folder,
             "teach": {"mode": a.teach_mode, "share": a.teach, "seed": a.teach_seed, "photos": taught_names,
                       "seconds": round(seconds, 2), "taught": summary},
             "untaught": figures(before[0]), "taught": figures(after[0])}
    return entry, [("untaught, on the photos not taught", *before), ("taught", *after)]


def _write_sheet(path: str, folder: str, looks: list, several: bool, say=print) -> None:
    """The bench's contact sheet (vision_tools.sheet), one file a folder when there are several."""
    from vision.image_file import save_image

    from .sheet import contact_sheet

    if several:
        stem, ext = os.path.splitext(path)
        path = f"{stem}-{source_name(folder)}{ext or '.png'}"
    order = {"wrong": 0, "phantom": 1, "unsure": 2, "missed": 3}
    sheet = contact_sheet(folder, sorted(looks, key=lambda k: order[k.kind]))
    if sheet is None:
        say(f"sheet: every die read right, nothing to show ({path} not written)")
    else:
        save_image(path, sheet)
        say(f"sheet: {len(looks)} to look at (wrong, phantom, unsure, missed), in {path}")


def _positive(text: str) -> int:
    """argparse type: an integer of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return n


def _share(text: str) -> float:
    """argparse type: a share strictly between 0 and 1."""
    try:
        f = float(text)
    except ValueError:
        f = -1.0
    if not 0 < f < 1:
        raise argparse.ArgumentTypeError(f"a share between 0 and 1, such as 0.2, not {text!r}")
    return f


def main(argv=None) -> int:
    """Bad input (a folder without labels.csv, a malformed file, an unreadable calibration)
    prints one line to stderr and returns 2."""
    b = argparse.ArgumentParser(prog="python -m vision_tools.bench",
                                description="measure the dice reader's accuracy and speed on labelled folders")
    b.add_argument("dirs", nargs="+", metavar="DIR", help="a folder of images/ and labels.csv")
    b.add_argument("--limit", type=_positive, default=None, help="only the first N images")
    b.add_argument("--errors", type=int, default=0, help="list the first N silent errors")
    b.add_argument("--no-720p", action="store_true", help="skip the 1280x720 timing pass")
    b.add_argument("--calibration", metavar="FILE", help="calibration TOML to read with")
    b.add_argument("--sheet", metavar="OUT.png",
                   help="write a contact sheet of the dice not read right (wrong, unsure, missed, phantom)")
    b.add_argument("--teach", type=_share, metavar="F",
                   help="teach from a seeded share F of each folder's photos, score the rest untaught and taught")
    b.add_argument("--teach-mode", choices=("light", "full"), default="light",
                   help="light: on the CPU, no torch (vision/teach.py); full: fine-tune the nets")
    b.add_argument("--teach-seed", type=int, default=0, help="the seed of the taught photos' draw (0)")
    b.add_argument("--json", action="store_true", help="print one JSON object: each folder's figures")
    a = b.parse_args(argv)
    try:
        return cmd_bench(a)
    except (ReadError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
