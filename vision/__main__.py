"""Command line: `python -m vision {read,bench,calibrate,render} ...`.

    read IMAGE [--json] [--annotate OUT.png] [--calibration FILE] [--reader R]
    bench DIR [DIR ...] [--limit N] [--errors N] [--no-720p] [--calibration FILE] [--reader R]
          [--sheet OUT.png] [--json] [--teach F [--teach-mode light|full] [--teach-seed N]]
    calibrate FRAME [--out FILE] [--roi] [--annotate OUT.png] [--reader R]
    render OUT.png VALUE [VALUE ...] [--seed N] [--touching]

R is "learned" (the default: detector + classifier nets) or "pips" (the
hand-built pip reader); a calibration's die size is converted to R's measure.
bench runs from a source checkout: it is a tool beside the package (vision_tools/).

Bad input prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .image_file import load_image, save_image


def _config(path: str | None, reader: str | None = None):
    from .calibrate import load_calibration, with_reader
    from .settings import Config
    from .reading import ReadError

    if path is None:
        cfg = None
    elif not os.path.isfile(path):
        raise ReadError(f"no such calibration file: {path}")
    else:
        cfg = load_calibration(path)
    if reader:
        cfg = with_reader(cfg or Config(), reader)
    return cfg


def cmd_read(a) -> int:
    from . import read
    from .annotate import annotate

    img = load_image(a.image)
    reading = read(img, _config(a.calibration, a.reader))
    if a.json:
        print(json.dumps(reading.to_dict()))
    else:
        print(f"{len(reading.dice)} dice" + (f", total {reading.total()}" if reading.complete else ""))
        print(f"{'value':>5} {'centre':>13} {'box':>22} {'conf':>5}")
        for d in reading.dice:
            v = str(d.value) if d.sure else "?"
            c = f"{d.center[0]:.0f},{d.center[1]:.0f}"
            b = ",".join(str(x) for x in d.box)
            print(f"{v:>5} {c:>13} {b:>22} {d.confidence:5.2f}" + (f"  unsure: {d.reason}" if not d.sure else ""))
    if a.annotate:
        save_image(a.annotate, annotate(img, reading))
    return 0


def _tools():
    """The vision_tools package of the source checkout this package sits in (the bench is a
    tool beside the reader, not installed with it)."""
    import importlib

    from .reading import ReadError

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if os.path.isfile(os.path.join(root, "vision_tools", "bench.py")) and root not in sys.path:
        sys.path.append(root)
    try:
        return importlib.import_module("vision_tools")
    except ImportError:
        raise ReadError("bench is a tool of the source checkout (vision_tools/), "
                        "not installed with the package: run it from a checkout") from None


def _owner():
    """vision_tools.train.owner (full teaching), or ReadError when torch is not installed."""
    import importlib.util

    from .reading import ReadError

    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("onnx") is None:
        raise ReadError("--teach-mode full fine-tunes the nets with torch: pip install -e '.[train]'")
    from vision_tools.train import owner
    return owner


def cmd_bench(a) -> int:
    from .reading import ReadError

    _tools()
    from vision_tools import bench

    cfg = _config(a.calibration, a.reader)
    reader = cfg.reader if cfg is not None else "learned"
    say = (lambda *x: print(*x, file=sys.stderr)) if a.json else print   # --json: stdout is the JSON
    if a.teach is not None and reader != "learned":
        raise ReadError("teaching is for the learned reader")
    folders = []
    for folder in a.dirs:
        if not os.path.isfile(os.path.join(folder, "labels.csv")):
            raise ReadError(f"{folder}: no labels.csv (see ../shared/data/dice/README.md)")
        if a.teach is None:
            total, buckets = bench.run(folder, limit=a.limit, time_720p=not a.no_720p, config=cfg)
            if not total.images and not total.unreadable:
                raise ReadError(f"{folder}: no images to read (labels.csv names none, images/ holds none)")
            folders.append({"folder": folder, "figures": bench.figures(total)})
            if not a.json:
                print(bench.report(folder, total, buckets, show_errors=a.errors, reader=reader))
        else:
            entry, reports = _bench_taught(a, bench, folder, cfg)
            folders.append(entry)
            total = reports[-1][1]
            if not a.json:
                for title, t, b in reports:
                    print(f"== {title}")
                    print(bench.report(folder, t, b, show_errors=a.errors, reader=reader))
                print(f"teaching: {a.teach_mode}, from {len(entry['teach']['photos'])} photos "
                      f"(seed {a.teach_seed}) in {entry['teach']['seconds']:.1f} s: {entry['teach']['taught']}")
        if a.sheet:
            _write_sheet(a.sheet, folder, total.looks, several=len(a.dirs) > 1, say=say)
        if not a.json:
            print()
    if a.json:
        print(json.dumps({"reader": reader, "folders": folders}))
    return 0


def _bench_taught(a, bench, folder: str, cfg):
    """Teach from a seeded share of the folder's photos (bench.teach_split), then score the rest
    untaught and taught. ({"folder", "teach", "untaught", "taught"}, [(title, tally, buckets)])."""
    import tempfile
    import time
    from dataclasses import replace

    from .labels import image_names, load_labels
    from .settings import Config

    cfg = cfg or Config()
    taught_names, scored = bench.teach_split(image_names(folder, load_labels(folder)), a.teach, a.teach_seed)
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
            from . import teach

            state = teach.teach(folder, taught_names, cfg)
            taught_cfg = replace(cfg, taught=teach.save(state, os.path.join(tmp, "taught.npz")))
            summary = state.to_dict()
        seconds = time.perf_counter() - c0
        before = bench.run(folder, limit=a.limit, time_720p=not a.no_720p, config=cfg, only=only)
        after = bench.run(folder, limit=a.limit, time_720p=not a.no_720p, config=taught_cfg, only=only)
    entry = {"folder": folder,
             "teach": {"mode": a.teach_mode, "share": a.teach, "seed": a.teach_seed, "photos": taught_names,
                       "seconds": round(seconds, 2), "taught": summary},
             "untaught": bench.figures(before[0]), "taught": bench.figures(after[0])}
    return entry, [("untaught, on the photos not taught", *before), ("taught", *after)]


def _write_sheet(path: str, folder: str, looks: list, several: bool, say=print) -> None:
    """The bench's contact sheet (vision_tools.sheet), one file a folder when there are several."""
    from vision_tools.bench import source_name
    from vision_tools.sheet import contact_sheet

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


