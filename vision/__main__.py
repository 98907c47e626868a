"""Command line: `python -m vision {read,calibrate,render} ...`.

    read IMAGE [--json] [--annotate OUT.png] [--calibration FILE]
    calibrate FRAME [--out FILE] [--roi] [--annotate OUT.png]
    calibrate-empty FRAME [--out FILE]      the empty tray, beside the calibration FILE
    render OUT.png VALUE [VALUE ...] [--seed N] [--touching]

Measuring the reader on labelled photos is a tool of the source checkout,
not of this package (docs/vision.md, "Measuring on your own photos").

Bad input prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from .image_file import load_image, save_image


def _config(path: str | None):
    from .calibrate import calibration_named
    return calibration_named(path)


def cmd_read(a) -> int:
    from . import read
    from .annotate import annotate

    img = load_image(a.image)
    reading = read(img, _config(a.calibration))
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


def cmd_calibrate(a) -> int:
    import cv2

    from .annotate import annotate
    from .calibrate import DEFAULT_PATH, calibrate, describe, save_calibration

    img = load_image(a.frame)
    cfg, info = calibrate(img, use_roi=a.roi)
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


def cmd_calibrate_empty(a) -> int:
    from .calibrate import DEFAULT_PATH, save_empty_tray

    path, info = save_empty_tray(load_image(a.frame), a.out or DEFAULT_PATH)
    print(f"saved {path} ({info['frame'][0]}x{info['frame'][1]}); the reader sees {info['ignored']} "
          f"die-like things on it ({info['valued']} valued): from now on they are left out where "
          "they lie the same")
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


def main(argv=None) -> int:
    from .reading import ReadError

    p = argparse.ArgumentParser(prog="python -m vision", description="Atlandice dice reader")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("read", help="read the dice on one image")
    r.add_argument("image")
    r.add_argument("--json", action="store_true", help="print the reading as JSON")
    r.add_argument("--annotate", metavar="OUT.png", help="write the frame with the reading drawn")
    r.add_argument("--calibration", metavar="FILE", help="calibration TOML to use")
    r.set_defaults(fn=cmd_read)
    c = sub.add_parser("calibrate", help="measure the dice size (and tray area) from a frame")
    c.add_argument("frame")
    c.add_argument("--out", metavar="FILE", help="default calibration/vision/camera.toml")
    c.add_argument("--roi", action="store_true", help="also save the tray area around the dice")
    c.add_argument("--annotate", metavar="OUT.png")
    c.set_defaults(fn=cmd_calibrate)
    e = sub.add_parser("calibrate-empty", help="save the empty tray: what lies there the same is never a die")
    e.add_argument("frame")
    e.add_argument("--out", metavar="FILE", help="the calibration file it goes beside (default "
                   "calibration/vision/camera.toml)")
    e.set_defaults(fn=cmd_calibrate_empty)
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
