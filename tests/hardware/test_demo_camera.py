"""The demo camera shows a picture that fits the roll the game waits for, so the first READ works;
told which roll is awaited (by the composition root: companion/app.py's RollCue), it rolls by
itself: moving frames, then still, each die whole in every frame."""

import pytest

import vision
from companion.app import RollCue
from companion.game_profiles import load_profile
from companion.session import Session
from companion.store import GameStore
from hardware import open_camera
from hardware.demo import DEMO_FOLDER, SCRIPT, DemoCamera

COUNTS = {stem: len(values) for stem, values in SCRIPT}


def shown(camera: DemoCamera) -> str:
    """The stem of the picture the next read() shows (after it is read)."""
    camera.read()
    return camera.files[camera._next - 1].stem


@pytest.mark.parametrize("count", [7, 9, 1])
def test_each_read_shows_a_picture_with_the_dice_awaited(count):
    camera = DemoCamera(DEMO_FOLDER)
    camera.open()
    camera.expect_dice(count)
    seen = [shown(camera) for _ in range(5)]
    assert [COUNTS[s] for s in seen] == [count] * 5
    assert len(set(seen[:2])) == 2, "the next picture each time, not the same one"


def test_with_no_roll_awaited_the_pictures_play_in_order():
    camera = DemoCamera(DEMO_FOLDER)
    camera.open()
    assert [shown(camera) for _ in range(3)] == [s for s, _ in SCRIPT[:3]]


def test_told_the_roll_it_rolls_by_itself_then_holds_the_dice_still():
    camera = DemoCamera(DEMO_FOLDER)
    camera.open()
    assert not camera.live
    camera.expect_dice(7, roll=1)
    assert camera.live
    frames = [camera.read() for _ in range(7)]
    stem = camera.files[camera._next - 1].stem
    assert COUNTS[stem] == 7
    moving, still = frames[:4], frames[4:]
    assert all(not (a == b).all() for a, b in zip(moving, moving[1:] + [still[0]]))    # each frame moved
    assert all(f is still[0] for f in still)                                          # then still
    for frame in frames:                       # every die whole: a READ mid-roll reads the same dice
        assert sorted(d.value for d in vision.read(frame).dice) == sorted(dict(SCRIPT)[stem])
    camera.expect_dice(7, roll=1)              # told again, the same roll: it stays still
    assert camera.read() is still[0]
    camera.expect_dice(1, roll=2)              # the next roll: another picture, rolled
    rolled = [camera.read() for _ in range(5)]
    assert COUNTS[camera.files[camera._next - 1].stem] == 1 and rolled[4] is not rolled[3]
    camera.expect_dice(None, roll=None)        # no roll awaited: not live, READ plays on
    assert not camera.live


@pytest.fixture
def demo_session(tmp_path):
    camera = open_camera({"source": "demo"}, demo_folder=DEMO_FOLDER)
    assert camera.wait_for_status("ok", 5)
    session = Session(GameStore(tmp_path / "g.sqlite3"), load_profile(), camera=camera, reader=vision.read)
    session.cue = RollCue(session, camera)     # as companion/app.py builds it; told here after each change
    yield session
    camera.stop()
    session.close()


def test_the_first_read_of_every_roll_can_be_confirmed(demo_session):
    session = demo_session
    session.new_game({"players": ["Anna", "Bruno", "Eric", "Lola"], "first_player": 0})
    session.cue.tell()
    session.press("read")                          # 9 dice at the gate roll of four players
    assert len(session.proposal()["input"]["dice"]) == 9 and not session.proposal()["problem"]
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0, "tops": {"library": "L-high"}})
    session.cue.tell()
    session.press("read")                          # 7 for three
    assert len(session.proposal()["input"]["dice"]) == 7
    session.press("confirm")
    assert session.last_refusal is None and session.game.version == 1
    assert "library" in [o["area"] for o in session.game.expected()["options"]]   # a 2 was rolled
    session.submit({"type": "pick", "area": "library"})
    assert session.game.expected()["kind"] == "roll"
    session.cue.tell()
    session.press("read")                          # one die for the effect's roll
    assert session.proposal()["input"]["value"] in range(1, 7) and not session.proposal()["problem"]
    version = session.game.version
    session.press("confirm")
    assert session.last_refusal is None
    assert session.game.record.inputs[version]["type"] == "roll"
    assert session.game.record.inputs[version]["source"] == "camera"