def cmd_calibrate(a) -> int:
    import cv2

    from .annotate import annotate
    from .calibrate import DEFAULT_PATH, calibrate, describe, save_calibration

    img = load_image(a.frame)
    cfg, info = calibrate(img, use_roi=a.roi, reader=a.reader or "learned")
    if a.annotate:
        # Drawn and written first: a picture that cannot be written saves no calibration.
        from . import read
        out = annotate(img, read(img, cfg))
        if cfg.roi:
            x, y, w, h = cfg.roi
            cv2.rectangle(out, (x, y), (x + w, y + h), (255, 200, 0), 2)
        save_image(a.annotate, out)
    path = save_calibration(cfg, info, a.out or DEFAULT_PATH)
    print(describe(cfg, info))
    print(f"saved {path}")
    if a.annotate:
        print(f"drawn in {a.annotate}")
    return 0


def cmd_render(a) -> int:
    from .render import render

    try:
        img = render(a.values, seed=a.seed, touching=a.touching)
    except ValueError as exc:
        from .reading import ReadError
        raise ReadError(str(exc)) from exc
    save_image(a.out, img)
    print(f"wrote {a.out}")
    return 0


def _die_value(text: str) -> int:
    """argparse type: a die's value, 1-6."""
    if text.strip() not in ("1", "2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"a die shows 1-6, not {text!r}")
    return int(text)


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
    from .settings import READERS
    from .reading import ReadError

    p = argparse.ArgumentParser(prog="python -m vision", description="Atlandice dice reader")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("read", help="read the dice on one image")
    r.add_argument("image")
    r.add_argument("--json", action="store_true", help="print the reading as JSON")
    r.add_argument("--annotate", metavar="OUT.png", help="write the frame with the reading drawn")
    r.add_argument("--calibration", metavar="FILE", help="calibration TOML to use")
    r.add_argument("--reader", choices=READERS, help="learned (default) or pips")
    r.set_defaults(fn=cmd_read)
    b = sub.add_parser("bench", help="measure accuracy and speed on labelled folders")
    b.add_argument("dirs", nargs="+", metavar="DIR")
    b.add_argument("--limit", type=_positive, default=None, help="only the first N images")
    b.add_argument("--errors", type=int, default=0, help="list the first N silent errors")
    b.add_argument("--no-720p", action="store_true", help="skip the 1280x720 timing pass")
    b.add_argument("--calibration", metavar="FILE")
    b.add_argument("--reader", choices=READERS, help="learned (default) or pips")
    b.add_argument("--sheet", metavar="OUT.png",
                   help="write a contact sheet of the dice not read right (wrong, unsure, missed, phantom)")
    b.add_argument("--teach", type=_share, metavar="F",
                   help="teach from a seeded share F of each folder's photos, score the rest untaught and taught")
    b.add_argument("--teach-mode", choices=("light", "full"), default="light",
                   help="light: on the CPU, no torch (vision/teach.py); full: fine-tune the nets")
    b.add_argument("--teach-seed", type=int, default=0, help="the seed of the taught photos' draw (0)")
    b.add_argument("--json", action="store_true",
                   help="print one JSON object: the reader and each folder's figures")
    b.set_defaults(fn=cmd_bench)
    c = sub.add_parser("calibrate", help="measure the dice size (and tray area) from a frame")
    c.add_argument("frame")
    c.add_argument("--out", metavar="FILE", help="default calibration/vision/camera.toml")
    c.add_argument("--roi", action="store_true", help="also save the tray area around the dice")
    c.add_argument("--annotate", metavar="OUT.png")
    c.add_argument("--reader", choices=READERS, help="learned (default) or pips")
    c.set_defaults(fn=cmd_calibrate)
    d = sub.add_parser("render", help="write a synthetic tray image with the given dice")
    d.add_argument("out")
    d.add_argument("values", nargs="+", type=_die_value, metavar="VALUE")
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--touching", action="store_true")
    d.set_defaults(fn=cmd_render)
    a = p.parse_args(argv)
    try:
        return a.fn(a)
    except (ReadError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
