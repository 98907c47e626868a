"""The table loop: panel events reach the session in order; a live camera is read once per settled roll."""

import queue
import threading
import time
from dataclasses import dataclass

import numpy as np
import pytest

from companion.game_profiles import load_profile
from companion.table_loop import TableLoop
from companion.session import Session
from companion.store import GameStore

SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}


@dataclass
class Frame:
    image: np.ndarray
    seq: int


class Status:
    ok, state, reason, message = True, "ok", "", "camera ready"


class LiveCamera:
    """A supervisor-like camera whose frames the test hands over one by one."""

    def __init__(self):
        self.status = Status()
        self.camera = type("Cam", (), {"live": True})()
        self._frame = None
        self._seq = 0

    def show(self, value: int) -> None:
        self._seq += 1
        self._frame = Frame(np.full((8, 8, 3), value, np.uint8), self._seq)

    def latest(self):
        return self._frame


class Reading:
    def __init__(self, values):
        self.dice = [type("Die", (), {"value": v})() for v in values]

    def to_dict(self):
        return {"dice": [{"value": d.value, "center": [0, 0], "box": [0, 0, 1, 1], "confidence": 1.0}
                         for d in self.dice]}


def grey_level(frame):
    """The session's reader here: six dice and the frame's grey level."""
    return Reading([1, 2, 3, 4, 5, 6, int(frame[0, 0, 0])])


class Watcher:
    """Settles on the third identical frame, and has it read then with `read` (the desk's)."""

    def __init__(self, read):
        self.read = read
        self.last, self.still = None, 0

    def feed(self, image, t=None):
        level = int(image[0, 0, 0])
        self.still = self.still + 1 if level == self.last else 0
        self.last = level
        settled = self.still == 2
        state = "settled" if self.still >= 2 else "rolling"
        return type("S", (), {"state": state, "new": settled,
                              "reading": self.read(image, None) if settled else None})()


class FakePanel:
    def __init__(self):
        self.events = queue.Queue()
        self.lights = []

    def get(self, timeout=None):
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def set_lights(self, state):
        self.lights.append(state)

    def beep(self, times=1):
        pass


def make(tmp_path, reader=grey_level):
    camera = LiveCamera()
    session = Session(GameStore(tmp_path / "g.sqlite3"), load_profile(), camera=camera, reader=reader)
    session.new_game(SETUP)
    loop = TableLoop(session, FakePanel(), camera, watcher_factory=Watcher)
    return session, camera, loop


def test_a_settled_roll_is_read_once_and_proposed(tmp_path):
    session, camera, loop = make(tmp_path)
    for level in (1, 2, 5, 5, 5, 5, 5):       # rolling, then still
        camera.show(level)
        loop.watch_camera()
    proposal = session.proposal()
    assert proposal["input"]["dice"] == [1, 2, 3, 4, 5, 6, 5] and proposal["problem"] is None
    change = session.change_id
    camera.show(5)
    loop.watch_camera()                        # still the same roll: not read again
    assert session.change_id == change


def test_a_settled_roll_and_a_read_press_are_read_one_at_a_time_on_the_desks_thread(tmp_path):
    guard, inside, most, threads = threading.Lock(), [0], [0], []

    def slow_reader(frame):
        with guard:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            threads.append(threading.current_thread().name)
        time.sleep(0.3)             # long enough for the other reading to start meanwhile, were it free to
        with guard:
            inside[0] -= 1
        return grey_level(frame)

    session, camera, loop = make(tmp_path, reader=slow_reader)
    camera.capture = lambda timeout=None: camera.latest().image     # READ takes the frame shown
    for level in (5, 5):
        camera.show(level)
        loop.watch_camera()
    camera.show(5)                  # the third still frame: the watcher has it read...
    start = threading.Barrier(2)
    settle = threading.Thread(target=lambda: (start.wait(), loop.watch_camera()))
    press = threading.Thread(target=lambda: (start.wait(), session.desk.read_dice()))   # ...as READ is pressed
    settle.start(), press.start()
    settle.join(10), press.join(10)
    assert len(threads) == 2, "both the settled frame and READ were read"
    assert most[0] == 1, "the two readings overlapped"
    assert len(set(threads)) == 1 and threads[0].startswith("dice-reader")
    assert threading.current_thread().name not in threads
    assert session.proposal()["input"]["dice"] == [1, 2, 3, 4, 5, 6, 5]


@pytest.mark.parametrize("meanwhile", ["input", "new_game"])
def test_a_roll_entered_while_the_dice_settle_is_not_proposed_for_the_next_step(tmp_path, meanwhile):
    session, camera, loop = make(tmp_path)

    class EnteredMeanwhile(Watcher):
        def feed(self, image, t=None):
            status = super().feed(image)
            if status.new:   # the tablet lands between the settled frame and its reading
                if meanwhile == "input":
                    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
                    session.submit({"type": "pick", "area": "library"})   # and its only Book
                else:        # a new game awaits a gate roll at version 0 too
                    session.new_game(SETUP)
            return status

    loop.watcher_factory = EnteredMeanwhile
    for level in (5, 5, 5):
        camera.show(level)
        loop.watch_camera()
    assert session.snapshot()["reading"]["values"] == [1, 2, 3, 4, 5, 6, 5]   # shown...
    assert session.proposal() is None                                       # ...not proposed


