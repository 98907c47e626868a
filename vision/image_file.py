"""Image files in and out, with a clear error for each way they fail.

A picture file is read only if a camera could have sent it: a regular file
(not a device such as /dev/zero, nor a pipe) of at most MAX_FILE_BYTES, a PNG
or a JPEG whose header declares at most MAX_PIXELS. The header is parsed here,
before decoding: a PNG of 875 KB may declare 30000 x 30000 pixels and take
gigabytes to decode. A file that fails is refused with one line.

OpenCV's `imread` returns None for a file it cannot read, and decodes a
truncated JPEG (a copy cut short, a card pulled out) into a picture whose
lower part is grey, with only a warning, even when an end marker was put back
after the cut: the dice there would be silently missing from the roll. So a
JPEG is refused when it lacks its end marker, and when the decoder warns that
its image data ended early or is corrupt. `imwrite` raises for an extension
it has no writer for and returns False, or even True, when the folder does
not exist.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
import threading

import cv2
import numpy as np

from .reading import ReadError

_JPEG, _PNG = b"\xff\xd8", b"\x89PNG\r\n\x1a\n"

# The largest picture a camera of the companion sends: the Pi HQ camera's 4056 x 3040 (12.3 MP;
# the Camera Module 3's 4608 x 2592 is less), as a PNG at most about 30 MB.
MAX_PIXELS = 4056 * 3040
MAX_SIDE = 8192
MAX_FILE_BYTES = 40 * 1024 * 1024


def load_image(path: str, name: str | None = None) -> np.ndarray:
    """The image file at `path` as an (H, W, 3) uint8 BGR array; ReadError, with one line naming
    it as `name` (default: `path`), if it is missing, not a regular file, too large, not a PNG or
    JPEG, declares more pixels than a camera sends, or is cut short or damaged."""
    name = path if name is None else name
    data = read_image_file(path, name)
    check_header(data, name)
    img, warnings = _decode(data)
    if img is None:
        raise ReadError(f"not a readable image: {name}")
    if warnings:
        raise ReadError(f"{name} is damaged ({warnings[0]}): not read, so no die goes missing")
    return img


def read_image_file(path: str, name: str | None = None) -> bytes:
    """The bytes of the picture file at `path`, refused before reading when it is no regular file
    or larger than MAX_FILE_BYTES."""
    name = path if name is None else name
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ReadError(f"no such image file: {name}") from None
    except OSError as exc:
        raise ReadError(f"cannot open {name}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise ReadError(f"{name} is a folder, not an image file")
    if not stat.S_ISREG(info.st_mode):
        raise ReadError(f"{name} is not a regular file (a device or a pipe?): not an image a camera sends")
    if info.st_size > MAX_FILE_BYTES:
        raise ReadError(f"{name} is too large ({info.st_size / 1e6:.0f} MB, at most "
                        f"{MAX_FILE_BYTES / 1e6:.0f} MB): not an image a camera sends")
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise ReadError(f"{name} is not a regular file: not an image a camera sends")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ReadError(f"cannot open {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ReadError(f"{name} is too large (over {MAX_FILE_BYTES / 1e6:.0f} MB): not an image a camera sends")
    return data


def check_header(data: bytes, name: str) -> tuple[int, int]:
    """(width, height) that the PNG or JPEG `data` declares; ReadError when it is neither, is cut
    short, or declares a picture no camera sends."""
    if not data:
        raise ReadError(f"{name} is empty: not an image")
    size = declared_size(data)
    if size is None:
        if data.startswith(_JPEG) or data.startswith(_PNG):
            raise ReadError(f"{name} is cut short (an incomplete copy?): not read, so no die goes missing")
        raise ReadError(f"not a readable image: {name} (a camera's pictures are PNG or JPEG)")
    w, h = size
    if w < 1 or h < 1 or w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise ReadError(f"{name} declares {w} x {h} pixels, more than a camera sends "
                        f"(at most {MAX_PIXELS / 1e6:.1f} megapixels): not read")
    if truncated(data):
        raise ReadError(f"{name} is cut short (an incomplete copy?): not read, so no die goes missing")
    return w, h


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's IHDR or a JPEG's frame header (SOFn), read without decoding;
    None when `data` is neither or ends before saying. A JPEG whose height comes later (DNL) is 0 high."""
    if data.startswith(_PNG):
        if len(data) < 24 or data[12:16] != b"IHDR":
            return None
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith(_JPEG):
        for marker, at in _segments(data):
            if marker in _SOF:
                if at + 9 > len(data):
                    return None
                return int.from_bytes(data[at + 7:at + 9], "big"), int.from_bytes(data[at + 5:at + 7], "big")
            if marker == 0xDA:
                return None  # image data before any frame header: not a picture
    return None


