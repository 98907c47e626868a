"""Frame checks, the reader's first step: is it an image, where is the tray, is
there anything on it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .reading import ReadError


def validate_frame(frame) -> np.ndarray:
    """Return `frame` as a (H, W, 3) uint8 BGR array or raise ReadError.

    Accepts (H, W) grey and (H, W, 4) BGRA too; rejects anything else.
    """
    if not isinstance(frame, np.ndarray):
        raise ReadError(f"frame must be a numpy array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise ReadError(f"frame must be uint8, got {frame.dtype}")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 1:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif not (frame.ndim == 3 and frame.shape[2] == 3):
        raise ReadError(f"frame must be (H, W, 3) BGR, got shape {frame.shape}")
    h, w = frame.shape[:2]
    if h < 32 or w < 32:
        raise ReadError(f"frame too small: {w}x{h} (need at least 32x32)")
    if h > 8192 or w > 8192:
        raise ReadError(f"frame too large: {w}x{h} (at most 8192 px a side)")
    return np.ascontiguousarray(frame)


def tray_area(frame: np.ndarray, roi) -> tuple[np.ndarray, int, int]:
    """(the part of `frame` inside roi (x, y, w, h), its left, its top); the whole
    frame when roi is None or leaves less than 32x32 pixels inside the frame."""
    if roi is not None:
        H, W = frame.shape[:2]
        x, y, w, h = (int(v) for v in roi)
        x, y = max(0, x), max(0, y)
        w, h = min(W - x, w), min(H - y, h)
        if w >= 32 and h >= 32:
            return frame[y:y + h, x:x + w], x, y
    return frame, 0, 0


FLAT_STD = 3.0   # grey standard deviation below which a frame shows nothing


def flat(img: np.ndarray) -> bool:
    """Whether a BGR frame shows nothing to read (black, blown out, lens cap).

    Measured on every k-th pixel, about 200 x 200 of them: the whole of a
    1280x720 frame would cost 2 ms, a tenth of a reading. The answer is the
    whole frame's but within a hair of the line (a lone 10 px die on black
    1280x720 may fall between the samples)."""
    h, w = img.shape[:2]
    k = max(1, int(math.sqrt(h * w / 40000.0)))
    grey = cv2.cvtColor(np.ascontiguousarray(img[::k, ::k]), cv2.COLOR_BGR2GRAY)
    return float(grey.std()) < FLAT_STD