def test_no_reading_while_no_roll_is_awaited(tmp_path):
    session, camera, loop = make(tmp_path)
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
    for level in (3, 3, 3, 3):
        camera.show(level)
        loop.watch_camera()
    assert session.snapshot()["reading"] is None   # a pick is awaited, not a roll


def test_panel_events_reach_the_session_in_order_from_another_thread(tmp_path):
    session, camera, loop = make(tmp_path)
    session.desk.read_dice(frame=np.zeros((8, 8, 3), np.uint8), reading=Reading([1, 2, 3, 4, 5, 6, 6]))
    loop.start()
    try:
        before = session.change_id
        sender = threading.Thread(target=lambda: [loop.panel.events.put(type("I", (), {"event": e})())
                                                  for e in ("confirm", "undo", "redo")])
        sender.start()
        sender.join()
        seen = before
        while session.game.version != 1 or seen < before + 3:
            seen = session.wait_for_change(seen, 5)
            assert seen > before, "the panel's events never reached the session"
        assert session.game.record.inputs[-1] == {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6],
                                                  "source": "camera"}
        assert not session.game.redo_stack
    finally:
        loop.stop()


class TimedCamera(LiveCamera):
    """Frames with the time they were taken, as hardware.supervisor.Frame has."""

    def __init__(self):
        super().__init__()
        self.clock = 0.0

    def show_die(self, value: int, x: int) -> None:
        """A light die at column x on a dark tray; its value in a corner pixel (no movement)."""
        image = np.full((60, 160, 3), 40, np.uint8)
        image[20:40, x:x + 20] = 230
        image[0, 0] = value
        self._seq += 1
        self.clock += 0.2                                    # 5 frames a second
        self._frame = TimedFrame(image, self._seq, self.clock)


@dataclass
class TimedFrame(Frame):
    time: float


def effect_roll(tmp_path, enter_settled_die=True, reads=None):
    """A session at L-high's roll of one die, and a table loop with a real settle watcher; the
    session's reader reads the value in the frame's corner (`reads`: what it reads instead)."""
    import vision

    camera = TimedCamera()
    session = Session(GameStore(tmp_path / "g.sqlite3"), load_profile(), camera=camera,
                      reader=lambda frame: Reading(reads if reads is not None else [int(frame[0, 0, 0])]),
                      enter_settled_die=enter_settled_die)
    session.new_game(dict(SETUP, tops={"library": "L-high"}))
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
    session.submit({"type": "pick", "area": "library"})   # its Book is taken with it; L-high rolls a die
    assert session.game.expected()["kind"] == "roll"
    loop = TableLoop(session, FakePanel(), camera,
                     watcher_factory=lambda read: vision.SettleWatcher(reader=read))
    return session, camera, loop


def roll_the_die(camera, loop, session, value):
    for _ in range(6):                  # the die of the gate roll still lies there: not this roll
        camera.show_die(4, 10)
        loop.watch_camera()
    assert session.proposal() is None
    for x in (30, 60, 90):              # the die is rolled...
        camera.show_die(4, x)
        loop.watch_camera()
    for _ in range(4):                  # ...and lies still
        camera.show_die(value, 110)
        loop.watch_camera()


def test_an_effect_roll_read_surely_once_still_is_entered_without_confirm(tmp_path):
    session, camera, loop = effect_roll(tmp_path)
    version = session.game.version
    roll_the_die(camera, loop, session, 2)
    assert session.game.record.inputs[version] == {"type": "roll", "value": 2, "source": "camera"}
    assert session.game.expected()["kind"] != "roll" and session.last_refusal is None
    # UNDO takes the roll back; the die still lying there is not proposed or entered again
    session.press("undo")
    assert session.game.version == version and session.game.expected()["kind"] == "roll"
    for _ in range(4):
        camera.show_die(2, 110)
        loop.watch_camera()
    assert session.game.version == version and session.proposal() is None
    session.desk.read_dice(frame=camera.latest().image, reading=Reading([5]))   # READ (the table re-reads)...
    assert session.game.version == version and session.proposal()["input"]["value"] == 5
    session.press("confirm")                                                    # ...and CONFIRMs
    assert session.game.record.inputs[version] == {"type": "roll", "value": 5, "source": "camera"}


def test_an_effect_roll_read_unsure_waits_for_the_table(tmp_path):
    session, camera, loop = effect_roll(tmp_path, reads=[None])
    version = session.game.version
    roll_the_die(camera, loop, session, 2)
    assert session.game.version == version and session.proposal()["problem"]
    session.desk.set_die(3)                                 # corrected on a tablet: CONFIRM enters it
    session.press("confirm")
    assert session.game.record.inputs[version] == {"type": "roll", "value": 3, "source": "corrected"}


def test_with_enter_settled_die_off_an_effect_roll_is_proposed_and_one_confirm_enters_it(tmp_path):
    session, camera, loop = effect_roll(tmp_path, enter_settled_die=False)
    version = session.game.version
    roll_the_die(camera, loop, session, 2)
    proposal = session.proposal()
    assert proposal["input"] == {"type": "roll", "value": 2, "source": "camera"} and not proposal["problem"]
    assert session.game.version == version
    session.press("confirm")            # the panel's CONFIRM
    assert session.game.record.inputs[version] == {"type": "roll", "value": 2, "source": "camera"}
    assert session.last_refusal is None
