"""A picture no camera sends, dropped in the camera's folder, is refused in one line, and the
camera's status says why (it does not take the server to gigabytes)."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from hardware.camera import BadFrame, CameraUnavailable
from hardware.folder_camera import ImageFolderCamera
from hardware.supervisor import CameraSupervisor

WAIT = 3.0


def bomb_png(width: int = 30000, height: int = 30000) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * (width * 3 + 1) * 2, 9)) + chunk(b"IEND", b""))


def good_jpeg() -> bytes:
    img = np.full((120, 160, 3), 140, np.uint8)
    cv2.circle(img, (80, 60), 30, (250, 250, 250), -1)
    return cv2.imencode(".jpg", img)[1].tobytes()


@pytest.mark.parametrize("name, data, words", [
    ("01-bomb.png", bomb_png(), "01-bomb.png declares 30000 x 30000 pixels, more than a camera sends"),
    ("01-header.png", bomb_png(40000, 40000), "01-header.png declares 40000 x 40000 pixels"),
    ("01-cut.jpg", good_jpeg()[:len(good_jpeg()) // 2] + b"\xff\xd9", "01-cut.jpg is damaged"),
    ("01-junk.jpg", b"\xff\xd8 no picture", "01-junk.jpg is cut short"),
])
def test_the_folder_camera_refuses_what_no_camera_sends_in_one_line(tmp_path, name, data, words):
    (tmp_path / name).write_bytes(data)
    (tmp_path / "02-good.jpg").write_bytes(good_jpeg())
    with ImageFolderCamera(tmp_path) as camera:
        with pytest.raises(BadFrame) as refused:
            camera.read()
        assert words in refused.value.reason and "\n" not in refused.value.reason
        assert camera.read().shape == (120, 160, 3), "the next picture is read"


def test_a_bomb_in_the_folder_makes_the_camera_say_why(tmp_path):
    (tmp_path / "03-roll.png").write_bytes(bomb_png())
    supervisor = CameraSupervisor(ImageFolderCamera(tmp_path), retry_initial=0.01, retry_max=0.02)
    with supervisor:
        with pytest.raises(CameraUnavailable, match="03-roll.png declares 30000 x 30000"):
            supervisor.capture(timeout=WAIT)
        status = supervisor.status
        assert status.state == "not_reading" and "03-roll.png declares 30000 x 30000" in status.reason
        assert "03-roll.png" in supervisor.last_error[0]
