"""Camera calibration: the tray area and the dice's size and colours.

    python -m vision calibrate FRAME.png [--out calibration/vision/camera.toml]
                                         [--roi] [--annotate OUT.png]

FRAME is a still photo of the tray with a few dice in it, as the camera sees
it during play. The command reads the dice uncalibrated, then saves:

- `die_px`: the median side of the dice it could read (pixels);
- `roi` (only with --roi): the tray area, taken as the box around the dice
  read grown by 1.5 die sides, so spread the dice over the whole tray; needs
  3 dice or more (otherwise the whole frame is used);
- `dice_colours`: the face colours (BGR) of the dice read, for the record;
and prints what it found (and draws it with --annotate). `load_calibration`
turns the file into a `vision.Config`; `vision.read(frame, config)` then looks
only in the tray and sizes the frame so the dice are where the detector reads
best (no second "auto-zoom" pass, fewer phantoms). The file is small TOML
written by hand (no extra dependency); its `reader = "learned"` says that
die_px is the side of the box around a die (a file without it, or with
"pips", measured the top face: its die_px is converted on loading).

    python -m vision calibrate-empty FRAME.png [--out calibration/vision/camera.toml]

saves FRAME (the tray with no dice in it, the board in place if one is read
on, the camera as in play) as empty_tray.png beside the calibration file;
`load_calibration` then sets Config.empty_tray, and vision.read leaves out
what lies there the same (a board's printed tokens, the tray's pattern):
vision/static.py.
"""

from __future__ import annotations

import functools
import os
import tomllib
from dataclasses import asdict, replace

import numpy as np

from .settings import Config

# The reader measures the box around a die; calibration files written without
# a `reader` key, or with reader = "pips", hold the side of its top face: this
# converts one to the other (4 / pi, on average).
BOX_PER_FACE = 1.27
MEASURES = {"learned": 1.0, "pips": BOX_PER_FACE}   # a file's `reader` -> its die_px to the box side

EMPTY_TRAY_NAME = "empty_tray.png"   # beside the calibration file: the empty tray, as the camera sees it

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "calibration", "vision", "camera.toml")


def calibrate(frame: np.ndarray, use_roi: bool = False) -> tuple[Config, dict]:
    """Measure a calibration from a frame ((H, W, 3) uint8 BGR) with dice on it.

    use_roi: also restrict reading to the area around the dice found (only
    sensible when the calibration frame has dice spread over the whole tray).
    Returns (Config, info dict with "dice", "colours", "frame" size).
    Raises vision.ReadError when no die could be read.
    """
    from . import read
    from .reading import ReadError

    reading = read(frame, Config())
    sure = [d for d in reading.dice if d.sure]
    if not sure:
        raise ReadError("calibration: no die could be read on this frame; put 3-9 dice in "
                        "the tray, showing faces 2-6, in good light")
    sides = [d.side for d in sure]
    die_px = float(np.median(sides))
    h, w = frame.shape[:2]
    roi = None
    if use_roi and len(sure) >= 3:
        xs = [d.box[0] for d in sure] + [d.box[0] + d.box[2] for d in sure]
        ys = [d.box[1] for d in sure] + [d.box[1] + d.box[3] for d in sure]
        m = 1.5 * die_px
        x0, y0 = max(0, int(min(xs) - m)), max(0, int(min(ys) - m))
        x1, y1 = min(w, int(max(xs) + m)), min(h, int(max(ys) + m))
        roi = (x0, y0, x1 - x0, y1 - y0)
    colours = []
    for d in sure:
        # Median of the middle of the face: pips cover well under half of it.
        q = max(1, int(d.side * 0.3))
        cx, cy = int(d.center[0]), int(d.center[1])
        patch = frame[max(0, cy - q):cy + q + 1, max(0, cx - q):cx + q + 1]
        if patch.size:
            colours.append([int(c) for c in np.median(patch.reshape(-1, 3), axis=0)])
    cfg = Config(die_px=round(die_px, 1), roi=roi)
    info = {"dice": len(reading.dice), "read": len(sure), "colours": colours,
            "frame": [w, h], "values": [d.value for d in reading.dice]}
    return cfg, info


