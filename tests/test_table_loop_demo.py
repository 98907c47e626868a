"""The loop of play on the embedded default: demo camera, mock pins, SQLite, resumed after a restart.

Panel presses go through the real gpiozero MockFactory pins' queue (Panel.inject
feeds the same queue as the pins); the test waits on the session's change
notifications, never on sleeps.
"""

import dataclasses
import time

import cv2
import pytest

from companion.app import build, check_port
from companion.config import load_config
from hardware.demo import DEMO_FOLDER

SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}


@pytest.fixture
def config(tmp_path):
    cfg = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_CAMERA_SOURCE": "demo",
                                 "ATLANDICE_GPIO_PIN_FACTORY": "mock"})
    return cfg


def press_and_wait(companion, button, timeout=10.0):
    """Press, then wait until the press is answered: refused, a reading for the step now
    (READ), or the game changed (the others). Not just any change: the camera's own make one."""
    session = companion.session
    version, seen = session.game.version, session.change_id
    companion.panel.inject(button, source="test")

    def answered():
        refusal = session.last_refusal
        if refusal and refusal["button"] == button:
            return True
        if button == "read":   # the reading for the step now, and its picture (drawn after it)
            reading = session.snapshot()["reading"]
            return bool(reading and reading["current"] and session.desk.last_image())
        return session.game.version != version

    deadline = time.monotonic() + timeout
    while not answered():
        changed = session.wait_for_change(seen, deadline - time.monotonic())
        assert changed > seen, f"{button} was not answered in {timeout} s"
        seen = changed


def test_read_then_confirm_enters_the_gate_roll_from_the_camera(config):
    companion = build(config, announce=lambda text: None)
    try:
        session = companion.session
        session.new_game(SETUP)
        press_and_wait(companion, "read")
        proposal = session.proposal()
        assert proposal["source"] == "camera" and proposal["problem"] is None
        assert sorted(proposal["input"]["dice"]) == [1, 2, 3, 4, 5, 5, 6]  # hardware/demo.py's first picture
        assert session.desk.last_image().startswith(b"\x89PNG")
        press_and_wait(companion, "confirm")
        assert session.game.record.inputs[0]["source"] == "camera"
        assert session.game.expected()["kind"] == "pick"
        # A die to take is the players' choice: CONFIRM enters nothing, and says so.
        press_and_wait(companion, "confirm")
        assert session.game.version == 1 and "nothing to confirm" in session.last_refusal["message"]
        session.submit({"type": "pick", "area": "works"})    # its Tools are the only resource there
        assert session.game.record.inputs[-1] == {"type": "resource", "resource": "tool", "source": "auto"}
        press_and_wait(companion, "undo")                    # the pick and what came with it
        assert session.game.version == 1
    finally:
        companion.close()


def test_read_the_moment_a_game_begins_reads_the_roll_it_waits_for(config):
    """READ takes its picture after the demo camera is told the roll awaited, even when the cue's
    own thread has not woken yet (here: stopped): never the picture before the game."""
    companion = build(config, announce=lambda text: None)
    try:
        companion.cue.stop()
        session = companion.session
        session.desk.calibrate()                 # the picture before the game: the tray as it was
        session.new_game(SETUP)
        press_and_wait(companion, "read")
        assert len(session.snapshot()["reading"]["values"]) == 7   # the gate roll's seven dice
    finally:
        companion.close()


def wait_for_proposal(session, timeout=15.0) -> dict:
    """The next proposal, however it comes (here: the settle watcher, no READ)."""
    deadline = time.monotonic() + timeout
    seen = session.change_id
    while session.proposal() is None:
        assert time.monotonic() < deadline, "no proposal came"
        seen = session.wait_for_change(seen, deadline - time.monotonic())
    return session.proposal()


def test_the_demo_camera_rolls_by_itself_and_the_still_dice_are_proposed_without_read(config):
    """Told by the composition root which roll is awaited, the demo camera shows it rolling, then
    still, and the table loop's settle watcher proposes it: no READ. READ reads it again."""
    companion = build(config, announce=lambda text: None)
    try:
        session = companion.session
        assert companion.cue is not None
        session.new_game(SETUP)
        proposal = wait_for_proposal(session)              # the gate roll: nothing pressed
        assert proposal["source"] == "camera" and proposal["problem"] is None
        assert sorted(proposal["input"]["dice"]) == [1, 2, 3, 4, 5, 5, 6]  # hardware/demo.py's first picture
        press_and_wait(companion, "read")                  # READ: the same still dice, read again
        assert sorted(session.proposal()["input"]["dice"]) == [1, 2, 3, 4, 5, 5, 6]
        press_and_wait(companion, "confirm")
        assert session.game.record.inputs[0]["source"] == "camera"
        session.submit({"type": "pick", "area": "library"})   # its Book goes with it; L-high rolls a die
        assert session.game.expected()["kind"] == "roll"
        at = session.game.version
        deadline, seen = time.monotonic() + 15, session.change_id
        while session.game.version == at:                  # one die, rolled by itself too, read surely
            assert time.monotonic() < deadline, "the effect's roll was not entered"
            seen = session.wait_for_change(seen, deadline - time.monotonic())
        roll = session.game.record.inputs[at]              # entered once still: no READ, no CONFIRM
        assert roll["type"] == "roll" and roll["source"] == "camera" and roll["value"] in range(1, 7)
    finally:
        companion.close()


