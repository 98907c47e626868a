"""A net of a models folder as a torch module, to fine-tune: the reader's own ONNX file, read back.

The export folds batch norm into each convolution's weights and bias, so the
module is the training architecture built with `bn=False` (train_dice.conv):
the same layers in the same order, each convolution with a bias. The weights
are copied layer by layer in graph order, and the module is checked to give
OpenCV's outputs on a random input, so a net of another shape is refused
rather than loaded wrong.
"""

from __future__ import annotations

import os

import cv2
import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper

from .train_dice import ARCH, Det, ONNX_NAME

TOLERANCE = 1e-3   # largest |torch - cv2.dnn| output difference of a sound load


def _onnx_weights(path: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """[(weight, bias)] of each Conv and Gemm node of the ONNX file at `path`, in graph order."""
    model = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    out = []
    for node in model.graph.node:
        if node.op_type in ("Conv", "Gemm"):
            w, b = (init.get(name) for name in node.input[1:3])
            if w is None or b is None:
                raise ValueError(f"{path}: a {node.op_type} without constant weights and bias")
            out.append((w, b))
    return out


def load(models: str, kind: str) -> nn.Module:
    """The net `kind` ("det", "cls" or "wide") of folder `models` as a float32 torch module in
    train mode; ValueError when the file does not fit the architecture."""
    path = os.path.join(models, ONNX_NAME[kind])
    weights = _onnx_weights(path)
    model = (ARCH[kind] if kind in ARCH else Det)(bn=False)
    layers = [m for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    if [tuple(m.weight.shape) for m in layers] != [w.shape for w, _ in weights]:
        model = _shaped(kind, weights) or model   # a net of the recipe's widths (recipe.py)
        layers = [m for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    if len(weights) != len(layers):
        raise ValueError(f"{path}: {len(weights)} weighted layers, the {kind} net has {len(layers)}")
    with torch.no_grad():
        for layer, (w, b) in zip(layers, weights):
            if tuple(layer.weight.shape) != w.shape or tuple(layer.bias.shape) != b.shape:
                raise ValueError(f"{path}: a layer of shape {w.shape}, the {kind} net's is "
                                 f"{tuple(layer.weight.shape)}")
            layer.weight.copy_(torch.from_numpy(w.astype(np.float32)))
            layer.bias.copy_(torch.from_numpy(b.astype(np.float32)))
    diff = _check(model, path, kind)
    if not diff <= TOLERANCE:
        raise ValueError(f"{path}: read back, the {kind} net differs from OpenCV's by {diff:.2g}")
    model.train()
    return model


def _shaped(kind: str, weights) -> nn.Module | None:
    """The recipe's net (recipe.Classifier or recipe.Detector, bn=False) of the widths of `weights`
    (an exported net's convolutions in graph order), or None when it has not their layer count."""
    from .recipe import Classifier, Detector, widths_of

    convs = [w.shape[0] for w, _ in weights if w.ndim == 4]
    if len(convs) != len(weights) - (kind != "det") or len(convs) != {"det": 13, "cls": 6, "wide": 7}[kind]:
        return None     # the kind's layers: a first classifier has one convolution less than a second look
    try:
        w = widths_of(kind, convs)
        return Detector(w, bn=False) if kind == "det" else Classifier(w, bn=False)
    except (IndexError, ValueError):
        return None


def _check(model: nn.Module, path: str, kind: str) -> float:
    """Largest |torch - cv2.dnn| output difference of `model` and the file at `path`."""
    from vision.nets import PROBES

    x = np.random.default_rng(0).random(PROBES[ONNX_NAME[kind]][0]).astype(np.float32)
    net = cv2.dnn.readNetFromONNX(path)
    net.setInput(x)
    ref = net.forward()
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    return float(np.abs(got.reshape(ref.shape) - ref).max())
