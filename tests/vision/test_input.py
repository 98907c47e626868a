"""Bad input: a clear error type or an empty reading, never a crash."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import vision


@pytest.mark.parametrize("frame", [None, "image.png", [[1, 2], [3, 4]], 3.5])
def test_not_an_array_is_a_read_error(frame):
    with pytest.raises(vision.ReadError):
        vision.read(frame)


@pytest.mark.parametrize("frame", [
    np.zeros((100, 100, 3), np.float32),          # wrong dtype
    np.zeros((100, 100, 5), np.uint8),            # wrong channels
    np.zeros((10, 10, 3), np.uint8),              # too small
    np.zeros((0, 0, 3), np.uint8),                # empty
    np.zeros((4, 100, 100, 3), np.uint8),         # a batch, not a frame
])
def test_wrong_shape_or_type_is_a_read_error(frame):
    with pytest.raises(vision.ReadError):
        vision.read(frame)


@pytest.mark.parametrize("level", [0, 255, 128])
def test_flat_frames_give_an_empty_reading(level):
    r = vision.read(np.full((480, 640, 3), level, np.uint8))
    assert r.dice == () and r.to_dict() == {"dice": []}
    assert not r.complete and r.total() is None


def _frames_near_the_flat_line():
    """Large frames of a plain tray (grey std 2.0-6.0: both sides of the line) and
    of one small die on black (a sample every k-th pixel must still see it)."""
    rng = np.random.default_rng(5)
    for sigma in (3.0, 4.0, 4.8, 9.0):   # sensor noise on a plain tray: grey std 2.0-6.0
        yield np.clip(rng.normal(90, sigma, (1080, 1920, 3)), 0, 255).astype(np.uint8)
    for side in (20, 40):                # one small white die on a black tray
        f = np.zeros((720, 1280, 3), np.uint8)
        f[300:300 + side, 600:600 + side] = 255
        yield f
    yield vision.render([3, 5], seed=2)


def test_the_sampled_flat_check_agrees_with_the_whole_frame():
    import cv2
    from vision.frame import FLAT_STD, flat

    answers = []
    for f in _frames_near_the_flat_line():
        whole = float(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).std()) < FLAT_STD
        assert flat(f) == whole
        answers.append(whole)
    assert True in answers and False in answers   # both sides of the line were tried


def test_noise_frame_reports_no_readable_die():
    rng = np.random.default_rng(0)
    r = vision.read(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8))
    assert all(d.value is None for d in r.dice)


@pytest.mark.parametrize("side", [32, 40, 48, 64])
def test_a_tiny_frame_of_noise_gets_no_valued_die(side):
    """On 32-64 px frames of noise the nets saw 8-10 px 'dice' and gave them values
    (a 6 at 0.98): dice that small are unsure ("small"), whatever the nets say."""
    rng = np.random.default_rng(side)
    for _ in range(5):
        r = vision.read(rng.integers(0, 256, (side, side, 3), dtype=np.uint8))
        assert all(d.value is None for d in r.dice)
        assert all(d.reason in ("small", "edge") for d in r.dice if d.side < 14)


def test_grey_and_bgra_frames_are_accepted():
    img = vision.render([4], seed=3)
    grey = img.mean(axis=2).astype(np.uint8)
    bgra = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    assert vision.read(grey).values == [4]
    assert vision.read(bgra).values == [4]


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_cli_missing_file_one_line_exit_2(tmp_path):
    p = _cli("read", str(tmp_path / "nope.png"))
    assert p.returncode == 2
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1
    assert "no such image" in p.stderr


def test_cli_unreadable_image_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg at all")
    p = _cli("read", str(bad), "--json")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_cli_read_json_and_annotate(tmp_path):
    import cv2

    img = vision.render([2, 5, 6], seed=11)
    src, out = tmp_path / "roll.png", tmp_path / "annotated.png"
    cv2.imwrite(str(src), img)
    p = _cli("read", str(src), "--json", "--annotate", str(out))
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert sorted(d["value"] for d in data["dice"]) == [2, 5, 6]
    for d in data["dice"]:
        assert set(d) == {"value", "center", "box", "confidence"}
        assert len(d["center"]) == 2 and len(d["box"]) == 4 and 0 <= d["confidence"] <= 1
    drawn = cv2.imread(str(out))
    assert drawn.shape == img.shape and not np.array_equal(drawn, img)
    table = _cli("read", str(src))
    assert table.returncode == 0 and "3 dice, total 13" in table.stdout


def test_cli_a_jpeg_cut_short_is_refused_not_read_in_part(tmp_path):
    # OpenCV decodes the first half and greys the rest, with only a warning: the dice
    # there would be silently missing from the roll.
    import cv2

    img = vision.render([2, 5, 6, 1], seed=12)
    ok, data = cv2.imencode(".jpg", img)
    whole, cut = tmp_path / "whole.jpg", tmp_path / "cut.jpg"
    whole.write_bytes(data.tobytes())
    cut.write_bytes(data.tobytes()[: len(data) // 2])
    assert cv2.imread(str(cut)) is not None                  # what OpenCV alone would read
    p = _cli("read", str(cut), "--json")
    assert p.returncode == 2 and p.stdout == "" and "cut short" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert _cli("read", str(whole), "--json").returncode == 0
    # A PNG cut short too.
    ok, data = cv2.imencode(".png", img)
    (tmp_path / "cut.png").write_bytes(data.tobytes()[:-30])
    p = _cli("read", str(tmp_path / "cut.png"))
    assert p.returncode == 2 and "cut short" in p.stderr


def test_cli_images_that_cannot_be_written_are_a_clear_error(tmp_path):
    import cv2

    src = tmp_path / "roll.png"
    cv2.imwrite(str(src), vision.render([3, 4], seed=2))
    for target, words in [(tmp_path / "out.xyz", "no image format"),
                          (tmp_path / "no-such-folder" / "out.png", "no such folder"),
                          (tmp_path, "it is a folder")]:
        p = _cli("read", str(src), "--annotate", str(target))
        assert p.returncode == 2 and "Traceback" not in p.stderr and words in p.stderr, p.stderr
        p = _cli("render", str(target), "3", "4")
        assert p.returncode == 2 and words in p.stderr and "wrote" not in p.stdout, p.stderr
    assert not (tmp_path / "no-such-folder").exists()
    p = _cli("render", str(tmp_path / "r.png"), "3", "seven")
    assert p.returncode == 2 and "1-6" in p.stderr


def test_cli_calibrate_saves_nothing_when_its_picture_cannot_be_written(tmp_path):
    import cv2

    src, toml = tmp_path / "roll.png", tmp_path / "camera.toml"
    cv2.imwrite(str(src), vision.render([3, 4, 5], seed=3))
    p = _cli("calibrate", str(src), "--out", str(toml), "--annotate", str(tmp_path / "x" / "c.png"))
    assert p.returncode == 2 and "no such folder" in p.stderr and not toml.exists()
    p = _cli("calibrate", str(src), "--out", str(toml), "--annotate", str(tmp_path / "c.png"))
    assert p.returncode == 0 and toml.exists() and (tmp_path / "c.png").exists()


def test_cli_a_folder_given_as_the_image_says_so(tmp_path):
    p = _cli("read", str(tmp_path))
    assert p.returncode == 2 and "is a folder" in p.stderr


@pytest.mark.parametrize("make", [
    lambda: vision.Config(die_px=float("nan")), lambda: vision.Config(die_px=-30),
    lambda: vision.Config(die_px=float("inf")), lambda: vision.Config(roi=(1, 2)),
    lambda: vision.Config(roi=(0, 0, 0, 10)),
])
def test_a_config_that_cannot_be_right_is_refused_when_made(make):
    with pytest.raises(ValueError):
        make()


def test_a_config_of_the_wrong_type_is_a_read_error():
    frame = vision.render([3], seed=1)
    for config in ("learned", {"die_px": 60}, 3):
        with pytest.raises(vision.ReadError, match="vision.Config"):
            vision.read(frame, config)


@pytest.mark.parametrize("text", ['reader = 3\n', '[reader]\nroi = [1, 2]\n',
                                  '[reader]\ndie_px = nan\n'])
def test_a_bad_calibration_file_is_one_clear_error(tmp_path, text):
    path = tmp_path / "camera.toml"
    path.write_text(text)
    with pytest.raises(vision.ReadError, match="bad calibration file"):
        vision.load_calibration(str(path))


def test_a_whole_jpeg_with_data_after_its_end_is_read(tmp_path):
    # A phone's motion photo appends a video after the picture; an EXIF thumbnail has an end
    # marker of its own before the picture's data. Neither may be taken for a cut file.
    import cv2

    from vision.image_file import load_image, truncated

    img = vision.render([4, 4, 2], seed=9)
    data = cv2.imencode(".jpg", img)[1].tobytes()
    thumb = cv2.imencode(".jpg", cv2.resize(img, (64, 36)))[1].tobytes()
    app1 = b"\xff\xe1" + (len(thumb) + 2).to_bytes(2, "big") + thumb
    with_thumb = data[:2] + app1 + data[2:]
    assert not truncated(data + b"\x00" * 8 + b"ftypmp42 a video")
    assert not truncated(with_thumb)
    assert truncated(with_thumb[: len(with_thumb) // 2])      # the thumbnail's end marker is not enough
    path = tmp_path / "motion.jpg"
    path.write_bytes(data + b"ftypmp42 a video")
    assert load_image(str(path)).shape == img.shape
