"""The learned reader (vision/learned.py) on rendered scenes: loads with OpenCV alone, never guesses."""

import numpy as np
import pytest

from vision import learned
from vision.render import render_scene

pytestmark = pytest.mark.skipif(not learned.available(), reason="vision/models/*.onnx not present")


def _scenes():
    rng = np.random.default_rng(5)
    for i in range(12):
        vals = rng.integers(1, 7, int(rng.integers(1, 8))).tolist()
        yield render_scene(vals, seed=100 + i, die_px=float(rng.uniform(40, 90)))


def _tally(reader):
    right = wrong = total = 0
    for img, truth in _scenes():
        r = reader(img)
        for t in truth:
            total += 1
            near = [d for d in r.dice
                    if np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]) < t.side / 2]
            if near and near[0].value is not None:
                if near[0].value == t.value:
                    right += 1
                else:
                    wrong += 1
    return right, wrong, total


def test_learned_reader_loads_and_reads_rendered_dice():
    right, wrong, total = _tally(learned.read_learned)
    assert wrong == 0
    assert right >= 0.8 * total


def test_combined_reader_never_guesses_on_rendered_dice():
    right, wrong, total = _tally(lambda f: learned.read_combined(f))
    assert wrong == 0
    assert right >= 0.8 * total


def test_unsure_when_classifier_is_unsure():
    img, _ = render_scene([3], seed=1, blur=6.0)
    r = learned.read_learned(img)
    for d in r.dice:
        assert d.value is None or d.confidence >= learned.P_SURE * 0.5
