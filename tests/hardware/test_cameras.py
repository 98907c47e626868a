"""The frame check and the camera sources: a folder of images, a video file
through OpenCV, and the Pi camera through a stand-in picamera2 module."""

from __future__ import annotations

import importlib.machinery
import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import BadFrame, CameraUnavailable, NoCamera, check_frame
from hardware.camera_factory import make_camera, open_camera
from hardware.folder_camera import ImageFolderCamera
from hardware.opencv_camera import OpenCVCamera
from hardware.picamera import PiCamera, picamera2_available

COLOURS = [(40, 40, 200), (40, 200, 40), (200, 40, 40), (200, 200, 40)]  # BGR


def image(colour: tuple[int, int, int], size: tuple[int, int] = (48, 64)) -> np.ndarray:
    frame = np.zeros((*size, 3), np.uint8)
    frame[:] = colour
    return frame


def mean_colour(frame: np.ndarray) -> tuple[int, ...]:
    return tuple(int(round(c)) for c in frame.reshape(-1, 3).mean(axis=0))


def close_to(frame: np.ndarray, colour: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(mean_colour(frame), colour))


# ---- the frame check ---------------------------------------------------------


@pytest.mark.parametrize("frame, reason", [
    (None, "no frame"),
    ([[1, 2, 3]], "not an image array"),
    (np.zeros((0, 10, 3), np.uint8), "empty frame"),
    (np.full((10, 10, 3), 0.5, np.float32), "wrong pixel type"),
    (np.full((10, 10), 128, np.uint8), "wrong shape"),
    (np.full((10, 10, 4), 128, np.uint8), "wrong shape"),
    (np.full((10, 10, 3), 3, np.uint8), "all black"),
])
def test_bad_frames_are_rejected_with_a_reason(frame, reason) -> None:
    with pytest.raises(BadFrame) as caught:
        check_frame(frame)
    assert caught.value.reason.startswith(reason)


def test_a_good_frame_passes_as_is() -> None:
    frame = image(COLOURS[0])
    frame[0, 0] = 0
    assert check_frame(frame) is frame


# ---- a folder of images --------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    # Written out of order, with names whose order is not the writing order.
    for name, colour in (("roll-2.png", COLOURS[1]), ("roll-1.jpg", COLOURS[0]),
                         ("roll-3.jpeg", COLOURS[2])):
        assert cv2.imwrite(str(tmp_path / name), image(colour))
    (tmp_path / "notes.txt").write_text("not a picture")
    return tmp_path


def test_folder_images_are_played_in_name_order_and_loop(folder: Path) -> None:
    with ImageFolderCamera(folder) as camera:
        assert [p.name for p in camera.files] == ["roll-1.jpg", "roll-2.png", "roll-3.jpeg"]
        frames = [camera.read() for _ in range(4)]
    for frame, colour in zip(frames, COLOURS[:3] + COLOURS[:1]):
        assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
        assert close_to(frame, colour)


def test_without_loop_the_end_of_the_folder_is_unavailable(folder: Path) -> None:
    with ImageFolderCamera(folder, loop=False) as camera:
        for _ in range(3):
            camera.read()
        with pytest.raises(CameraUnavailable, match="no more images"):
            camera.read()
    camera.open()  # reopening starts again
    assert close_to(camera.read(), COLOURS[0])


def test_a_missing_or_empty_folder_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable, match="not found"):
        ImageFolderCamera(tmp_path / "nope").open()
    with pytest.raises(CameraUnavailable, match="no PNG or JPEG"):
        ImageFolderCamera(tmp_path).open()


def test_a_corrupt_image_is_a_bad_frame_and_the_next_one_reads(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"\x89PNG broken")
    cv2.imwrite(str(tmp_path / "b.png"), image(COLOURS[3]))
    with ImageFolderCamera(tmp_path) as camera:
        with pytest.raises(BadFrame, match="a.png"):
            camera.read()
        assert close_to(camera.read(), COLOURS[3])


def test_a_grey_image_comes_out_as_bgr(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((20, 30), 150, np.uint8))
    with ImageFolderCamera(tmp_path) as camera:
        assert camera.read().shape == (20, 30, 3)


# ---- a video file through OpenCV ---------------------------------------------------


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "tray.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for colour in COLOURS:
        writer.write(image(colour))
    writer.release()
    return path


def test_a_video_file_plays_its_frames_then_loops(video: Path) -> None:
    with OpenCVCamera(video) as camera:
        assert camera.is_file and camera.live
        frames = [camera.read() for _ in range(len(COLOURS) + 1)]
    assert all(f.shape == (48, 64, 3) for f in frames)
    for frame, colour in zip(frames, COLOURS + COLOURS[:1]):
        assert close_to(frame, colour), (mean_colour(frame), colour)


def test_the_end_of_a_video_without_loop_is_unavailable(video: Path) -> None:
    with OpenCVCamera(str(video), loop=False) as camera:
        for _ in COLOURS:
            camera.read()
        with pytest.raises(CameraUnavailable, match="end of video"):
            camera.read()
    assert not camera.is_open


def test_a_missing_video_or_device_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(CameraUnavailable, match="not found"):
        OpenCVCamera(tmp_path / "gone.avi").open()
    camera = OpenCVCamera(tmp_path / "gone.avi")
    with pytest.raises(CameraUnavailable, match="not open"):
        camera.read()


