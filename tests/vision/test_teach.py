"""Light teaching (vision/teach.py): it may value an unclear die or doubt a valued one, never change a value."""

import csv
import os
from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision
from vision import learned, nets, teach
from vision.classifier import classify_pooled
from vision.reading import Die, Reading
from vision.render import render_scene
from vision.settings import Config

pytestmark = pytest.mark.skipif(not nets.available(), reason="vision/models/*.onnx not present")


def labelled_folder(path, scenes, wrong=False):
    """Rendered scenes as a labelled folder; `wrong`: every value labelled one more (mod 6)."""
    os.makedirs(path / "images")
    with open(path / "labels.csv", "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["image", "value", "x", "y", "w", "h"])
        for k, (img, truth) in enumerate(scenes):
            cv2.imwrite(str(path / "images" / f"r{k}.png"), img)
            for t in truth:
                v = t.value % 6 + 1 if wrong else t.value
                out.writerow([f"r{k}.png", v, t.center[0] - t.side * 0.6, t.center[1] - t.side * 0.6,
                              t.side * 1.2, t.side * 1.2])
    return str(path)


def scenes(seed, n):
    rng = np.random.default_rng(seed)
    return [render_scene(rng.integers(1, 7, 6).tolist(), seed=seed + k, size=(640, 480), die_px=56,
                         blur=float(rng.uniform(0, 2.5)))
            for k in range(n)]


def same_die(a: Die, reading: Reading) -> Die:
    return min(reading.dice, key=lambda d: np.hypot(d.center[0] - a.center[0], d.center[1] - a.center[1]))


@pytest.mark.parametrize("wrong", [False, True], ids=["right labels", "every label wrong"])
def test_a_taught_reading_never_changes_a_value(tmp_path, wrong):
    taught = teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 4), wrong=wrong))
    assert taught.to_dict()["photos"] == 4
    path = teach.save(taught, str(tmp_path / "taught.npz"))
    for img, _ in scenes(50, 4):
        plain = vision.read(img)
        with_t = vision.read(img, Config(taught=path))
        assert len(with_t.dice) == len(plain.dice)                # nothing added, nothing dropped
        for d in with_t.dice:
            before = same_die(d, plain)
            if before.value is not None:
                assert d.value in (before.value, None)            # kept, or made unsure
            elif d.value is not None:
                assert before.reason == "unclear"                 # only an unclear die is valued


class StandIn:
    """The shipped nets behind an object, as a test's scripted nets are: nets.run only."""

    def run(self, name, blob):
        return nets.run(Config().models, name, blob)


def test_with_one_photo_nothing_is_taught(tmp_path):
    taught = teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 1)))
    assert taught.lift == taught.veto == float("inf") and not taught.teaches()
    img = scenes(50, 1)[0][0]
    reading = vision.read(img)
    assert teach.apply(img, reading, taught, Config()) is reading
    # Nothing to teach: the reading asks no pooled features, so nets standing in read as without it.
    path = teach.save(taught, str(tmp_path / "taught.npz"))
    assert vision.read(img, Config(models=StandIn(), taught=path)).to_dict() == reading.to_dict()


def die_at(img, truth, value, reason):
    t = truth[0]
    return Reading((Die(value, t.center, (0, 0, 1, 1), 0.5, reason, t.side),), img.shape[1], img.shape[0])


def test_an_unclear_die_is_valued_only_when_the_examples_and_the_net_agree(tmp_path):
    img, truth = render_scene([4], seed=3, size=(320, 240), die_px=56)
    p, f = classify_pooled(img, [(*truth[0].center, truth[0].side)], Config())
    assert int(np.argmax(p[0, 1:])) + 1 == 4                     # the net leans to the die's value
    noise = np.roll(f, 7, axis=1)
    examples = np.concatenate([f, noise / np.linalg.norm(noise)])

    def taught(classes, lift=0.05):
        return teach.Taught(examples, np.array(classes, np.int8), np.array([4, 4], np.int8),
                            np.array([0, 1], np.int32), lift, float("inf"), None)
    unclear = die_at(img, truth, None, "unclear")
    assert teach.apply(img, unclear, taught([4, 0]), Config()).dice[0].value == 4
    assert teach.apply(img, unclear, taught([5, 0]), Config()).dice[0].value is None   # the net says 4
    assert teach.apply(img, unclear, taught([0, 4]), Config()).dice[0].value is None   # nearest: not a die
    assert teach.apply(img, unclear, taught([4, 0], lift=2.0), Config()).dice[0].value is None   # no lead
    for reason in ("disagree", "edge", "faint", "small", "crowded"):
        assert teach.apply(img, die_at(img, truth, None, reason), taught([4, 0]), Config()).dice[0].value is None