def save_calibration(cfg: Config, info: dict, path: str = DEFAULT_PATH) -> str:
    """Write `cfg` (+ info) as TOML to `path`; returns the path."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    lines = ["# Dice-reader calibration, written by `python -m vision calibrate`.",
             f"# Frame {info['frame'][0]}x{info['frame'][1]}, {info['read']} of "
             f"{info['dice']} dice read.",
             "[reader]",
             f"die_px = {cfg.die_px}",
             'reader = "learned"']
    if cfg.roi is not None:
        lines.append("roi = [" + ", ".join(str(int(v)) for v in cfg.roi) + "]")
    lines.append("frame = [" + ", ".join(str(int(v)) for v in info["frame"]) + "]")
    lines.append("dice_colours = [" + ", ".join("[" + ", ".join(map(str, c)) + "]"
                                                for c in info["colours"]) + "]")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


def calibration_named(path: str | None) -> Config | None:
    """The calibration a command line names (None: none, the shipped settings); vision.ReadError
    when there is no such file or it is not a calibration."""
    from .reading import ReadError

    if path is None:
        return None
    if not os.path.isfile(path):
        raise ReadError(f"no such calibration file: {path}")
    return load_calibration(path)


def empty_tray_path(path: str | None = None) -> str:
    """Where the empty tray of the calibration file `path` is kept: beside it."""
    return os.path.join(os.path.dirname(os.path.abspath(path or DEFAULT_PATH)), EMPTY_TRAY_NAME)


def save_empty_tray(frame: np.ndarray, path: str | None = None) -> tuple[str, dict]:
    """Save `frame` ((H, W, 3) uint8 BGR: the tray with no dice in it, as the camera sees it in
    play) as the empty tray of the calibration file `path` (default DEFAULT_PATH), written whole
    or not at all. Returns (the image's path, info): "frame" [w, h], and "ignored", how many
    detections the reader makes on it (printing it would otherwise take for dice; from now on
    left out where they lie the same). Raises vision.ReadError for a frame that is not one,
    OSError when it cannot be written."""
    import cv2

    from . import read
    from .frame import validate_frame
    from .reading import ReadError

    frame = validate_frame(frame)
    seen = read(frame, Config())
    out = empty_tray_path(path)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = out + ".tmp.png"
    if not cv2.imwrite(tmp, frame):
        raise ReadError(f"could not write {tmp}")
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, out)        # a power cut leaves the old picture or the new one, never half
    h, w = frame.shape[:2]
    return out, {"frame": [w, h], "ignored": len(seen.dice),
                 "valued": sum(d.value is not None for d in seen.dice)}


@functools.lru_cache(maxsize=2)
def _empty_tray(path: str, stamp: tuple):
    from .image_file import load_image
    from .static import Reference

    return Reference(load_image(path), None, "empty tray")


def empty_tray_reference(path: str):
    """The empty tray at `path` as a vision.static.Reference, read once while the file stays the
    same (a new one is read again); None when it is missing or unreadable (nothing left out)."""
    try:
        st = os.stat(path)
        return _empty_tray(path, (st.st_mtime_ns, st.st_size))
    except (OSError, ValueError):
        return None


def load_calibration(path: str | None = None) -> Config:
    """Config from a calibration TOML; the default Config if the file is absent. An empty
    tray saved beside it (save_empty_tray) is named in Config.empty_tray.

    Raises vision.ReadError if the file exists but is not a valid calibration.
    """
    path = path or DEFAULT_PATH
    cfg = _load_reader(path)
    tray = empty_tray_path(path)
    return replace(cfg, empty_tray=tray) if os.path.isfile(tray) else cfg


def _load_reader(path: str) -> Config:
    from .reading import ReadError

    if not os.path.exists(path):
        return Config()
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh).get("reader", {})
        if not isinstance(data, dict):
            raise ValueError("[reader] must be a table")
        die_px = data.get("die_px")
        roi = data.get("roi")
        # No key (an older file) or "pips": die_px is the side of a die's top face, not its box.
        measure = str(data.get("reader", "pips"))
        if measure not in MEASURES:
            raise ValueError(f"unknown reader {measure!r} (this file's die_px is measured for 'learned')")
        die_px = float(die_px) if die_px else None
        if die_px is not None and MEASURES[measure] != 1.0:
            die_px = round(die_px * MEASURES[measure], 1)
        cfg = Config(die_px=die_px, roi=tuple(int(v) for v in roi) if roi else None)
    except (OSError, ValueError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise ReadError(f"bad calibration file {path}: {exc}") from exc
    if cfg.die_px is not None and not (8 <= cfg.die_px <= 2000):
        raise ReadError(f"bad calibration file {path}: die_px {cfg.die_px} out of range")
    return cfg


def describe(cfg: Config, info: dict) -> str:
    d = asdict(cfg)
    return (f"read {info['read']} of {info['dice']} dice {info['values']}; die side "
            f"{d['die_px']} px; tray area {d['roi'] or 'whole frame'}; face colours "
            f"(BGR) {info['colours']}")
