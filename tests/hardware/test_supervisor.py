"""The camera supervisor: failures are reported, retried, and recovered from
without a restart. Waits are bounded waits on events, never bare sleeps."""

from __future__ import annotations

import queue
import threading

import numpy as np
import pytest

from hardware.camera import Camera, CameraUnavailable
from hardware.folder_camera import ImageFolderCamera
from hardware.supervisor import CameraStatus, CameraSupervisor

WAIT = 3.0
FAST = {"retry_initial": 0.01, "retry_max": 0.02, "fps": 200}


NO_FRAME = object()  # scripted read that returns None


def picture(value: int) -> np.ndarray:
    return np.full((8, 8, 3), value, np.uint8)


class ScriptedCamera(Camera):
    """A source whose next results the test scripts.

    ``opens`` and ``reads`` are lists of outcomes used in turn (an exception
    to raise, or for reads an array to return); when a list runs out, open
    succeeds and reads return numbered good frames (value 100, 101, ...).
    """

    def __init__(self, *, live: bool = True) -> None:
        self.live = live
        self.opens: list[BaseException | None] = []
        self.reads: list[object] = []
        self.open_calls = 0
        self.close_calls = 0
        self.reads_done = 0
        self._open = False
        self.lock = threading.Lock()

    @property
    def name(self) -> str:
        return "scripted"

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        with self.lock:
            self.open_calls += 1
            outcome = self.opens.pop(0) if self.opens else None
        if outcome is not None:
            raise outcome
        self._open = True

    def read(self) -> np.ndarray:
        with self.lock:
            outcome = self.reads.pop(0) if self.reads else None
            self.reads_done += 1
            n = self.reads_done
        if isinstance(outcome, BaseException):
            raise outcome
        if outcome is NO_FRAME:
            return None  # type: ignore[return-value]
        if outcome is not None:
            return outcome  # type: ignore[return-value]
        return picture(100 + n % 100)

    def close(self) -> None:
        self.close_calls += 1
        self._open = False


def watch(supervisor: CameraSupervisor) -> "queue.Queue[str]":
    statuses: queue.Queue[str] = queue.Queue()
    supervisor.add_listener(lambda status: statuses.put(str(status)))
    return statuses


def next_status(statuses: "queue.Queue[str]") -> str:
    return statuses.get(timeout=WAIT)


def test_a_missing_camera_is_retried_and_comes_back_without_restart() -> None:
    camera = ScriptedCamera()
    camera.opens = [CameraUnavailable("unplugged")] * 3
    supervisor = CameraSupervisor(camera, **FAST)
    statuses = watch(supervisor)
    with supervisor:
        assert next_status(statuses) == "unavailable: unplugged"
        assert next_status(statuses) == "ok"
        assert camera.open_calls == 4
        assert supervisor.status.ok
        assert supervisor.capture(timeout=WAIT).shape == (8, 8, 3)


def test_a_camera_unplugged_mid_game_goes_unavailable_then_ok() -> None:
    camera = ScriptedCamera()
    supervisor = CameraSupervisor(camera, **FAST)
    statuses = watch(supervisor)
    with supervisor:
        assert next_status(statuses) == "ok"
        before = supervisor.latest()
        assert before is not None
        # opens first: they are used only once the read has failed.
        camera.opens = [CameraUnavailable("cannot open USB camera 0")] * 2
        camera.reads = [CameraUnavailable("no picture from USB camera 0")]
        assert next_status(statuses) == "unavailable: no picture from USB camera 0"
        # The reason follows what is going on while it retries.
        assert next_status(statuses) == "unavailable: cannot open USB camera 0"
        assert next_status(statuses) == "ok"
        assert camera.close_calls >= 1 and camera.open_calls == 4
        after = supervisor.next_frame(before.seq, timeout=WAIT)
        assert after is not None and after.seq > before.seq


def test_the_last_good_frame_is_kept_while_unavailable() -> None:
    camera = ScriptedCamera()
    supervisor = CameraSupervisor(camera, retry_initial=60, fps=200)  # no retry in the test
    with supervisor:
        assert supervisor.wait_for_status("ok", WAIT)
        camera.opens = [CameraUnavailable("gone")] * 10
        camera.reads = [CameraUnavailable("gone")]
        assert supervisor.wait_for_status("unavailable", WAIT)
        kept = supervisor.latest()
        assert kept is not None and kept.image.mean() >= 100
        assert supervisor.status.message == "camera unavailable: type the dice in"


def test_bad_frames_are_rejected_and_many_in_a_row_make_it_not_reading() -> None:
    camera = ScriptedCamera()
    camera.reads = [picture(0)] * 3  # a lens cap
    supervisor = CameraSupervisor(camera, bad_frame_limit=3, **FAST)
    statuses = watch(supervisor)
    with supervisor:
        assert next_status(statuses) == "not_reading: bad pictures (all black)"
        assert supervisor.last_error[0] == "bad pictures (all black)"
        assert next_status(statuses) == "ok"
        assert supervisor.frames_rejected == 3
        assert supervisor.last_rejection == "all black"
        assert camera.open_calls == 2  # re-opened once


