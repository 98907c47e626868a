"""The device: camera over the dice tray and the GPIO button panel.

Nothing here opens a camera or a pin at import time.

How the game session uses it (one session thread; everything else only
queues or reads)::

    camera = open_camera(config.camera, demo_folder=DEMO)   # started, never raises
    panel = open_panel(config.gpio)                          # mock pins off the Pi
    camera.add_listener(lambda status: wake_session())       # "unavailable: ..." / "ok"
    while running:
        panel.expect(events_the_prompt_can_use)              # others are dropped
        panel.set_lights("attention" if needs_the_tablet else "ready")
        item = panel.get(timeout=0.5)                        # PanelInput or None
        if item is None:
            continue
        if item.event is PanelEvent.READ:
            panel.set_lights("reading")
            try:
                frame = camera.capture(timeout=3)            # taken after the press
            except CameraUnavailable as exc:
                show(f"camera unavailable: type the dice in ({exc})")
            ...
    panel.close(); camera.stop()

The page's on-screen buttons and keys call ``panel.inject("confirm",
source="screen")``: the same queue as the physical buttons. The live stream
uses ``camera.next_frame(after=seq, timeout=1)`` and ``camera.status``.
"""

from .camera import BadFrame, Camera, CameraError, CameraUnavailable, NoCamera, check_frame
from .camera_factory import make_camera, open_camera
from .debounce import Gesture, PressLogic
from .folder_camera import ImageFolderCamera
from .lights import StatusLights
from .opencv_camera import OpenCVCamera
from .panel import Panel, PanelEvent, PanelInput, open_panel
from .picamera import PiCamera, picamera2_available
from .pins import PinMap, detect_pin_factory
from .supervisor import CameraStatus, CameraSupervisor, Frame

__all__ = [
    "BadFrame", "Camera", "CameraError", "CameraStatus", "CameraSupervisor",
    "CameraUnavailable", "Frame", "Gesture", "ImageFolderCamera", "NoCamera",
    "OpenCVCamera", "Panel", "PanelEvent", "PanelInput", "PiCamera", "PinMap",
    "PressLogic", "StatusLights", "check_frame", "detect_pin_factory",
    "make_camera", "open_camera", "open_panel", "picamera2_available",
]
