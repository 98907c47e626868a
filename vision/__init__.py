"""The Atlandice dice reader: camera frame in, dice values (or "unsure") out.

Public API (see docs/vision.md):

    vision.read(frame, config=None) -> Reading   # frame: (H, W, 3) uint8 BGR
    vision.Reading, vision.Die, vision.ReadError
    vision.SettleWatcher                          # stream of frames -> one reading per roll
    vision.render(values, seed=0, ...)            # synthetic tray image, (H, W, 3) uint8 BGR
    vision.annotate(frame, reading)               # frame with boxes and values drawn
    vision.load_calibration(path=None)            # Config from calibration/vision/camera.toml
    vision.Config                                 # the reader's settings (frozen; dataclasses.replace)

Nothing heavy happens at import time: no camera, no model, no file read.
"""

from __future__ import annotations

from .reading import Die, Reading, ReadError
# Bind the functions over their same-named submodules (cheap: cv2 + numpy only).
from .render import render
from .annotate import annotate
from .settle import SettleWatcher

__all__ = ["read", "Die", "Reading", "ReadError", "SettleWatcher", "render", "annotate",
           "load_calibration", "Config"]


def read(frame, config=None) -> Reading:
    """Find every six-sided die on `frame` and read its top face.

    frame: numpy array (H, W, 3) uint8 BGR (grey (H, W) and BGRA accepted).
    config: optional `vision.Config` (from `load_calibration()`); without it
        the reader works uncalibrated.
    Returns a `Reading`; raises `ReadError` for input that is not an image.
    With `config.empty_tray` (calibration), what lies the same in the empty
    tray is left out, in `reading.ignored` (vision.static).
    A blank, black or blown-out frame gives an empty Reading.
    """
    from . import learned, nets
    from .frame import validate_frame
    from .settings import Config

    if config is None:
        config = Config()
    elif not isinstance(config, Config):
        raise ReadError(f"config must be a vision.Config (or None), not {type(config).__name__}")
    frame = validate_frame(frame)
    if not nets.available(config.models):
        raise ReadError(f"the dice reader's model files are missing from {config.models} "
                        "(reinstall the package)")
    reading = learned.read_learned(frame, config)
    if config.empty_tray and reading.dice:
        # What lies in the empty tray saved at calibration, the same, is printing, not a die.
        from .calibrate import empty_tray_reference
        from .static import drop_static

        reading = drop_static(reading, frame, [empty_tray_reference(config.empty_tray)])
    return reading


def __getattr__(name):
    # Lazy re-exports so `import vision` stays cheap.
    if name == "Config":
        from .settings import Config
        return Config
    if name == "load_calibration":
        from .calibrate import load_calibration
        return load_calibration
    raise AttributeError(name)