def test_a_single_bad_frame_is_skipped_without_a_status_change() -> None:
    camera = ScriptedCamera()
    camera.reads = [picture(120), NO_FRAME, np.zeros((0, 0, 3), np.uint8)] + [picture(130)] * 2000
    supervisor = CameraSupervisor(camera, **FAST)
    statuses = watch(supervisor)
    with supervisor:
        assert next_status(statuses) == "ok"
        frame = supervisor.next_frame(1, timeout=WAIT)
        assert frame is not None and frame.image[0, 0, 0] == 130
        assert supervisor.frames_rejected == 2
        assert supervisor.last_rejection == "empty frame"
        assert supervisor.status.ok and statuses.empty()


def test_capture_gives_a_frame_taken_after_the_call() -> None:
    camera = ScriptedCamera()
    supervisor = CameraSupervisor(camera, fps=200)
    with supervisor:
        assert supervisor.wait_for_status("ok", WAIT)
        seen = supervisor.latest()
        image = supervisor.capture(timeout=WAIT)
        latest = supervisor.latest()
        assert latest is not None and seen is not None and latest.seq > seen.seq
        image[0, 0] = 0  # the copy is the caller's own
        assert not latest.image.flags.writeable


def test_capture_while_unavailable_retries_at_once() -> None:
    camera = ScriptedCamera()
    camera.opens = [CameraUnavailable("unplugged")]
    supervisor = CameraSupervisor(camera, retry_initial=60, fps=200)  # a long back-off
    with supervisor:
        assert supervisor.wait_for_status("unavailable", WAIT)
        # Plugged back in; a READ should not wait a minute for the retry.
        image = supervisor.capture(timeout=WAIT)
        assert image.shape == (8, 8, 3) and supervisor.status.ok


def test_capture_from_a_missing_camera_fails_fast_with_the_reason() -> None:
    camera = ScriptedCamera()
    camera.opens = [CameraUnavailable("no Pi camera connected")] * 100
    supervisor = CameraSupervisor(camera, retry_initial=60)
    with supervisor:
        assert supervisor.wait_for_status("unavailable", WAIT)
        with pytest.raises(CameraUnavailable, match="no Pi camera connected"):
            supervisor.capture(timeout=WAIT)


def test_capture_before_start_is_unavailable() -> None:
    with pytest.raises(CameraUnavailable, match="not started"):
        CameraSupervisor(ScriptedCamera()).capture(timeout=0.1)


def test_a_folder_is_ready_at_once_and_moves_on_only_when_asked(tmp_path) -> None:
    import cv2
    for n in range(3):
        cv2.imwrite(str(tmp_path / f"{n}.png"), picture(100 + 50 * n))
    supervisor = CameraSupervisor(ImageFolderCamera(tmp_path), fps=200)
    with supervisor:
        assert supervisor.wait_for_status("ok", WAIT)
        assert supervisor.latest() is None  # nothing read just for the stream
        values = [int(supervisor.capture(timeout=WAIT)[0, 0, 0]) for _ in range(4)]
    assert values == [100, 150, 200, 100]


def test_a_bad_image_in_the_folder_fails_that_capture_only(tmp_path) -> None:
    camera = ScriptedCamera(live=False)
    camera.reads = [picture(1)]
    supervisor = CameraSupervisor(camera)
    with supervisor:
        with pytest.raises(CameraUnavailable, match="bad picture \\(all black\\)"):
            supervisor.capture(timeout=WAIT)
        assert str(supervisor.status) == "not_reading: bad picture (all black)"
        assert supervisor.capture(timeout=WAIT).mean() >= 100
        assert supervisor.status.ok
        assert supervisor.last_error[0] == "bad picture (all black)", "the last error is kept, with its time"


def test_stop_closes_the_camera_and_ends_the_worker() -> None:
    camera = ScriptedCamera()
    supervisor = CameraSupervisor(camera, fps=200).start()
    assert supervisor.wait_for_status("ok", WAIT)
    thread = supervisor._thread
    supervisor.stop()
    assert thread is not None and not thread.is_alive()
    assert not camera.is_open
    with pytest.raises(CameraUnavailable):
        supervisor.capture(timeout=0.1)


def test_status_strings() -> None:
    assert str(CameraStatus("ok")) == "ok"
    assert str(CameraStatus("unavailable", "unplugged")) == "unavailable: unplugged"
    assert CameraStatus("ok").message == "camera ready"


def test_a_folder_of_unreadable_pictures_is_steadily_not_reading(tmp_path) -> None:
    # It once flipped between "ok" (the folder opens) and "unavailable" (its pictures fail)
    # every few seconds, and the reason was nowhere on the page.
    for n in range(2):
        (tmp_path / f"0{n}-roll.jpg").write_bytes(b"\xff\xd8\xff\xe0 not a picture at all")
    supervisor = CameraSupervisor(ImageFolderCamera(tmp_path), bad_frame_limit=3, **FAST)
    statuses = watch(supervisor)
    with supervisor:
        assert next_status(statuses) == "ok"  # opened: nothing read yet
        for _ in range(8):  # past the bad-frame limit: closed, re-opened, read again
            with pytest.raises(CameraUnavailable, match="roll.jpg"):
                supervisor.capture(timeout=WAIT)
            assert supervisor.status.state == "not_reading"
        why, when = supervisor.last_error
        assert "01-roll.jpg" in why or "00-roll.jpg" in why
        assert when > 0
    seen = []
    while not statuses.empty():
        seen.append(statuses.get_nowait())
    assert all(not s.startswith("ok") and not s.startswith("unavailable") for s in seen), seen
