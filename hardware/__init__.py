"""The device: camera over the dice tray and the GPIO button panel.

Nothing here opens a camera or a pin at import time.
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