def test_a_device_number_in_a_string_is_a_camera_index() -> None:
    assert OpenCVCamera("0").device == 0
    assert OpenCVCamera("0").name == "USB camera 0"
    assert OpenCVCamera("/dev/video2").device == "/dev/video2"


# ---- the Pi camera, with a stand-in picamera2 -------------------------------------


class FakePicamera2:
    cameras: list[dict] = [{"Model": "imx708"}]
    instances: list["FakePicamera2"] = []
    fail_capture = False

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.config = None
        self.calls: list[str] = []
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return FakePicamera2.cameras

    def create_video_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        self.calls.append("start")

    def capture_array(self, name: str = "main", wait=None) -> np.ndarray:
        if FakePicamera2.fail_capture:
            raise RuntimeError("Camera frontend has timed out!")
        w, h = self.config["main"]["size"]
        frame = np.zeros((h, w, 4), np.uint8)
        frame[:, :, :3] = COLOURS[2]
        frame[:, :, 3] = 255
        return frame

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.__spec__ = importlib.machinery.ModuleSpec("picamera2", None)
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(FakePicamera2, "cameras", [{"Model": "imx708"}])
    monkeypatch.setattr(FakePicamera2, "instances", [])
    monkeypatch.setattr(FakePicamera2, "fail_capture", False)
    return FakePicamera2


def test_the_pi_camera_gives_bgr_frames_of_the_asked_size(fake_picamera2) -> None:
    assert picamera2_available()
    with PiCamera(width=64, height=48) as camera:
        (cam,) = fake_picamera2.instances
        assert cam.config["main"] == {"size": (64, 48), "format": "RGB888"}
        frame = camera.read()
    assert frame.shape == (48, 64, 3) and close_to(frame, COLOURS[2])
    check_frame(frame)
    assert cam.calls == ["start", "stop", "close"]


def test_no_pi_camera_connected_is_unavailable(fake_picamera2) -> None:
    fake_picamera2.cameras = []
    with pytest.raises(CameraUnavailable, match="no Pi camera"):
        PiCamera().open()


def test_a_pi_camera_that_stops_answering_is_unavailable(fake_picamera2) -> None:
    with PiCamera(width=64, height=48) as camera:
        fake_picamera2.fail_capture = True
        with pytest.raises(CameraUnavailable, match="timed out"):
            camera.read()


def test_without_picamera2_the_message_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    assert not picamera2_available()
    with pytest.raises(CameraUnavailable, match="apt install python3-picamera2"):
        PiCamera().open()


# ---- choosing the source -----------------------------------------------------------


def test_auto_picks_the_pi_camera_when_picamera2_is_there(fake_picamera2) -> None:
    camera = make_camera({"source": "auto", "width": 640, "height": 480}, demo_folder="/x")
    assert isinstance(camera, PiCamera) and (camera.width, camera.height) == (640, 480)


def test_auto_on_a_pc_plays_the_demo_images_or_has_no_camera(monkeypatch, folder) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    demo = make_camera({"source": "auto"}, demo_folder=folder)
    assert isinstance(demo, ImageFolderCamera) and demo.folder == folder
    assert isinstance(make_camera({"source": "auto"}), NoCamera)


def test_explicit_sources(folder: Path, video: Path) -> None:
    usb = make_camera({"source": "opencv", "device": "1", "width": 320, "height": 240})
    assert isinstance(usb, OpenCVCamera) and usb.device == 1 and usb.width == 320
    assert isinstance(make_camera({"source": "opencv", "device": str(video)}), OpenCVCamera)
    files = make_camera({"source": "folder", "folder": folder, "loop": False})
    assert isinstance(files, ImageFolderCamera) and not files.loop
    assert isinstance(make_camera({"source": "none"}), NoCamera)


@pytest.mark.parametrize("config, needle", [
    ({"source": "webcam"}, "one of"),
    ({"source": "folder", "folder": None}, "needs a"),
    ({"source": "opencv", "width": "wide"}, "whole number"),
])
def test_a_wrong_camera_config_is_refused(config, needle) -> None:
    with pytest.raises(ValueError, match=needle):
        make_camera(config)


def test_open_camera_supervises_the_source(folder: Path) -> None:
    supervisor = open_camera({"source": "folder", "folder": str(folder)})
    try:
        assert close_to(supervisor.capture(timeout=2), COLOURS[0])
        assert close_to(supervisor.capture(timeout=2), COLOURS[1])
    finally:
        supervisor.stop()


def test_the_folder_camera_shrinks_a_photo_larger_than_a_camera_frame(tmp_path):
    import cv2
    import numpy as np

    from hardware.folder_camera import ImageFolderCamera

    big = np.full((3040, 4056, 3), 200, np.uint8)
    cv2.imwrite(str(tmp_path / "01-big.png"), big)
    cv2.imwrite(str(tmp_path / "02-small.png"), big[:480, :640])
    cam = ImageFolderCamera(tmp_path)
    cam.open()
    first, second = cam.read(), cam.read()
    assert first.shape == (1439, 1920, 3)                 # the long side at MAX_SIDE, aspect kept
    assert second.shape == (480, 640, 3)                  # a frame that fits is kept as it is
