"""The Raspberry Pi camera through picamera2.

picamera2 comes from Debian's ``python3-picamera2`` package (never from pip:
it needs the system libcamera), and is seen by the virtual environment made
with ``--system-site-packages``. It is imported only when a camera is opened,
so this module imports fine on a PC.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import numpy as np

from .camera import BadFrame, Camera, CameraUnavailable


def picamera2_available() -> bool:
    """True when picamera2 can be imported (without importing it: its import
    starts libcamera, which is slow)."""
    try:
        return importlib.util.find_spec("picamera2") is not None
    except (ImportError, ValueError):
        return False


class PiCamera(Camera):
    """A camera module on the Pi's CSI connector."""

    live = True

    def __init__(
        self,
        *,
        camera_num: int = 0,
        width: int = 1640,
        height: int = 1232,
        timeout: float = 2.0,
    ) -> None:
        self.camera_num = camera_num
        self.width = width
        self.height = height
        self.timeout = timeout
        self._cam: Any = None

    @property
    def name(self) -> str:
        return f"Pi camera {self.camera_num}"

    @property
    def is_open(self) -> bool:
        return self._cam is not None

    def open(self) -> None:
        self.close()
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError as exc:
            raise CameraUnavailable(
                "picamera2 is not installed (apt install python3-picamera2)"
            ) from exc
        Picamera2 = picamera2.Picamera2
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera errors are not typed
            raise CameraUnavailable(f"libcamera: {exc}") from exc
        if len(cameras) <= self.camera_num:
            raise CameraUnavailable("no Pi camera connected")
        cam = None
        try:
            cam = Picamera2(self.camera_num)
            # "RGB888" is, despite its name, B,G,R in memory: OpenCV's order.
            config = cam.create_video_configuration(
                main={"size": (self.width, self.height), "format": "RGB888"}
            )
            cam.configure(config)
            cam.start()
        except Exception as exc:
            # Busy (another process holds it), unsupported size, ...
            if cam is not None:
                _close_quietly(cam)
            raise CameraUnavailable(f"cannot start {self.name}: {exc}") from exc
        self._cam = cam

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraUnavailable("camera not open")
        try:
            try:
                # Newer picamera2 takes a timeout here, so a camera that
                # stopped answering does not block the worker for ever.
                frame = self._cam.capture_array("main", wait=self.timeout)
            except TypeError:
                frame = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraUnavailable(f"{self.name} stopped: {exc}") from exc
        if not isinstance(frame, np.ndarray):
            raise BadFrame("no frame")
        if frame.ndim == 3 and frame.shape[2] == 4:
            # XRGB/XBGR formats carry an unused fourth byte.
            frame = np.ascontiguousarray(frame[:, :, :3])
        return frame

    def close(self) -> None:
        if self._cam is not None:
            cam, self._cam = self._cam, None
            _close_quietly(cam)


def _close_quietly(cam: Any) -> None:
    for method in ("stop", "close"):
        try:
            getattr(cam, method)()
        except Exception:
            pass
