"""Training data helpers that need no torch (vision_tools/train/data.py)."""

import numpy as np

from vision_tools.train.data import COCKED, GHOSTS, NO_VALUE, cocked_die, face_centres, piece, targets, texture


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


def test_pieces_are_seeded_crops_with_something_to_see():
    a = [piece(np.random.default_rng(3)) for _ in range(2)]
    assert np.array_equal(a[0], a[1])                   # the training seed decides them
    rng = np.random.default_rng(4)
    for _ in range(60):
        t = piece(rng)
        assert t.shape == (48, 48, 3) and t.dtype == np.float32
        assert t.min() >= 0 and t.max() <= 255
        centre, rim = t[16:32, 16:32].reshape(-1, 3), t[[0, -1]].reshape(-1, 3)
        assert np.abs(centre.mean(axis=0) - rim.mean(axis=0)).max() > 3 or centre.std() > 10, \
            "a piece that does not stand out from its ground teaches nothing"
    assert piece(rng, 32).shape == (32, 32, 3)


def test_cocked_dice_lean_so_far_that_no_face_is_up_and_lie_in_their_frame():
    rng = np.random.default_rng(5)
    for _ in range(12):
        img, die = cocked_die(rng)
        assert COCKED[0] <= die.tilt <= COCKED[1]
        x, y, w, h = die.box
        assert 0 <= x and 0 <= y and x + w <= img.shape[1] and y + h <= img.shape[0]   # whole in view
        assert max(w, h) > 1.2 * die.side                  # a side face shows beside the top
    a, b = (cocked_die(np.random.default_rng(9)) for _ in range(2))
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]  # the training seed decides them
    assert all(5 <= cocked_die(rng, (5, 32))[1].tilt <= 32 for _ in range(5))


def test_face_centres_are_the_top_and_the_side_face_a_cocked_die_shows():
    img, die = cocked_die(np.random.default_rng(2))
    faces = face_centres(die)
    assert "top" in faces and 2 <= len(faces) <= 3      # on an edge: one side face, maybe a sliver of another
    # the top face and a side face beside it: 0.71 of a side apart in the die (half a side
    # from its middle each, at right angles), about as far as seen when it leans 38-52 degrees
    for f in faces:
        if f != "top":
            assert 0.55 * die.side < np.hypot(*np.subtract(faces[f], faces["top"])) < 0.8 * die.side
        assert 0.25 * die.side < np.hypot(*np.subtract(faces[f], die.center)) < 0.6 * die.side


def test_targets_are_one_hot_but_a_cocked_die_is_a_die_with_every_value_a_sixth():
    t = targets(np.array([0, 3, NO_VALUE, 6]))
    assert t.shape == (4, 7) and np.allclose(t.sum(axis=1), 1)
    assert t[0, 0] == 1 and t[1, 3] == 1 and t[3, 6] == 1
    assert t[2, 0] == 0 and np.allclose(t[2, 1:], 1 / 6)


def test_the_rendered_training_scenes_of_a_seed_stay_the_same():
    # Pinned draws (numbers, not pixels): a refactor must not change what a recorded
    # training command makes. The sixth scene is the first with see-through dice, so the
    # seventh and eighth pin that branch's draws too; the third mixes dice of several sizes.
    from vision_tools.train.data import synthetic
    scenes = synthetic(8, seed=3)
    values = [[v for v, *_ in labs] for _, _, labs in scenes]
    assert values[:2] == [[1, 2, 2, 2, 5, 6, 4, 1, 1], [2, 1, 2, 1, 6, 4, 4, 2, 3, 2]]
    assert values[6:] == [[4, 5], [3, 3, 2, 2, 4, 4]]
    assert [tuple(round(c, 1) for c in labs[0][1:3]) for _, _, labs in scenes] == [
        (356.3, 71.0), (67.0, 227.0), (442.5, 269.7), (541.2, 244.4), (353.2, 118.8), (135.0, 139.6),
        (433.0, 243.6), (145.0, 60.0)]


def test_ghost_scenes_make_every_die_translucent_with_its_middle_pip_showing(monkeypatch):
    # synthetic(ghosts=True) is train_dice's --see-through pool; without it the scenes are as before.
    import sys
    from vision_tools.train.data import synthetic
    render = sys.modules["vision.render"]   # the module (vision.render is also the package's function)
    calls = []

    def spy(values, **kw):
        calls.append(kw)
        return real(values, **kw)
    real = render.render_scene
    monkeypatch.setattr(render, "render_scene", spy)
    synthetic(6, seed=3, ghosts=True)
    assert len(calls) == 6
    assert all(GHOSTS[0] <= kw["see_through"] <= GHOSTS[1] and kw["ghost_fade"] == 1.0 for kw in calls)
    calls.clear()
    synthetic(30, seed=3)
    assert all(kw["ghost_fade"] == 0.0 and (kw["see_through"] == 0 or 0.15 <= kw["see_through"] <= 0.55)
               for kw in calls)
    assert 0 < sum(kw["see_through"] > 0 for kw in calls) < 30


def test_finished_scenes_are_the_plain_scenes_with_real_dice_bodies(monkeypatch):
    # synthetic(finishes=True) is train_dice's --finishes pool (session 18): the same scenes,
    # drawn by the same numbers, every die flat with a marbled, glittery or clear body.
    import sys
    from vision_tools.train.data import synthetic
    render = sys.modules["vision.render"]
    calls = []

    def spy(values, **kw):
        calls.append((values, kw))
        return real(values, **kw)
    real = render.render_scene
    monkeypatch.setattr(render, "render_scene", spy)
    plain = synthetic(6, seed=3)
    finished = synthetic(6, seed=3, finishes=True)
    assert len(calls) == 12
    assert all(kw["finishes"] == 0.0 for _, kw in calls[:6]) and all(kw["finishes"] == 1.0 for _, kw in calls[6:])
    for (v1, kw1), (v2, kw2) in zip(calls[:6], calls[6:]):
        assert v1 == v2 and {**kw1, "finishes": 1.0} == kw2
    assert [labs for *_, labs in plain] == [labs for *_, labs in finished]
    assert all(not np.array_equal(a, b) for (_, a, _), (_, b, _) in zip(plain, finished))


def test_a_degraded_crop_is_the_same_crop_seen_by_a_poorer_camera():
    from vision.render import render_scene
    from vision_tools.train.data import degrade

    img, dice = render_scene([5], seed=5, size=(96, 96), die_px=40)
    crop = img[24:72, 24:72].astype(np.float32)                  # 48 x 48, the die in it
    rng = np.random.default_rng(0)
    sharpness = lambda x: float(np.abs(np.diff(x, axis=1)).mean())   # noqa: E731
    softer = 0
    for _ in range(40):
        out = degrade(crop, rng)
        assert out.shape == crop.shape and out.dtype == np.float32
        assert 0 <= out.min() and out.max() <= 255
        assert not np.array_equal(out, crop)                           # changed, every time
        assert abs(float(out.mean()) - float(crop.mean())) < 12          # ... but the same crop
        softer += sharpness(out) < sharpness(crop)
    assert softer >= 20                         # most are blurred by a lower resolution or JPEG
    again = [degrade(crop, np.random.default_rng(3)) for _ in range(2)]
    assert np.array_equal(*again)               # a seed gives the same crop
