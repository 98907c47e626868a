"""Pictures no camera sends are refused in one line before they are decoded; a damaged one is
never read in part as if whole (`vision read`, the folder camera, the camera page)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import pytest

import vision
from vision.image_file import MAX_FILE_BYTES, declared_size, load_image

REPO = Path(__file__).resolve().parents[2]


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_declaring(width: int, height: int, rows: int = 4) -> bytes:
    """A PNG whose header says width x height, with the first rows of zeros compressed in it (an
    image bomb: the decoder would allocate all the pixels the header declares)."""
    body = zlib.compress(b"\0" * ((width * 3 + 1) * rows), 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def jpeg_of(values, seed=1) -> bytes:
    return cv2.imencode(".jpg", vision.render(values, seed=seed))[1].tobytes()


def jpeg_declaring(width: int, height: int) -> bytes:
    data = bytearray(jpeg_of([3, 4]))
    at = data.find(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def cut_with_its_end_put_back(data: bytes) -> bytes:
    return data[: len(data) // 2] + b"\xff\xd9"


def vision_read(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", "read", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


def refused_in_one_line(p: subprocess.CompletedProcess, words: str) -> None:
    assert p.returncode == 2 and p.stdout == "", p.stdout
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr
    assert words in p.stderr, p.stderr


@pytest.mark.parametrize("width, height", [(30000, 30000), (40000, 40000), (4057, 3040), (9000, 100)])
def test_a_png_declaring_more_pixels_than_a_camera_sends_is_refused(tmp_path, width, height):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_declaring(width, height))
    assert declared_size(path.read_bytes()) == (width, height)
    refused_in_one_line(vision_read(path), f"declares {width} x {height} pixels, more than a camera sends")


def test_a_jpeg_declaring_more_pixels_than_a_camera_sends_is_refused(tmp_path):
    path = tmp_path / "bomb.jpg"
    path.write_bytes(jpeg_declaring(20000, 20000))
    refused_in_one_line(vision_read(path), "declares 20000 x 20000 pixels")


def test_the_largest_picture_a_camera_sends_is_read(tmp_path):
    path = tmp_path / "hq.png"
    path.write_bytes(png_declaring(4056, 3040, rows=3040))
    assert load_image(str(path)).shape == (3040, 4056, 3)


def test_what_is_not_a_regular_file_is_refused_before_it_is_read(tmp_path):
    refused_in_one_line(vision_read("/dev/zero"), "not a regular file")
    fifo = tmp_path / "pipe.jpg"
    os.mkfifo(fifo)
    refused_in_one_line(vision_read(fifo), "not a regular file")  # opening it would wait for ever


def test_a_file_larger_than_a_camera_sends_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.jpg"
    with open(path, "wb") as f:
        f.write(jpeg_of([2]))
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    refused_in_one_line(vision_read(path), "too large")


def test_a_jpeg_cut_in_half_with_its_end_marker_put_back_is_not_read_as_whole(tmp_path):
    data = jpeg_of([1, 2, 3, 4, 5, 6, 2], seed=4)
    path = tmp_path / "cut.jpg"
    path.write_bytes(cut_with_its_end_put_back(data))
    assert cv2.imread(str(path)) is not None, "OpenCV alone reads it, the lower half grey"
    refused_in_one_line(vision_read(path), "cut.jpg is damaged (Corrupt JPEG data: premature end of data segment)")
    (tmp_path / "whole.jpg").write_bytes(data)
    assert vision_read(tmp_path / "whole.jpg").returncode == 0


def test_what_else_is_printed_while_decoding_is_passed_on(tmp_path, capfd):
    path = tmp_path / "cut.jpg"
    path.write_bytes(cut_with_its_end_put_back(jpeg_of([5, 5])))
    with pytest.raises(vision.ReadError, match="damaged"):
        load_image(str(path))
    assert load_image(str(REPO / "hardware" / "demo_frames" / "02-roll.jpg")).shape == (720, 1280, 3)
    assert capfd.readouterr().err == "", "the decoder's warning is taken, not printed"


def test_a_file_that_is_no_png_or_jpeg_is_refused(tmp_path):
    path = tmp_path / "roll.bmp"
    cv2.imwrite(str(path), vision.render([3], seed=1))
    refused_in_one_line(vision_read(path), "a camera's pictures are PNG or JPEG")