# Start-of-frame markers: baseline, extended, progressive, lossless (Huffman and arithmetic).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _segments(data: bytes):
    """(marker, offset of its 0xFF) of a JPEG's header segments, up to its first SOS."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:               # fill byte
            i += 1
            continue
        yield marker, i
        if marker == 0xDA:
            return
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")


# What libjpeg prints, and carries on, when the image data ended early or is garbage from some
# point: the picture's rest would be grey. ("extraneous bytes before marker" loses nothing.)
_DAMAGED = re.compile(r"^(Premature end of JPEG file|Corrupt JPEG data: (?!\d+ extraneous bytes).*)$")
_STDERR = threading.Lock()


def _decode(data: bytes) -> tuple[np.ndarray | None, list[str]]:
    """cv2.imdecode, and the decoder's warnings that the picture is damaged.

    libjpeg prints its warnings on the process's standard error, so that is caught
    meanwhile (one decode at a time); whatever else was printed then is passed on."""
    buf = np.frombuffer(data, np.uint8)
    with _STDERR:
        try:
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            pass
        with tempfile.TemporaryFile() as caught:
            saved = os.dup(2)
            os.dup2(caught.fileno(), 2)
            try:
                img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            except cv2.error:
                img = None
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            caught.seek(0)
            said = caught.read().decode("utf-8", "replace")
    warnings, other = [], []
    for line in said.splitlines(keepends=True):
        (warnings if _DAMAGED.match(line.strip()) else other).append(line)
    if other:
        os.write(2, "".join(other).encode("utf-8", "replace"))
    return img, [w.strip() for w in warnings]


def truncated(data: bytes) -> bool:
    """Whether JPEG or PNG bytes lack their end marker (other formats: False)."""
    if data.startswith(_JPEG):
        # The end-of-image marker after the image data: phones may append more (a motion
        # photo), and an EXIF thumbnail before it has an end marker of its own.
        sos = _start_of_scan(data)
        return sos is None or data.find(b"\xff\xd9", sos) < 0
    if data.startswith(_PNG):
        return b"IEND" not in data[-16:]
    return False


def _start_of_scan(data: bytes) -> int | None:
    """Where a JPEG's image data begins (after its first SOS header); None if the file ends first."""
    for marker, at in _segments(data):
        if marker == 0xDA:
            return at + 2 + int.from_bytes(data[at + 2:at + 4], "big")
    return None


def save_image(path: str, img: np.ndarray) -> None:
    """Write `img` to `path` (format from its extension); ReadError, with the reason, if it
    cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ReadError(f"cannot write {path}: no such folder {folder}")
    if os.path.isdir(path):
        raise ReadError(f"cannot write {path}: it is a folder")
    if not cv2.haveImageWriter(path):
        raise ReadError(f"cannot write {path}: no image format for that file name (use .png or .jpg)")
    try:
        ok = cv2.imwrite(path, img)
    except cv2.error as exc:
        raise ReadError(f"cannot write {path}: {exc.err or exc}") from None
    if not ok:
        raise ReadError(f"cannot write {path} (no permission, or the disk is full?)")
