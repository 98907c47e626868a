"""The still-frame watcher: rolling while frames change, one reading per roll."""

import numpy as np

import vision
from vision import SettleWatcher
from vision.render import render_scene


class CountingReader:
    def __init__(self):
        self.calls = 0

    def __call__(self, frame, config=None):
        self.calls += 1
        return vision.read(frame, config)


def _frames():
    still_a, _ = render_scene([3, 4, 6], seed=1, noise=0)
    still_b, _ = render_scene([1, 5], seed=2, noise=0)
    moving = [render_scene([2, 2, 2], seed=10 + k, noise=0)[0] for k in range(4)]
    return still_a, still_b, moving


def test_rolling_then_one_reading_per_roll():
    still_a, still_b, moving = _frames()
    reader = CountingReader()
    w = SettleWatcher(settle_s=0.3, reader=reader)
    rng = np.random.default_rng(0)
    t = 0.0
    states = []
    for f in moving:                               # dice tumbling
        states.append(w.feed(f, t).state)
        t += 0.05
    assert states[1:] == ["rolling"] * 3
    got = []
    for _ in range(20):                            # dice still (sensor noise only)
        noisy = np.clip(still_a + rng.normal(0, 1.5, still_a.shape), 0, 255).astype(np.uint8)
        st = w.feed(noisy, t)
        got.append(st)
        t += 0.05
    assert got[0].state == "rolling"               # first frame after the tumble differs
    settled = [s for s in got if s.state == "settled"]
    assert settled and all(s.state in ("settling", "settled") for s in got[1:])
    new = [s for s in settled if s.new]
    assert len(new) == 1 and sorted(new[0].reading.values) == [3, 4, 6]
    assert all(s.reading is new[0].reading for s in settled)
    # Not settled before settle_s of stillness.
    first_settled = got.index(new[0])
    assert first_settled * 0.05 >= 0.3 - 1e-9
    assert reader.calls == 1
    # A new roll: motion resets, the next still frame is read again.
    assert w.feed(moving[0], t).state == "rolling"
    t += 0.05
    for _ in range(10):
        st = w.feed(still_b, t)
        t += 0.05
    assert st.state == "settled" and sorted(st.reading.values) == [1, 5]
    assert reader.calls == 2


def test_empty_tray_is_reported_as_empty():
    tray = np.full((360, 640, 3), (120, 110, 40), np.uint8)
    w = SettleWatcher(settle_s=0.1)
    st = None
    for k in range(6):
        st = w.feed(tray, k * 0.05)
    assert st.state == "empty" and st.reading is not None and st.reading.dice == ()


def test_a_hand_moving_over_the_tray_is_rolling():
    still, _ = render_scene([5, 5], seed=4, noise=0)
    w = SettleWatcher(settle_s=0.2)
    for k in range(8):
        w.feed(still, k * 0.05)
    hand = still.copy()
    hand[100:400, 200:700] = (150, 170, 210)
    assert w.feed(hand, 0.5).state == "rolling"


def test_learn_size_calibrates_from_a_complete_roll():
    first, truth = render_scene([2, 3, 4, 5], seed=8, noise=0, die_px=64)
    second, _ = render_scene([6, 1, 2], seed=9, noise=0, die_px=64)
    w = SettleWatcher(settle_s=0.1, learn_size=True)
    t = 0.0
    for f in [first] * 6:
        st = w.feed(f, t)
        t += 0.05
    assert st.state == "settled" and w.config is not None
    boxes = [t.box_side for t in truth]
    assert abs(w.config.die_px - np.median(boxes)) < np.median(boxes) * 0.2
    for f in [second] * 6:
        st = w.feed(f, t)
        t += 0.05
    assert sorted(st.reading.values) == [1, 2, 6]
