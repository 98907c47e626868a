"""Training data helpers that need no torch (vision/train/data.py)."""

import numpy as np

from vision.train.data import texture


def test_textures_are_crops_of_contrasting_patterns_drawn_from_the_rng():
    a = [texture(np.random.default_rng(3)) for _ in range(2)]
    assert np.array_equal(a[0], a[1])                   # the training seed decides them
    rng = np.random.default_rng(4)
    for _ in range(50):
        t = texture(rng)
        assert t.shape == (48, 48, 3) and t.dtype == np.float32
        assert t.min() >= 0 and t.max() <= 255
        spread = t.reshape(-1, 3).max(axis=0) - t.reshape(-1, 3).min(axis=0)
        assert spread.max() > 50, "a pattern with nothing to see teaches nothing"   # in colour, if not in grey
    assert texture(rng, 32).shape == (32, 32, 3)
