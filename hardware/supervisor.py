"""Keeps a camera going for the whole game.

A camera that is missing, unplugged mid-game or gives bad pictures must not
stop the game: the supervisor reports it (the tablet then asks for the dice
to be typed in), keeps retrying in the background with a growing delay, and
picks the camera up again when it comes back, without a restart.

Threading: one worker thread owns the camera (only it calls open, read and
close; camera drivers are not thread-safe). Other threads talk to it through
``capture()``, ``latest()``, ``next_frame()`` and ``status``, all guarded by
one condition variable.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable, Literal

import numpy as np

from .camera import BLACK_LEVEL, BadFrame, Camera, CameraUnavailable, check_frame

log = logging.getLogger(__name__)

Clock = Callable[[], float]
StatusState = Literal["starting", "ok", "not_reading", "unavailable"]


@dataclass(frozen=True)
class CameraStatus:
    """``str(status)`` is ``"ok"``, ``"starting"``, ``"not_reading: <reason>"`` (the camera
    answers, but its pictures cannot be used) or ``"unavailable: <reason>"``."""

    state: StatusState
    reason: str = ""
    since: float = 0.0

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    @property
    def message(self) -> str:
        """What the tablet shows while the camera cannot be used."""
        if self.state == "unavailable":
            return "camera unavailable: type the dice in"
        if self.state == "not_reading":
            return f"camera not reading ({self.reason}): type the dice in"
        if self.state == "starting":
            return "camera starting"
        return "camera ready"

    def __str__(self) -> str:
        if self.state in ("unavailable", "not_reading"):
            return f"{self.state}: {self.reason}"
        return self.state


@dataclass(frozen=True)
class Frame:
    """A good frame. ``image`` is shared between threads and read-only: copy
    it before drawing on it."""

    image: np.ndarray
    seq: int       # 1, 2, 3 ... in the order the frames were taken
    time: float    # clock time the read started


class CameraSupervisor:
    """Wraps a :class:`Camera`; see the module docstring.

    ``fps`` paces the reads of a live source (the live stream on the tablet).
    A source that is not live is read only when ``capture()`` asks.
    ``bad_frame_limit`` bad frames in a row count as the camera failing.
    The retry delay starts at ``retry_initial`` seconds and doubles up to
    ``retry_max``; a ``capture()`` while unavailable retries at once.
    """

    def __init__(
        self,
        camera: Camera,
        *,
        fps: float = 5.0,
        retry_initial: float = 0.5,
        retry_max: float = 10.0,
        bad_frame_limit: int = 3,
        black_level: int = BLACK_LEVEL,
        clock: Clock = time.monotonic,
    ) -> None:
        if fps <= 0:
            raise ValueError("fps must be positive")
        self.camera = camera
        self.fps = fps
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self.bad_frame_limit = max(1, bad_frame_limit)
        self.black_level = black_level
        self._clock = clock

        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._kick = False                      # retry now (a capture is waiting)
        self._request_time: float | None = None  # a capture wants a frame taken after this
        self._latest: Frame | None = None
        self._seq = 0
        self._fail_seq = 0                      # bumps on every failure, wakes captures
        self._fail_reason = ""
        self._status = CameraStatus("starting", since=clock())
        self._listeners: list[Callable[[CameraStatus], None]] = []
        self.frames_rejected = 0
        self.last_rejection: str | None = None
        self._last_error: tuple[str, float] | None = None  # (why, wall-clock time)

    # ---- life cycle -------------------------------------------------------

    def start(self) -> "CameraSupervisor":
        with self._cond:
            if self._thread is not None:
                return self
            self._stopping = False
            self._thread = threading.Thread(
                target=self._run, name="camera-supervisor", daemon=True
            )
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def __enter__(self) -> "CameraSupervisor":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- what the other threads use --------------------------------------

    @property
    def status(self) -> CameraStatus:
        with self._cond:
            return self._status

    @property
    def last_error(self) -> tuple[str, float] | None:
        """The last failure (why, and when as time.time()), kept after the camera is back."""
        with self._cond:
            return self._last_error

    def add_listener(self, listener: Callable[[CameraStatus], None]) -> None:
        """``listener(status)`` is called on every change of state or reason,
        from the worker thread: keep it short (put it on a queue)."""
        with self._cond:
            self._listeners.append(listener)

    def wait_for_status(self, state: StatusState, timeout: float) -> bool:
        """Block until the status is ``state``; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._status.state == state, timeout)

    def latest(self) -> Frame | None:
        """The last good frame (None before the first one). It is kept while
        the camera is unavailable so the page can still show it."""
        with self._cond:
            return self._latest

    def next_frame(self, after: int, timeout: float) -> Frame | None:
        """The first good frame with ``seq > after``, waiting up to ``timeout``
        seconds (for the live stream: no polling). None on timeout."""
        with self._cond:
            self._cond.wait_for(
                lambda: self._stopping
                or (self._latest is not None and self._latest.seq > after),
                timeout,
            )
            if self._latest is not None and self._latest.seq > after:
                return self._latest
            return None

    def expect_dice(self, count: int | None, roll: object = None) -> None:
        """Tell the camera how many dice the game waits for (see Camera.expect_dice). A source
        that turns live by it (the demo camera rolling) is read from now on, paced by `fps`."""
        with self._cond:
            was_live = self.camera.live
            self.camera.expect_dice(count, roll)
            if self.camera.live and not was_live and self._thread is not None:
                self._request_time = self._clock()     # wakes the worker, which then reads it live
                self._cond.notify_all()

    def capture(self, timeout: float = 3.0) -> np.ndarray:
        """A good frame taken after this call (the dice as they are now), as
        a writable copy. Raises :class:`CameraUnavailable` with the reason
        when the camera cannot give one, so the caller asks for typed dice.
        """
        with self._cond:
            if self._thread is None:
                raise CameraUnavailable("camera not started")
            asked = self._clock()
            fail_seq = self._fail_seq
            if self._request_time is None or self._request_time > asked:
                self._request_time = asked
            if self._status.state == "unavailable":
                self._kick = True  # someone needs it now: do not wait the back-off
            self._cond.notify_all()

            def done() -> bool:
                return (
                    self._stopping
                    or self._fail_seq != fail_seq
                    or (self._latest is not None and self._latest.time >= asked)
                )

            if not self._cond.wait_for(done, timeout):
                raise CameraUnavailable("no picture in time")
            if self._latest is not None and self._latest.time >= asked:
                return self._latest.image.copy()
            if self._stopping:
                raise CameraUnavailable("camera stopped")
            raise CameraUnavailable(self._fail_reason)

    # ---- the worker --------------------------------------------------------

    def _run(self) -> None:
        cam = self.camera
        delay = self.retry_initial
        opened = False
        bad_in_a_row = 0
        next_read = 0.0
        try:
            while True:
                with self._cond:
                    if self._stopping:
                        return
                if not opened:
                    try:
                        cam.open()
                    except Exception as exc:
                        self._fail(_reason(exc))
                        delay = self._back_off(delay)
                        continue
                    opened = True
                    bad_in_a_row = 0
                    log.info("camera %s opened", cam.name)
                    if not cam.live and self.status.state != "not_reading":
                        # Reading would use up a picture of the demo folder: an open
                        # folder is ready (one whose pictures failed stays not reading).
                        self._set_status("ok")

                with self._cond:
                    if cam.live:
                        self._cond.wait_for(
                            lambda: self._stopping or self._request_time is not None,
                            max(0.0, next_read - self._clock()),
                        )
                    else:
                        self._cond.wait_for(
                            lambda: self._stopping or self._request_time is not None
                        )
                    if self._stopping:
                        return

                started = self._clock()
                next_read = started + 1.0 / self.fps
                try:
                    image = check_frame(cam.read(), black_level=self.black_level)
                except BadFrame as exc:
                    bad_in_a_row += 1
                    with self._cond:
                        self.frames_rejected += 1
                        self.last_rejection = exc.reason
                    log.debug("frame rejected: %s", exc.reason)
                    if bad_in_a_row >= self.bad_frame_limit:
                        opened = _close(cam)
                        self._fail(f"bad pictures ({exc.reason})", state="not_reading")
                        delay = self._back_off(delay)
                    elif not cam.live:
                        # No next frame is coming by itself: answer the capture.
                        self._fail(f"bad picture ({exc.reason})", state="not_reading")
                    continue
                except Exception as exc:
                    opened = _close(cam)
                    self._fail(_reason(exc))
                    delay = self._back_off(delay)
                    continue
                bad_in_a_row = 0
                delay = self.retry_initial
                self._publish(image, started)
        finally:
            _close(cam)

    def _publish(self, image: np.ndarray, started: float) -> None:
        image.flags.writeable = False
        with self._cond:
            self._seq += 1
            self._latest = Frame(image, self._seq, started)
            if self._request_time is not None and started >= self._request_time:
                self._request_time = None
            self._cond.notify_all()
        self._set_status("ok")

    def _fail(self, reason: str, *, state: StatusState = "unavailable") -> None:
        with self._cond:
            self._fail_seq += 1
            self._fail_reason = reason
            self._request_time = None  # the waiting captures get the failure
            new_error = self._last_error is None or self._last_error[0] != reason
            self._last_error = (reason, time.time())
            self._cond.notify_all()
        if not self._set_status(state, reason) and new_error:
            self._tell(self.status)  # the same state, another error: the page shows it

    def _back_off(self, delay: float) -> float:
        with self._cond:
            self._cond.wait_for(lambda: self._stopping or self._kick, delay)
            self._kick = False
        return min(delay * 2, self.retry_max)

    def _set_status(self, state: StatusState, reason: str = "") -> bool:
        """Whether the status changed (the listeners are told)."""
        with self._cond:
            old = self._status
            if old.state == state and old.reason == reason:
                return False
            self._status = status = CameraStatus(state, reason, self._clock())
            self._cond.notify_all()
        if state in ("unavailable", "not_reading"):
            log.warning("camera %s: %s", state.replace("_", " "), reason)
        elif old.state in ("unavailable", "not_reading"):
            log.info("camera back")
        self._tell(status)
        return True

    def _tell(self, status: CameraStatus) -> None:
        with self._cond:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(status)
            except Exception:
                log.exception("camera status listener failed")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, CameraUnavailable):
        return str(exc) or "camera unavailable"
    return f"{type(exc).__name__}: {exc}"


def _close(cam: Camera) -> bool:
    """Close and return False (the new value of "opened")."""
    try:
        cam.close()
    except Exception:
        log.exception("closing camera %s failed", cam.name)
    return False
