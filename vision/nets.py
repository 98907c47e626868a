"""The learned reader's nets: ONNX files in a models folder (the shipped ones in
vision/models/, 3.4 MB in all), run with OpenCV's `cv2.dnn`: no torch, nothing
fetched at run time. Each is loaded once, on first use."""

from __future__ import annotations

import os
import threading

import cv2
import numpy as np

from .settings import MODELS

DET_NET, CLS_NET, WIDE_NET = "dice_det.onnx", "dice_cls.onnx", "dice_cls_wide.onnx"   # the detector, the
NETS = (DET_NET, CLS_NET, WIDE_NET)                                    # first classifier, the second look
_nets: dict = {}
_lock = threading.Lock()   # a cv2.dnn.Net runs one input at a time


def available(models: str = MODELS) -> bool:
    """Whether folder `models` holds every net."""
    return all(os.path.isfile(os.path.join(models, f)) for f in NETS)


def run(models: str, name: str, blob: np.ndarray) -> np.ndarray:
    """Net `name` of folder `models` on an (N, 3, H, W) float32 blob: its output."""
    with _lock:
        key = (models, name)
        if key not in _nets:
            _nets[key] = cv2.dnn.readNetFromONNX(os.path.join(models, name))
        net = _nets[key]
        net.setInput(blob)
        return net.forward().copy()
