"""What does not move is not a roll's die (vision/static.py) and where it is wired: the settle
watcher (the tray before the roll) and calibration (the empty tray, applied by vision.read)."""

import cv2
import numpy as np
import pytest

import vision
from vision import SettleWatcher
from vision.reading import Die, Reading
from vision.render import render_scene
from vision.static import CHANGED_MAX, Reference, changed_share, drop_static


def _camera(img, seed, gain=1.0, shift=(0, 0)):
    """The camera's own noise, exposure, a pixel of shake and JPEG on a picture."""
    rng = np.random.default_rng(seed)
    out = np.clip(img.astype(np.float32) * gain + rng.normal(0, 2.0, img.shape), 0, 255).astype(np.uint8)
    out = np.roll(out, shift, (0, 1))
    return cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_COLOR)


def _die(value, seed=5, px=64.0):
    """A rendered die's square crop (a printed token looks like one to the reader)."""
    img, dice = render_scene([value], seed=seed, noise=0, die_px=px, light=0)
    x, y, w, h = (int(round(v)) for v in dice[0].box)
    return img[y:y + h, x:x + w].copy()


def _paste(img, crop, x, y):
    out = img.copy()
    out[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    return out


def _seen(value, crop, x, y):
    s = crop.shape[0]
    return Die(value, (x + s / 2, y + s / 2), (x, y, s, s), 0.95, "", float(s))


TRAY, _ = render_scene([], seed=3, noise=0)


def test_a_token_there_before_the_roll_is_not_valued():
    token = _die(1)
    before = _camera(_paste(TRAY, token, 400, 300), 1)
    still = _camera(_paste(TRAY, token, 400, 300), 2, gain=1.06, shift=(1, -1))
    reading = Reading((_seen(1, token, 400, 300),), 1280, 720)
    out = drop_static(reading, still, [Reference(before)])
    assert out.dice == () and out.values == [] and out.total() is None
    assert [(d.value, d.reason, d.box) for d in out.ignored] == [(None, "static", (400, 300) + token.shape[:2])]
    assert out.to_dict() == {"dice": []}


def test_a_die_that_moved_is_valued_and_the_token_beside_it_is_not():
    token, die = _die(1), _die(4, seed=8)
    before = _camera(_paste(_paste(TRAY, token, 400, 300), die, 900, 500), 1)   # the die lay elsewhere
    still = _camera(_paste(_paste(TRAY, token, 400, 300), die, 505, 310), 2)    # rolled, lands beside it
    reading = Reading((_seen(1, token, 400, 300), _seen(4, die, 505, 310)), 1280, 720)
    out = drop_static(reading, still, [Reference(before)])
    assert out.values == [4] and [d.box[:2] for d in out.ignored] == [(400, 300)]


@pytest.mark.parametrize("px", [40.0, 64.0, 90.0])
def test_a_die_rolled_onto_the_same_spot_with_another_face_is_valued(px):
    # render_scene with one seed puts the die in one place, turned alike, whatever its face.
    scenes = {v: render_scene([v], seed=4, noise=0, die_px=px) for v in range(1, 7)}
    for was in range(1, 7):
        before = _camera(scenes[was][0], 1)
        for now in range(1, 7):
            still = _camera(scenes[now][0], 2, gain=0.95)
            d = scenes[now][1][0]
            box = tuple(int(round(v)) for v in d.box)
            reading = Reading((Die(now, d.center, box, 0.9, "", float(box[2])),), 1280, 720)
            out = drop_static(reading, still, [Reference(before)])
            if now == was:      # the same face, the same place, turned alike: the same picture
                assert out.dice == () and len(out.ignored) == 1, (was, now)
            else:
                assert out.values == [now], (was, now, changed_share(still, before, box))


def test_the_empty_tray_leaves_every_rolled_die_valued():
    die = _die(6, seed=9)
    still = _camera(_paste(TRAY, die, 600, 200), 2)
    assert changed_share(still, _camera(TRAY, 1), (600, 200) + die.shape[:2]) > 20 * CHANGED_MAX
    reading = Reading((_seen(6, die, 600, 200),), 1280, 720)
    assert drop_static(reading, still, [Reference(_camera(TRAY, 1), source="empty tray")]) is reading


def test_no_reference_or_one_of_another_size_changes_nothing():
    token = _die(1)
    still = _camera(_paste(TRAY, token, 400, 300), 2)
    reading = Reading((_seen(1, token, 400, 300),), 1280, 720)
    assert drop_static(reading, still, []) is reading
    assert drop_static(reading, still, [None]) is reading
    assert drop_static(reading, still, [Reference(still[:, :1200].copy())]) is reading
    fake = Reading([3])                              # a stand-in reader's dice carry no box: kept
    assert drop_static(fake, still, [Reference(still)]) is fake


def test_with_the_reference_reading_a_detection_must_have_been_there_too():
    token = _die(1)
    frame = _camera(_paste(TRAY, token, 400, 300), 2)
    die = _seen(1, token, 400, 300)
    reading = Reading((die,), 1280, 720)
    assert drop_static(reading, frame, [Reference(frame, Reading((), 1280, 720))]) is reading
    assert drop_static(reading, frame, [Reference(frame, reading)]).dice == ()


# -- the settle watcher: the tray before the roll -------------------------------------------------

class BoxReader:
    """Stands in for vision.read: the dice it is told are where the picture is."""

    def __init__(self, dice):
        self.dice = dice

    def __call__(self, frame, config=None):
        return Reading(tuple(self.dice), frame.shape[1], frame.shape[0])


def _roll(watcher, before, still, t=0.0):
    for k in range(6):                                     # the tray before the roll, still
        st = watcher.feed(_camera(before, 10 + k), t)
        t += 0.1
    for k in range(3):                                     # dice tumbling
        st = watcher.feed(_camera(_paste(TRAY, _die(2, seed=k), 100 + 200 * k, 100), 20 + k), t)
        t += 0.1
        assert st.state == "rolling"
    for k in range(6):                                     # still again
        st = watcher.feed(_camera(still, 30 + k), t)
        t += 0.1
        if st.new:
            return st
    raise AssertionError("never settled")


def test_the_watcher_leaves_out_what_lay_there_before_the_roll():
    token, die = _die(1), _die(4, seed=8)
    before = _paste(TRAY, token, 400, 300)
    still = _paste(before, die, 800, 400)
    reader = BoxReader([_seen(1, token, 400, 300), _seen(4, die, 800, 400)])
    st = _roll(SettleWatcher(settle_s=0.2, reader=reader), before, still)
    assert st.state == "settled" and st.reading.values == [4]
    assert [(d.reason, d.box[:2]) for d in st.reading.ignored] == [("static", (400, 300))]
    st = _roll(SettleWatcher(settle_s=0.2, reader=reader, ignore_static=False), before, still)
    assert sorted(st.reading.values) == [1, 4] and st.reading.ignored == ()


def test_the_watcher_says_empty_when_only_what_lay_there_is_left():
    token = _die(1)
    before = _paste(TRAY, token, 400, 300)
    reader = BoxReader([_seen(1, token, 400, 300)])
    st = _roll(SettleWatcher(settle_s=0.2, reader=reader), before, before)
    assert st.state == "empty" and st.reading.dice == () and len(st.reading.ignored) == 1


def test_the_watcher_keeps_the_tray_before_the_first_movement_not_a_later_stillness():
    # Rolled, settled (the 4 read), then a die nudged: the 4 did not lie there before the roll.
    token, die, other = _die(1), _die(4, seed=8), _die(5, seed=11)
    before = _paste(TRAY, token, 400, 300)
    landed = _paste(before, die, 800, 400)
    w = SettleWatcher(settle_s=0.2, reader=BoxReader([_seen(1, token, 400, 300), _seen(4, die, 800, 400)]))
    st = _roll(w, before, landed)
    assert st.reading.values == [4]
    w._reader = BoxReader([_seen(1, token, 400, 300), _seen(4, die, 800, 400), _seen(5, other, 200, 500)])
    st = _roll(w, landed, _paste(landed, other, 200, 500), t=10.0)
    assert sorted(st.reading.values) == [4, 5] and [d.box[:2] for d in st.reading.ignored] == [(400, 300)]


def test_a_tray_before_in_another_camera_mode_leaves_out_nothing():
    token, die = _die(1), _die(4, seed=8)
    small = lambda img: np.ascontiguousarray(img[:, :1200])     # noqa: E731 (the camera's mode changed)
    still = _paste(_paste(TRAY, token, 400, 300), die, 800, 400)
    w = SettleWatcher(settle_s=0.2, reader=BoxReader([_seen(1, token, 400, 300), _seen(4, die, 800, 400)]))
    for k in range(4):
        w.feed(_camera(_paste(TRAY, token, 400, 300), k), 0.1 * k)
    assert w.before is not None and w.before.image.shape == (720, 1280, 3)
    for k in range(8):
        st = w.feed(_camera(small(still), 10 + k), 1.0 + 0.1 * k)
    assert st.state == "settled" and sorted(st.reading.values) == [1, 4] and st.reading.ignored == ()


# -- calibration: the empty tray, applied by vision.read ------------------------------------------

def test_an_empty_tray_saved_at_calibration_is_left_out_by_read(tmp_path):
    from vision.__main__ import main
    from vision.calibrate import EMPTY_TRAY_NAME, load_calibration, save_empty_tray

    board, _ = render_scene([1, 3], seed=21)              # two "tokens" printed on the board
    cal = tmp_path / "camera.toml"
    assert load_calibration(str(cal)).empty_tray is None
    plain = vision.read(board)
    assert sorted(plain.values) == [1, 3]                 # read as dice without the empty tray
    path, info = save_empty_tray(_camera(board, 1), str(cal))
    assert path == str(tmp_path / EMPTY_TRAY_NAME) and info["valued"] == 2
    cfg = load_calibration(str(cal))                      # no camera.toml yet: the empty tray still counts
    assert cfg.empty_tray == path and cfg.die_px is None
    die = _die(5, seed=12)
    still = _camera(_paste(board, die, 1000, 80), 2, gain=1.05)
    got = vision.read(still, cfg)
    assert got.values == [5] and sorted(d.reason for d in got.ignored) == ["static", "static"]
    assert vision.read(still).values.count(None) + len(vision.read(still).dice) >= 3   # as before without it
    # the command line saves it too
    assert main(["calibrate-empty", path, "--out", str(tmp_path / "b" / "camera.toml")]) == 0
    assert (tmp_path / "b" / EMPTY_TRAY_NAME).is_file()


def test_what_was_left_out_is_drawn_grey_without_a_value():
    token = _die(1)
    frame = _camera(_paste(TRAY, token, 400, 300), 2)
    out = drop_static(Reading((_seen(1, token, 400, 300),), 1280, 720), frame, [Reference(frame)])
    drawn = vision.annotate(frame, out)
    grey = (drawn == 150).all(axis=2)
    assert grey[300, 400:400 + token.shape[1]].any() and not grey[80:290].any()   # (the summary: 0-80)


def test_the_companions_calibrated_reader_saves_the_empty_tray_and_keeps_it_when_calibrating(tmp_path):
    from calibration.camera import CalibratedReader

    board, _ = render_scene([1, 3], seed=21)
    reader = CalibratedReader(tmp_path / "camera.toml")
    assert reader.status()["empty_tray"] is False and sorted(reader.read(board).values) == [1, 3]
    info = reader.save_empty_tray(_camera(board, 1))
    assert info["empty_tray"] is True and info["valued"] == 2
    assert reader.read(_camera(board, 2)).values == []            # the printing is never valued
    dice, _ = render_scene([2, 4, 6], seed=5)
    reader.calibrate(dice)                                         # a die size measured later ...
    assert reader.config.die_px is not None and reader.status()["empty_tray"] is True   # ... keeps it
    again = CalibratedReader(tmp_path / "camera.toml")            # and so does the next start
    assert again.status()["empty_tray"] is True