def test_a_reading_with_the_wrong_number_of_dice_is_refused_with_the_reason(config):
    companion = build(config, announce=lambda text: None)
    try:
        session = companion.session
        session.new_game(SETUP)
        press_and_wait(companion, "read")            # a 7-dice picture: used for...
        session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})  # ...nothing: typed in by hand
        session.submit({"type": "pick", "area": "library"})   # and its only Book
        assert session.game.expected()["kind"] == "roll"   # L-high rolls the die
        press_and_wait(companion, "read")            # the demo camera shows one die: fine for a roll
        assert session.proposal()["problem"] is None
        session.undo(), session.undo()
        wait_for_proposal(session)                  # the demo camera rolls the gate roll again, by itself
        one_die = cv2.imread(str(DEMO_FOLDER / "02-roll.jpg"))
        session.desk.read_dice(frame=one_die)             # one die read for a gate roll of 7
        proposal = session.proposal()
        assert "7 dice are in play but 1 were read" in proposal["problem"]
        press_and_wait(companion, "confirm")
        assert session.last_refusal and "7 dice" in session.last_refusal["message"]
        assert session.game.version == 0
    finally:
        companion.close()


def test_a_game_in_progress_is_resumed_after_a_restart(config):
    companion = build(config, announce=lambda text: None)
    session = companion.session
    session.new_game(SETUP)
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
    session.submit({"type": "pick", "area": "market"})
    state = session.game.state
    companion.close()
    said = []
    again = build(config, announce=said.append)
    try:
        assert again.session.game.state == state and again.session.game.version == 2
        assert said and "resumed" in said[0]
    finally:
        again.close()


def test_a_last_game_that_no_longer_replays_does_not_stop_the_start(config):
    import json
    import sqlite3

    from companion import paths

    companion = build(config, announce=lambda text: None)
    companion.session.new_game(SETUP)
    game_id = companion.session.game_id
    companion.close()
    # A record the rules now refuse (here a header spoiled by hand; once, a profile name).
    db = sqlite3.connect(paths.database_path(config.data_dir))
    header = json.loads(db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    header["setup"]["players"] = ["only one"]
    db.execute("UPDATE games SET header = ? WHERE id = ?", (json.dumps(header), game_id))
    db.commit()
    db.close()
    said = []
    again = build(config, announce=said.append)
    try:
        assert again.session.game is None
        assert any("could not resume the last game" in s for s in said)
        again.session.new_game(SETUP)                   # and the table can play on
    finally:
        again.close()


def test_missing_camera_the_game_goes_on_by_hand(config, tmp_path):
    cfg = dataclasses.replace(config, camera=dataclasses.replace(config.camera, source="opencv",
                                                                 device=str(tmp_path / "no-such-video.avi")))
    companion = build(cfg, announce=lambda text: None)
    try:
        session = companion.session
        session.new_game(SETUP)
        companion.camera.wait_for_status("unavailable", 10)
        assert session.desk.camera_status()["message"] == "camera unavailable: type the dice in"
        press_and_wait(companion, "read")
        assert "camera unavailable" in session.last_refusal["message"]
        session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6], "source": "hand"})
        assert session.game.version == 1 and session.last_refusal is None
    finally:
        companion.close()


def test_a_taken_port_is_found_before_anything_opens():
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError) as err:
            check_port("127.0.0.1", taken.getsockname()[1])
    assert "cannot listen" in err.value.strerror


def test_calibration_is_measured_saved_in_the_data_folder_and_kept(config, tmp_path):
    companion = build(config, announce=lambda text: None)
    try:
        session = companion.session
        assert session.snapshot()["calibration"]["calibrated"] is False
        info = session.desk.calibrate()
        assert info["calibrated"] and 40 < info["die_px"] < 90     # the demo dice are 64 px
        assert (tmp_path / "calibration" / "camera.toml").is_file()
        session.new_game(SETUP)
        press_and_wait(companion, "read")        # calibrating took the first picture: this is the next gate roll
        assert sorted(session.snapshot()["reading"]["values"]) == [1, 2, 2, 3, 4, 5, 6]   # read right, calibrated
    finally:
        companion.close()
    again = build(config, announce=lambda text: None)
    try:
        assert again.session.snapshot()["calibration"]["die_px"] == info["die_px"]
    finally:
        again.close()


def test_a_shelf_games_profile_is_kept_in_the_data_folder_across_a_restart(config):
    from companion.shelf import default_profile

    companion = build(config, announce=lambda text: None)
    try:
        checked = dict(default_profile("survive"), confirmed=True, values=[1, 2, 2, 3, 3, 3, 4, 4, 5, 6])
        companion.session.set_profile(checked, "survive")
    finally:
        companion.close()
    saved = config.data_dir / "calibration" / "survive_profile.json"
    assert saved.is_file()
    again = build(config, announce=lambda text: None)
    try:
        again.session.new_game({"players": ["Ana", "Bruno"], "first_player": 0, "challenges": []}, game="survive")
        assert again.session.game.record.header["setup"]["profile"] == checked
    finally:
        again.close()
    saved.write_text("{", encoding="utf-8")                 # damaged by hand: said at start, with its path
    said = []
    again = build(config, announce=said.append)           # ... and the start goes on, with the default
    try:
        assert any("survive_profile.json" in line and line.startswith("warning:") for line in said)
        assert again.session.profile_of("survive") == default_profile("survive")
    finally:
        again.close()
