"""Choose the camera source from the configuration.

The ``[camera]`` section of the configuration, as a dict or as the
config's dataclass::

    source = "auto"      # auto | picamera | opencv | folder | demo | none
    device = 0           # opencv: camera index, /dev/videoN or a video file
    folder = "photos/"   # folder: images played in order
    width = 1280         # requested picture size (picamera, opencv camera)
    height = 720
    fps = 5              # optional: reads per second of a live source
    loop = true          # optional: folder / video file start again at the end
    camera_num = 0       # optional: picamera, which CSI camera

"demo" plays the folder of demo images the caller passes as
``demo_folder``. "auto" uses the Pi camera when picamera2 can be imported,
otherwise the demo images (a PC), otherwise no camera (dice are typed in).
A USB camera is never guessed: ask for it with "opencv".
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from .camera import Camera, NoCamera
from .demo import DemoCamera
from .folder_camera import ImageFolderCamera
from .opencv_camera import OpenCVCamera
from .picamera import PiCamera, picamera2_available
from .pins import as_dict
from .supervisor import CameraSupervisor

SOURCES = ("auto", "picamera", "opencv", "folder", "demo", "none")


def make_camera(
    config: Mapping[str, Any] | Any = None,
    *,
    demo_folder: str | os.PathLike[str] | None = None,
) -> Camera:
    """Build the source the configuration asks for, without opening it.

    Raises ``ValueError`` for a configuration that cannot be right (an unknown
    source, a folder source without a folder): that is a mistake to fix, not a
    camera to wait for.
    """
    config = as_dict(config)
    source = str(config.get("source", "auto")).strip().lower()
    if source not in SOURCES:
        raise ValueError(f"camera source must be one of {', '.join(SOURCES)}, not {source!r}")
    width = _opt_int(config, "width")
    height = _opt_int(config, "height")
    loop = bool(config.get("loop", True))
    folder = config.get("folder")

    if source == "auto":
        if picamera2_available():
            source = "picamera"
        elif demo_folder is not None:
            source = "demo"
        else:
            return NoCamera("no camera found (picamera2 not installed)")
    if source == "demo":
        if demo_folder is None:
            return NoCamera("no demo images")
        return DemoCamera(demo_folder, loop=loop)

    if source == "picamera":
        kwargs: dict[str, Any] = {"camera_num": int(config.get("camera_num", 0))}
        if width:
            kwargs["width"] = width
        if height:
            kwargs["height"] = height
        return PiCamera(**kwargs)
    if source == "opencv":
        return OpenCVCamera(config.get("device", 0), width=width, height=height, loop=loop)
    if source == "folder":
        if not folder:
            raise ValueError('camera source "folder" needs a "folder"')
        return ImageFolderCamera(folder, loop=loop)
    return NoCamera()


def open_camera(
    config: Mapping[str, Any] | Any = None,
    *,
    demo_folder: str | os.PathLike[str] | None = None,
    **supervisor_kwargs: Any,
) -> CameraSupervisor:
    """The configured source inside a started :class:`CameraSupervisor`.

    Never raises for a missing camera: the supervisor reports it as
    unavailable and keeps retrying.
    """
    config = as_dict(config)
    camera = make_camera(config, demo_folder=demo_folder)
    if "fps" in config and "fps" not in supervisor_kwargs:
        supervisor_kwargs["fps"] = float(config["fps"])
    return CameraSupervisor(camera, **supervisor_kwargs).start()


def _opt_int(config: Mapping[str, Any], key: str) -> int | None:
    value = config.get(key)
    if value is None or value == "" or value == 0:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"camera {key} must be a whole number, not {value!r}") from None