def test_a_valued_die_unlike_its_examples_becomes_unsure_never_another_value(tmp_path):
    img, truth = render_scene([4], seed=3, size=(320, 240), die_px=56)
    _, f = classify_pooled(img, [(*truth[0].center, truth[0].side)], Config())
    other = np.roll(f, 7, axis=1)
    t = teach.Taught(np.concatenate([f, other / np.linalg.norm(other)]), np.array([6, 4], np.int8),
                     np.array([6, 4], np.int8), np.array([0, 1], np.int32), float("inf"), 0.05, None)
    out = teach.apply(img, die_at(img, truth, 4, ""), t, Config()).dice[0]
    assert out.value is None and out.reason == "taught"
    t = replace(t, classes=np.array([4, 6], np.int8))
    assert teach.apply(img, die_at(img, truth, 4, ""), t, Config()).dice[0].value == 4


def test_a_valued_die_nearest_this_tables_not_a_die_by_doubt_becomes_unsure(tmp_path):
    img, truth = render_scene([1], seed=4, size=(320, 240), die_px=56)
    _, f = classify_pooled(img, [(*truth[0].center, truth[0].side)], Config())
    other = np.roll(f, 7, axis=1)
    examples = np.concatenate([f, other / np.linalg.norm(other)])
    inf = float("inf")

    def taught(classes, doubt):
        return teach.Taught(examples, np.array(classes, np.int8), np.array([1, 1], np.int8),
                            np.array([0, 1], np.int32), inf, inf, None, doubt=doubt)
    die = die_at(img, truth, 1, "")
    out = teach.apply(img, die, taught([0, 1], 0.05), Config()).dice[0]
    assert out.value is None and out.reason == "taught"
    assert teach.apply(img, die, taught([0, 1], inf), Config()).dice[0].value == 1     # no doubt taught
    assert teach.apply(img, die, taught([0, 1], 2.0), Config()).dice[0].value == 1     # lead too small
    assert teach.apply(img, die, taught([6, 1], 0.05), Config()).dice[0].value == 1    # nearest is a 6: veto's


def test_doubt_is_the_lead_that_catches_most_wrongly_valued_dice_net_of_right_ones():
    bad, right = True, False
    assert teach._doubt([]) == float("inf")
    assert teach._doubt([(0.1, bad)]) == float("inf")                       # fewer than DOUBTS caught
    assert teach._doubt([(0.1, bad), (0.2, bad), (0.3, right), (0.4, right)]) == float("inf")   # as many right
    assert teach._doubt([(0.1, bad), (0.2, bad), (0.3, bad), (0.05, right)]) == 0.1
    assert teach._doubt([(0.01, bad), (0.02, right), (0.03, right), (0.1, bad), (0.2, bad)]) == 0.1
    assert teach._doubt([(0.01, bad), (0.02, right), (0.1, bad), (0.2, bad)]) == 0.01  # a tie: catch more


def test_doubt_is_set_from_the_taught_rolls_own_wrongly_valued_dice():
    # Two photos: each one's valued die is voted "not a die" by the other's example.
    ex = np.eye(4, dtype=np.float32)[[0, 0, 1, 1]] + np.float32(0.01)
    ex /= np.linalg.norm(ex, axis=1, keepdims=True)
    cl, nb, ph = (np.array(a, np.int8) for a in ([0, 0, 3, 3], [1, 1, 3, 3], [0, 1, 0, 1]))
    phantoms = np.array([1, 1, 3, 3], np.int8)      # the phantoms valued 1: wrong, so doubt catches them
    assert np.isfinite(teach._margins(ex, cl, nb, ph.astype(np.int32), phantoms)[2])
    unsure = np.array([0, 0, 3, 3], np.int8)        # the phantoms left unsure: nothing to catch
    assert teach._margins(ex, cl, nb, ph.astype(np.int32), unsure)[2] == float("inf")


