"""The dice reader's settings: one frozen `Config`, passed down to every step.

`vision.calibrate` fills the calibration (die_px, roi); the other fields are
the reader's tuning, with the values chosen on the "val" photos (docs/vision.md)
as defaults. A tool or a test that measures another value makes its own
settings, `dataclasses.replace(Config(), p_vouch=0.9)`, and passes them in.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")


@dataclass(frozen=True)
class Config:
    """What a reading is made with. Sizes in pixels; p_*: classifier probabilities.

    die_px: expected die side in pixels, the side of the box around a die
        (None: unknown, inferred per frame).
    roi: (x, y, w, h) tray area in pixels, or None for the whole frame.
    models, taught: the nets read with, and an owner's light teaching.
    The fields after these tune the reader, step by step.
    """

    die_px: float | None = None
    roi: tuple[int, int, int, int] | None = None
    models: str = MODELS         # folder of the .onnx nets (or an object with run(name, blob) standing in)
    taught: str | None = None    # an owner's taught state (vision/teach.py, a .npz), None: as shipped
    empty_tray: str | None = None  # a picture of the empty tray saved at calibration (vision.calibrate.
                                   # save_empty_tray): what lies there the same is never a die (vision.static)

    # Detector (vision/detector.py).
    det_area: int = 384 * 216    # uncalibrated first pass: detector input area, pixels
    det_max_area: int = 4 * 384 * 216   # never run the detector on more than this
    max_scale: float = 1.5       # nor upscale the frame more than this
    det_die: float = 20.0        # calibrated: die side in detector pixels (the shipped one trained on ~8-100)
    zoom_out: tuple[float, float] = (45.0, 30.0)  # auto-zoom: median die (score >= 0.5) this big or bigger
                                                  # (detector px) -> also at this size
    zoom_in: tuple[float, float] = (12.0, 20.0)   # ... this small or smaller -> to this size (it rates tiny
                                                  # dice ~10)
    heat_t: float = 0.3          # detector peak threshold
    nms: float = 0.6             # peaks closer than nms x the mean of their sides are one die

    # Classifiers (vision/classifier.py).
    two_views: bool = True       # classify each crop twice (as is; turned and mirrored)
    second_look: bool = True     # the wider classifier reads again the dice ...
    p_look: float = 0.7          # ... whose most likely value has probability below this (chosen on "val")
    p_backed: float = 0.5        # ... and the dice valued from p_look up to p_vouch must have the wider
                                 # net's backing: their value at least this from it too
    p_vouch: float = 0.95        # ... which are those valued below this: a die cocked on an edge, valued by
                                 # the first net, seldom is by the second (each costs a wider look)

    # Decision (vision/decision.py).
    p_sure: float = 0.7          # classifier probability needed to give a value (chosen on "val")
    p_not_die: float = 0.6       # classifier "not a die" probability that drops a detection
    min_score: float = 0.4       # detector score below which a die is never given a value
    min_side: float = 14.0       # a die smaller than this (frame px) is never given a value: its pips would
                                 # be a pixel or two (the photos' smallest die is 23 px; phantoms in noise 8-10)
    edge: float = 0.3            # a die whose box leaves the frame by more than this x its side is unsure;
    near_edge: float = 0.15      # ... by more than this, it needs p_edge: half a 6 shows a 3
    p_edge: float = 0.9

    # Close-up (vision/close_up.py, uncalibrated only).
    close_up: float = 0.33       # pip-like detections: read again as if the dice were this share of the
                                 # tray area's short side ...
    pip_sized: float = 0.6       # ... "pip-sized": at most this x that side
    inside: float = 0.1          # a close-up die is taken only if its box is this x its side inside the frame,
    beyond: float = 90.0         # ... and this big at the first pass's detector input (it was trained on
                                 # 8-100),
    on_face: float = 0.3         # ... the detections within this x its side of its centre are its pips
                                 # (a die's pips lie within about 0.22 x its box side)

    def __post_init__(self):
        # Checked here, once: a NaN or negative size once crashed a reading, or boxed the frame.
        if self.die_px is not None and not (isinstance(self.die_px, (int, float))
                                            and math.isfinite(self.die_px) and self.die_px > 0):
            raise ValueError(f"die_px must be a die's side in pixels (> 0), not {self.die_px!r}")
        if self.roi is not None:
            roi = tuple(self.roi)
            if len(roi) != 4 or not all(isinstance(v, int) for v in roi) or min(roi) < 0 or 0 in roi[2:]:
                raise ValueError(f"roi must be x, y, w, h: whole pixels, w and h > 0, not {self.roi!r}")
