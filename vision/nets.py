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
CHUNK = 8                  # crops a forward pass: the same outputs as one batch, less CPU on many crops (cache)
# The largest file a nets folder may hold (each net, and the taught.json beside them): the shipped
# nets are 0.6-2.1 MB, so a taught one of these shapes is never near it; a bigger file is refused
# before it is read (a padded net would load, and the companion would start at gigabytes).
MAX_NET_BYTES = 10_000_000


def check_size(path: str) -> None:
    """ValueError when file `path` is larger than MAX_NET_BYTES (its size read with stat, the file
    itself not read); a missing file passes (what lacks is said elsewhere)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return
    if size > MAX_NET_BYTES:
        raise ValueError(f"{path} is {size / 1e6:.1f} MB: larger than any net of the reader's shapes "
                         f"(at most {MAX_NET_BYTES / 1e6:.0f} MB), refused unread")


def available(models: str = MODELS) -> bool:
    """Whether folder `models` holds every net (an object standing in for them always does)."""
    if not isinstance(models, str):
        return True
    return all(os.path.isfile(os.path.join(models, f)) for f in NETS)


# Each net's probe: an input shape and the output shape the reader expects of it.
PROBES = {DET_NET: ((1, 3, 128, 160), (1, 4, 32, 40)), CLS_NET: ((2, 3, 48, 48), (2, 7)),
          WIDE_NET: ((2, 3, 48, 48), (2, 7))}


def check(models: str) -> None:
    """ValueError unless folder `models` holds every net, none larger than MAX_NET_BYTES (nor its
    taught.json), each loading in OpenCV and giving outputs of the reader's shapes (a folder of
    taught nets is checked before it is used)."""
    missing = [f for f in NETS if not os.path.isfile(os.path.join(models, f))]
    if missing:
        raise ValueError(f"{models} lacks {', '.join(missing)}")
    for name in (*NETS, "taught.json"):
        check_size(os.path.join(models, name))       # before any is read
    for name, (shape, want) in PROBES.items():
        try:
            net = cv2.dnn.readNetFromONNX(os.path.join(models, name))
            net.setInput(np.full(shape, 0.5, np.float32))
            out = net.forward()
        except cv2.error as exc:
            raise ValueError(f"{os.path.join(models, name)} is not a net OpenCV can run: "
                             f"{str(exc).strip().splitlines()[-1]}") from None
        if out.shape != want or not np.isfinite(out).all():
            raise ValueError(f"{os.path.join(models, name)} gives {out.shape} for {shape}, not {want}")
        if name == CLS_NET and not any(n.endswith("GlobalAveragePool") for n in net.getLayerNames()):
            raise ValueError(f"{os.path.join(models, name)} has no pooled features (light teaching reads them)")


def _net(models: str, name: str):
    key = (models, name)
    if key not in _nets:
        _nets[key] = cv2.dnn.readNetFromONNX(os.path.join(models, name))
    return _nets[key]


def run(models: str, name: str, blob: np.ndarray) -> np.ndarray:
    """Net `name` of folder `models` on an (N, 3, H, W) float32 blob: its output. `models` may also be
    an object whose run(name, blob) stands in for the nets (a test's scripted outputs)."""
    if not isinstance(models, str):
        return models.run(name, blob)
    with _lock:
        net = _net(models, name)
        outs = []
        for i in range(0, max(len(blob), 1), CHUNK):
            net.setInput(blob[i:i + CHUNK] if len(blob) > CHUNK else blob)
            outs.append(net.forward().copy())
        return outs[0] if len(outs) == 1 else np.concatenate(outs)


def run_pooled(models: str, name: str, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(output, the pooled features before its last layer, (N, C)) of classifier `name`, in one pass."""
    with _lock:
        net = _net(models, name)
        pool = [n for n in net.getLayerNames() if n.endswith("GlobalAveragePool")][-1]
        outs, feats = [], []
        for i in range(0, max(len(blob), 1), CHUNK):
            net.setInput(blob[i:i + CHUNK] if len(blob) > CHUNK else blob)
            f, out = net.forward([pool, net.getUnconnectedOutLayersNames()[0]])
            outs.append(out.copy())
            feats.append(f.reshape(len(out), -1).copy())
        return np.concatenate(outs), np.concatenate(feats)