def test_the_taught_state_is_saved_whole_and_a_bad_file_is_refused(tmp_path):
    taught = teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 2)))
    back = teach.load(teach.save(taught, str(tmp_path / "t.npz")))
    assert back.to_dict() == taught.to_dict() and np.array_equal(back.features, taught.features)
    back = teach.load(teach.save(replace(taught, doubt=0.03), str(tmp_path / "d.npz")))
    assert back.doubt == pytest.approx(0.03)
    (tmp_path / "bad.npz").write_bytes(b"not numpy")
    with pytest.raises(ValueError, match="not a taught state"):
        teach.load(str(tmp_path / "bad.npz"))


def test_the_companion_reads_with_its_taught_state_and_without_a_sound_one(tmp_path):
    from calibration.camera import TAUGHT_NAME, CalibratedReader

    folder = tmp_path / "calibration"
    assert CalibratedReader(folder / "camera.toml").config.taught is None
    teach.save(teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 2))), str(folder / TAUGHT_NAME))
    reader = CalibratedReader(folder / "camera.toml")
    assert reader.config.taught == str(folder / TAUGHT_NAME) and reader.status()["taught"]
    (folder / TAUGHT_NAME).write_bytes(b"damaged")
    reader = CalibratedReader(folder / "camera.toml")
    assert reader.config.taught is None and "not a taught state" in reader.problem


def test_bench_teach_scores_the_untaught_photos_untaught_and_taught(tmp_path, capsys):
    from vision_tools.bench import main

    folder = labelled_folder(tmp_path / "rolls", scenes(10, 5))
    assert main([folder, "--teach", "0.4", "--no-720p", "--json"]) == 0
    import json
    entry = json.loads(capsys.readouterr().out)["folders"][0]
    taught = entry["teach"]["photos"]
    assert len(taught) == 2 and entry["teach"]["seed"] == 0 and entry["teach"]["mode"] == "light"
    assert entry["untaught"]["images"] == entry["taught"]["images"] == 3      # the rest, both ways
    assert entry["taught"]["silent"] <= entry["untaught"]["silent"]


def test_bench_full_teaching_without_torch_says_what_to_install(tmp_path, capsys, monkeypatch):
    import importlib.util

    from vision_tools.bench import main

    folder = labelled_folder(tmp_path / "rolls", scenes(10, 3))
    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else find(name, *a))
    assert main([folder, "--teach", "0.4", "--teach-mode", "full"]) == 2
    assert "pip install -e '.[train]'" in capsys.readouterr().err


def test_a_taught_reading_uses_the_first_pass_features_and_reads_as_if_classified_afresh(tmp_path):
    # Every label wrong: the veto is low and makes dice unsure, so the features used show.
    path = teach.save(teach.teach(labelled_folder(tmp_path / "rolls", scenes(10, 4), wrong=True)),
                      str(tmp_path / "taught.npz"))
    s = Config(taught=path)
    changed = 0
    for img, _ in scenes(50, 4):
        reading, _, seen = learned.read_once(img, s, pooled=True)
        assert set(seen) == {(*d.center, d.side) for d in reading.dice}    # each die's first pass kept
        assert learned.read_once(img, s)[2] == {}                         # not asked: nothing kept
        fresh = teach.apply(img, reading, teach.load(path), s)            # every die classified again
        reused = teach.apply(img, reading, teach.load(path), s, seen)
        assert [(d.value, d.reason) for d in reused.dice] == [(d.value, d.reason) for d in fresh.dice]
        assert [d.confidence for d in reused.dice] == pytest.approx([d.confidence for d in fresh.dice], abs=1e-5)
        changed += [(d.value, d.reason) for d in fresh.dice] != [(d.value, d.reason) for d in reading.dice]
    assert changed          # teaching did change a reading: the features it used mattered
