"""A USB camera or a video file, through OpenCV's VideoCapture."""

from __future__ import annotations

import os

import cv2
import numpy as np

from .camera import Camera, CameraUnavailable


class OpenCVCamera(Camera):
    """``device`` is a camera index (0 is ``/dev/video0``), a device path or a
    video file.

    ``width``/``height`` are requested from a camera (it may pick the nearest
    size it supports); they are ignored for files. A video file ends: with
    ``loop`` it starts again, without it the end is reported as
    :class:`CameraUnavailable`.
    """

    live = True

    def __init__(
        self,
        device: int | str | os.PathLike[str] = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        loop: bool = True,
        api_preference: int = cv2.CAP_ANY,
    ) -> None:
        # "0" from a config file or a command line means camera 0, not a file.
        if isinstance(device, str) and device.isdigit():
            device = int(device)
        self.device: int | str = device if isinstance(device, int) else os.fspath(device)
        self.width = width
        self.height = height
        self.loop = loop
        self.api_preference = api_preference
        self._cap: cv2.VideoCapture | None = None

    @property
    def name(self) -> str:
        if isinstance(self.device, int):
            return f"USB camera {self.device}"
        return f"video {self.device}"

    @property
    def is_file(self) -> bool:
        return isinstance(self.device, str) and os.path.isfile(self.device)

    @property
    def is_open(self) -> bool:
        return self._cap is not None

    def open(self) -> None:
        self.close()
        if isinstance(self.device, str) and not self.device.startswith("/dev/") \
                and not os.path.exists(self.device):
            # VideoCapture would also fail, but with a less helpful message.
            raise CameraUnavailable(f"{self.device} not found")
        cap = cv2.VideoCapture(self.device, self.api_preference)
        if not cap.isOpened():
            cap.release()
            raise CameraUnavailable(f"cannot open {self.name}")
        if not self.is_file:
            if self.width:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            if self.height:
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
            # Keep the driver's queue short so a READ sees the dice as they
            # are now, not as they were several frames ago.
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap = cap

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraUnavailable("camera not open")
        ok, frame = self._cap.read()
        if not ok and self.loop and self.is_file:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        if not ok or frame is None:
            # A USB camera pulled out mid-game shows up here: read() fails.
            if self.is_file:
                raise CameraUnavailable(f"end of {self.name}")
            raise CameraUnavailable(f"no picture from {self.name}")
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
