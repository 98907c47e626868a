"""Drawing the reading, and the calibration round trip."""

import numpy as np
import pytest

import vision
from vision.calibrate import calibrate, load_calibration, save_calibration
from vision.reading import Die, Reading
from vision.render import render_scene


def test_annotate_marks_sure_green_and_unsure_red():
    img = np.full((300, 400, 3), 100, np.uint8)
    r = Reading((Die(5, (100, 100), (80, 80, 40, 40), 0.9), Die(None, (300, 200), (280, 180, 40, 40), 0.1)))
    out = vision.annotate(img, r)
    assert out.shape == img.shape and np.array_equal(img, np.full_like(img, 100))  # input untouched
    sure_edge = out[80:121, 80]        # left edge of the sure box
    unsure_edge = out[180:221, 280]
    assert (sure_edge[:, 1] > 150).any() and (sure_edge[:, 1] > sure_edge[:, 2]).any()
    assert (unsure_edge[:, 2] > 150).any() and (unsure_edge[:, 2] > unsure_edge[:, 1]).any()


def test_calibration_measures_die_size_and_round_trips(tmp_path):
    img, truth = render_scene([2, 3, 4, 5, 6], seed=21, die_px=70)
    cfg, info = calibrate(img, use_roi=True)
    # The learned reader measures the box around the die: face side to 1.41 x it (turned 45 degrees).
    assert 0.9 * 70 <= cfg.die_px <= 1.5 * 70
    x, y, w, h = cfg.roi
    for t in truth:
        assert x < t.center[0] < x + w and y < t.center[1] < y + h
    path = save_calibration(cfg, info, str(tmp_path / "camera.toml"))
    back = load_calibration(path)
    assert back.die_px == cfg.die_px and back.roi == cfg.roi
    # Calibrated reading gives the same values.
    assert sorted(vision.read(img, back).values) == [2, 3, 4, 5, 6]


def test_calibrated_reader_ignores_outside_the_tray():
    img, truth = render_scene([3, 6], seed=5, die_px=64)
    cfg = vision.Config(die_px=64, roi=(0, 0, 10, 10))      # tray area too small: ignored
    assert sorted(vision.read(img, cfg).values) == [3, 6]
    left = min(truth, key=lambda t: t.center[0])
    roi = (0, 0, int(left.center[0] + 40), img.shape[0])
    r = vision.read(img, vision.Config(die_px=64, roi=roi))
    assert r.values == [left.value]


def test_calibration_without_dice_is_a_clear_error():
    with pytest.raises(vision.ReadError):
        calibrate(np.full((360, 640, 3), 90, np.uint8))


def test_bad_calibration_file_is_a_clear_error(tmp_path):
    p = tmp_path / "camera.toml"
    p.write_text("[reader]\ndie_px = 'big'\n")
    with pytest.raises(vision.ReadError):
        load_calibration(str(p))
    assert load_calibration(str(tmp_path / "absent.toml")).die_px is None


def test_a_calibration_file_says_what_its_die_size_measures(tmp_path):
    img, _ = render_scene([2, 3, 4], seed=21, die_px=70)
    cfg, info = calibrate(img)
    path = save_calibration(cfg, info, str(tmp_path / "camera.toml"))
    assert 'reader = "learned"' in open(path).read()         # die_px: the box around a die
    assert load_calibration(path).die_px == cfg.die_px
    p = tmp_path / "old.toml"
    # A file written without the key, or for the pip reader once shipped, measured the top
    # face: its size is turned into the box's (x 1.27). Its min_contrast is no longer used.
    for text in ("[reader]\ndie_px = 60\n", '[reader]\ndie_px = 60\nmin_contrast = 22.0\nreader = "pips"\n'):
        p.write_text(text)
        assert load_calibration(str(p)).die_px == round(60 * 1.27, 1)
    p.write_text('[reader]\ndie_px = 60\nmin_contrast = 22.0\nreader = "learned"\n')
    assert load_calibration(str(p)).die_px == 60
    p.write_text('[reader]\ndie_px = 60\nreader = "oracle"\n')
    with pytest.raises(vision.ReadError, match="unknown reader"):
        load_calibration(str(p))
