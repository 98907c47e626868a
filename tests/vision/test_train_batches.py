"""Classifier batches of vision_tools/train/train_dice.py: what each --share option puts in them.

torch is for training only, not a test dependency: these run where it is installed
(the training set-up, vision_tools/train/README.md) and are skipped elsewhere."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (training only): batch plumbing not checked")

from vision.classifier import CLS  # noqa: E402
from vision.render import render_scene  # noqa: E402
from vision_tools.train import train_dice as T  # noqa: E402


def _pool(value: int, **kw) -> list:
    """One rendered scene of a single die showing `value`, in the (name, image, labels) form of a pool."""
    img, dice = render_scene([value], seed=value, size=(320, 240), die_px=60, **kw)
    return [(f"syn{value}", img, [(d.value, *d.box) for d in dice])]


def _labels(srcs, n=64, seed=0, pools=None, **shares):
    """The classes of a batch of n crops from `srcs`, with Recipe `shares` and Pools `pools` (a dict)."""
    x, y = T.cls_batch(srcs, n, np.random.default_rng(seed), T.Recipe(**shares), T.Pools(**(pools or {})))
    assert tuple(x.shape) == (n, 3, CLS, CLS) and tuple(y.shape) == (n, 7)
    assert float(x.min()) >= 0.0 and float(x.max()) <= 1.0
    return set(int(k) for k in y.argmax(dim=1))


def test_textures_are_all_no_die():
    assert _labels(_pool(2), textures=1.0) == {0}


def test_a_plain_batch_has_the_sources_dice_and_crops_beside_them():
    assert _labels(_pool(2)) == {0, 2}                   # about 3 in 10 crops beside the die


@pytest.mark.parametrize("share, pool, kw", [
    ("finishes", "finished", {"finishes": 1.0}),
    ("see_through", "see_through", {"see_through": 0.8, "ghost_fade": 1.0}),
])
def test_a_share_takes_its_crops_from_its_pool_and_none_when_it_is_zero(share, pool, kw):
    filled = {pool: _pool(4, **kw)}
    assert _labels(_pool(2), pools=filled) == {0, 2}                 # the pool filled, its share 0: never drawn
    assert _labels(_pool(2), pools=filled, **{share: 1.0}) == {0, 4}   # share 1: every die crop from the pool
    assert _labels(_pool(2), pools=filled, **{share: 0.5}) == {0, 2, 4}


def test_the_real_photos_pool_adds_the_detectors_false_peaks_as_no_die():
    photos = _pool(3)
    _, img, _ = photos[0]
    peaks = [(0, 30.0, 30.0, 40.0)]          # a corner of the tray
    assert _labels(photos, n=400, pools={"real": photos, "hard": peaks}) == {0, 3}
    x, y = T.cls_batch(photos, 400, np.random.default_rng(0), T.Recipe(), T.Pools(real=photos, hard=peaks))
    x2, y2 = T.cls_batch(photos, 400, np.random.default_rng(0), T.Recipe(), T.Pools())
    assert (y[:, 0].sum() > y2[:, 0].sum())   # more "not a die" crops with the peaks pool


def test_det_sides_scale_the_detector_crops_dice_to_the_asked_sizes():
    """With det_sides, every crop's dice are LO-HI px: the regressed log side says so."""
    photos = _pool(5)
    _, _, reg, mask = T.det_batch(photos, 24, np.random.default_rng(0), T.Recipe(det_sides=(20.0, 30.0)))
    sides = np.exp(reg[:, 0][mask > 0].numpy())
    assert len(sides) and sides.min() >= 20.0 - 1e-3 and sides.max() <= 30.0 + 1e-3


def test_degrade_changes_the_crops_pixels_not_their_classes():
    srcs = _pool(2)
    plain = T.cls_batch(srcs, 32, np.random.default_rng(5), T.Recipe(), T.Pools())
    assert torch.equal(plain[0], T.cls_batch(srcs, 32, np.random.default_rng(5), T.Recipe(degrade=0.0),
                                             T.Pools())[0])     # 0: no draw, the same batch
    worse = T.cls_batch(srcs, 32, np.random.default_rng(5), T.Recipe(degrade=1.0), T.Pools())
    assert torch.equal(plain[1], worse[1])                     # the same crops and classes ...
    changed = [not torch.equal(a, b) for a, b in zip(plain[0], worse[0])]
    assert all(changed)                                        # ... each one degraded


def test_keep_loss_holds_the_net_only_where_its_starting_self_was_right():
    start = torch.tensor([[0.0, 4.0, 0, 0, 0, 0, 0],      # a 1, and the target is 1: right
                          [0.0, 0, 4.0, 0, 0, 0, 0]])     # a 2, but the target is "not a die": wrong
    y = torch.from_numpy(T.targets(np.array([1, 0])))
    assert float(T.keep_loss(start.clone(), start, y)) == pytest.approx(0.0, abs=1e-6)
    drift_on_right = start.clone()
    drift_on_right[0] = torch.tensor([3.0, 1.0, 0, 0, 0, 2.0, 0])
    ps, pn = torch.softmax(start[0], 0), torch.softmax(drift_on_right[0], 0)
    assert float(T.keep_loss(drift_on_right, start, y)) == pytest.approx(float((ps * (ps / pn).log()).sum()))
    assert float((pn * (pn / ps).log()).sum()) != pytest.approx(float((ps * (ps / pn).log()).sum()))  # KL(start || net)
    drift_on_wrong = start.clone()
    drift_on_wrong[1] = torch.tensor([4.0, 0, 0, 0, 0, 0, 0])   # learning the new target costs nothing
    assert float(T.keep_loss(drift_on_wrong, start, y)) == pytest.approx(0.0, abs=1e-6)


def test_keep_needs_a_net_to_start_from():
    with pytest.raises(ValueError, match="from_models or resume"):
        T.train("cls", 0.01, 0, T.Recipe(keep=1.0))
    with pytest.raises(ValueError, match="from_models or resume"):
        T.train("det", 0.01, 0, T.Recipe(keep=1.0), from_models="vision/models")
    with pytest.raises(ValueError, match=">= 0"):
        T.train("cls", 0.01, 0, T.Recipe(keep=-1.0), from_models="vision/models")
