"""The learned reader's first step: die centres and sizes from the detector net.

The frame is resized so a die is about `det_die` pixels across (from the
calibrated die size); uncalibrated, to a fixed area, then once more if the
dice it found are outside the sizes it reads best ("auto-zoom": big dice are
looked for on a smaller frame too, and both passes kept; tiny dice on a larger
frame instead). An input smaller than the net's training crops (DET_MIN) is
padded to their size. Outputs at stride 4: a die-centre heatmap, log die side,
centre offset. One peak per die.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from . import nets
from .settings import Config

DET_STRIDE = 4           # the net's output grid, input pixels
DET_MIN = 128            # a smaller detector input is padded to this (the side of its training crops)


def det_size(w: int, h: int, s: Config, scale: float | None = None) -> tuple[int, int, float]:
    """Detector input (width, height) (multiples of 16) and the scale used.

    Without `scale`, the frame is brought to about s.det_area pixels.
    """
    k = math.sqrt(s.det_area / float(w * h)) if scale is None else scale
    k = min(k, s.max_scale, math.sqrt(s.det_max_area / float(w * h)))
    dw = max(32, int(round(w * k / 16)) * 16)
    dh = max(32, int(round(h * k / 16)) * 16)
    return dw, dh, k


def _peaks(frame: np.ndarray, scale: float | None, s: Config):
    """Detector peaks [(cx, cy, side, score)] in frame pixels, and the scale used."""
    H, W = frame.shape[:2]
    dw, dh, _ = det_size(W, H, s, scale)
    sx, sy = W / dw, H / dh
    # Bilinear, not INTER_AREA, even when shrinking: the detector was trained on
    # bilinear warps, and reads them as well; INTER_AREA costs 4-6 ms a frame,
    # a seventh of a reading.
    small = cv2.resize(frame, (dw, dh), interpolation=cv2.INTER_LINEAR)
    if dw < DET_MIN or dh < DET_MIN:
        # A small tray area, or the auto-zoom's pass on a close-up: the net, which
        # never saw an input this small, rates a clear die there as faint. Plain
        # padding gives it the context of its training crops; right and bottom
        # only, so the coordinates stay (dice by the top or left edge get none).
        small = cv2.copyMakeBorder(small, 0, max(0, DET_MIN - dh), 0, max(0, DET_MIN - dw),
                                   cv2.BORDER_CONSTANT, value=small.mean(axis=(0, 1)).tolist())
    out = nets.run(s.models, nets.DET_NET, cv2.dnn.blobFromImage(small, 1 / 255.0))[0]
    out = out[:, :dh // DET_STRIDE, :dw // DET_STRIDE]   # (4, dh/4, dw/4): the padding has no dice
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peak) & (heat >= s.heat_t))
    res = []
    for y, x in zip(ys, xs):
        cx = (x + 0.5 + float(out[2, y, x])) * DET_STRIDE * sx
        cy = (y + 0.5 + float(out[3, y, x])) * DET_STRIDE * sy
        side = float(np.exp(out[1, y, x])) * math.sqrt(sx * sy)
        res.append((cx, cy, side, float(heat[y, x])))
    # One die, one peak: drop a peak within nms x side of a stronger one.
    res.sort(key=lambda r: -r[3])
    kept: list = []
    for r in res:
        if apart(r, kept, s.nms):
            kept.append(r)
    return kept, math.sqrt(dw * dh / float(W * H))


def apart(peak, others, nms: float) -> bool:
    """Whether detector peak (cx, cy, side, score) is another die than each of `others`.

    Against the mean of the two sides, not the bigger one: otherwise a small die
    touching a big one would be taken for that die (a 33 px die 26 px from a 45 px
    one's centre is beyond 0.6 x 33 but within 0.6 x 45). In the auto-zoom's merge this
    also keeps some first-pass peaks on a big die's corner pips, which the first net
    drops; the bigger side there would miss a real die."""
    return all(math.hypot(peak[0] - k[0], peak[1] - k[1]) > nms * (peak[2] + k[2]) / 2 for k in others)


def detect(frame: np.ndarray, s: Config, peaks=None) -> list[tuple[float, float, float, float]]:
    """[(cx, cy, side, score)] of die centres on a BGR frame, in no particular order.

    With s.die_px (the calibrated die side, pixels), one pass at that size; without
    it the frame size sets the first pass and the dice found set a second one if
    they are outside the sizes the detector reads best (s.zoom_out, s.zoom_in).
    peaks(frame, scale, s): one pass, `_peaks` unless given (a test's passes).
    """
    one_pass = peaks or _peaks
    dets, k = one_pass(frame, s.det_die / s.die_px if s.die_px else None, s)
    if s.die_px:
        return dets
    sides = [d[2] * k for d in dets if d[3] >= 0.5]
    if sides:
        med = float(np.median(sides))
        if med >= s.zoom_out[0]:
            # Keep the first pass's dice too: a few it found are lost when
            # the frame is shrunk.
            shrunk = one_pass(frame, k * s.zoom_out[1] / med, s)[0]
            return shrunk + [d for d in dets if apart(d, shrunk, s.nms)]
        if med <= s.zoom_in[0]:
            H, W = frame.shape[:2]
            if det_size(W, H, s, k * s.zoom_in[1] / med)[2] > 1.05 * k:   # not already at the cap
                return one_pass(frame, k * s.zoom_in[1] / med, s)[0]
    return dets
