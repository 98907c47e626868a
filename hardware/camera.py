"""The camera interface every frame source implements, its errors, and the
frame check shared by all sources.

A frame is a BGR ``uint8`` array of shape ``(height, width, 3)``: what OpenCV
and the dice reader work on. Sources convert to that before returning.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType

import numpy as np


class CameraError(Exception):
    """Base class of the camera errors."""


class CameraUnavailable(CameraError):
    """The source cannot give frames now (missing, unplugged, closed, ended).

    The message is shown to the players after "camera unavailable: ", so keep
    it short and human.
    """


class BadFrame(CameraError):
    """The source gave something that is not a usable picture.

    ``reason`` is a short human-readable explanation ("all black", ...).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# A lens cap, a dark room or a camera that has not settled gives frames whose
# brightest pixel is near zero: nothing can be read from them.
BLACK_LEVEL = 16


def check_frame(frame: object, *, black_level: int = BLACK_LEVEL) -> np.ndarray:
    """Return ``frame`` if it is a usable BGR picture, else raise :class:`BadFrame`.

    The checks are cheap (a max over the array) so they can run on every
    frame of a live stream.
    """
    if frame is None:
        raise BadFrame("no frame")
    if not isinstance(frame, np.ndarray):
        raise BadFrame(f"not an image array ({type(frame).__name__})")
    if frame.size == 0:
        raise BadFrame("empty frame")
    if frame.dtype != np.uint8:
        raise BadFrame(f"wrong pixel type {frame.dtype} (expected uint8)")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise BadFrame(f"wrong shape {frame.shape} (expected height x width x 3)")
    if int(frame.max()) < black_level:
        raise BadFrame("all black")
    return frame


class Camera(ABC):
    """A source of frames.

    Life cycle: ``open()`` -> ``read()`` ... -> ``close()``, and ``open()`` may
    be called again after ``close()`` (the supervisor re-opens a source that
    failed). Constructing a camera never touches the hardware.

    A camera is used by one thread at a time: the :class:`CameraSupervisor`'s
    worker owns it.
    """

    #: A live source gives a new picture on every read (a real camera, a
    #: video): the supervisor reads it continuously for the live stream. A
    #: source that is not live (a folder of photographs) moves on only when a
    #: picture is asked for, so each READ of the demo gets the next roll.
    live: bool = True

    @property
    @abstractmethod
    def name(self) -> str:
        """Short description for the logs and the status page."""

    @abstractmethod
    def open(self) -> None:
        """Acquire the device. Raises :class:`CameraUnavailable`."""

    @abstractmethod
    def read(self) -> np.ndarray:
        """Return the next frame (BGR uint8 HxWx3).

        Raises :class:`CameraUnavailable` when the device is gone and
        :class:`BadFrame` when it gave an unusable picture. Callers should
        still pass the result through :func:`check_frame`.
        """

    @abstractmethod
    def close(self) -> None:
        """Release the device. Safe to call twice or when open() failed."""

    @property
    def is_open(self) -> bool:
        return False

    def expect_dice(self, count: int | None, roll: object = None) -> None:
        """How many dice the game waits for (None: no roll), and `roll`, which changes with each
        roll awaited (the session's game_changes; None: not said). A camera sees what lies in
        the tray and ignores it; the demo camera shows a picture with that many dice, and, told
        the roll, rolls it by itself (hardware/demo.py)."""

    def __enter__(self) -> "Camera":
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class NoCamera(Camera):
    """The source used when none is configured: always unavailable.

    It lets the rest of the program treat "no camera" like "camera unplugged":
    the tablet asks for the dice to be typed in.
    """

    live = False

    def __init__(self, reason: str = "no camera configured") -> None:
        self._reason = reason

    @property
    def name(self) -> str:
        return "none"

    def open(self) -> None:
        raise CameraUnavailable(self._reason)

    def read(self) -> np.ndarray:
        raise CameraUnavailable(self._reason)

    def close(self) -> None:
        pass
