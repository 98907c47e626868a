"""Classifier batches of vision_tools/train/train_dice.py: what each --share option puts in them.

torch is for training only, not a test dependency: these run where it is installed
(the training set-up, docs/vision.md "Training") and are skipped elsewhere."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (training only): batch plumbing not checked")

from vision.render import render_scene  # noqa: E402
from vision_tools.train import train_dice as T  # noqa: E402


def _pool(value: int, **kw) -> list:
    """One rendered scene of a single die showing `value`, in the (name, image, labels) form of a pool."""
    img, dice = render_scene([value], seed=value, size=(320, 240), die_px=60, **kw)
    return [(f"syn{value}", img, [(d.value, *d.box) for d in dice])]


@pytest.fixture
def plain(monkeypatch):
    """Every share off, every pool empty: crops of `srcs` alone."""
    for name, off in (("TEXTURES", 0.0), ("COCKED_SHARE", 0.0), ("SEE_THROUGH_SHARE", 0.0),
                      ("FINISHES_SHARE", 0.0), ("HARD_SHARE", 0.0)):
        monkeypatch.setattr(T, name, off)
    for pool in ("COCKED_DICE", "SEE_THROUGH", "FINISHED", "HARD", "HARD_DICE"):
        monkeypatch.setattr(T, pool, [])
    return monkeypatch


def _labels(srcs, n=64, seed=0):
    x, y = T.cls_batch(srcs, n, np.random.default_rng(seed))
    assert tuple(x.shape) == (n, 3, T.L.CLS, T.L.CLS) and tuple(y.shape) == (n, 7)
    assert float(x.min()) >= 0.0 and float(x.max()) <= 1.0
    return set(int(k) for k in y.argmax(dim=1))


def test_textures_are_all_no_die(plain):
    plain.setattr(T, "TEXTURES", 1.0)
    assert _labels(_pool(2)) == {0}


def test_a_plain_batch_has_the_sources_dice_and_crops_beside_them(plain):
    assert _labels(_pool(2)) == {0, 2}                   # about 3 in 10 crops beside the die


@pytest.mark.parametrize("share, pool, kw", [
    ("FINISHES_SHARE", "FINISHED", {"finishes": 1.0}),
    ("SEE_THROUGH_SHARE", "SEE_THROUGH", {"see_through": 0.8, "ghost_fade": 1.0}),
])
def test_a_share_takes_its_crops_from_its_pool_and_none_when_it_is_zero(plain, share, pool, kw):
    plain.setattr(T, pool, _pool(4, **kw))
    assert _labels(_pool(2)) == {0, 2}                   # the pool filled, its share 0: never drawn
    plain.setattr(T, share, 1.0)
    assert _labels(_pool(2)) == {0, 4}                   # share 1: every die crop from the pool
    plain.setattr(T, share, 0.5)
    assert _labels(_pool(2)) == {0, 2, 4}
