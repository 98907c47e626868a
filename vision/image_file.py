"""Image files in and out, with a clear error for each way they fail.

OpenCV's `imread` returns None for a file it cannot read, and decodes a
truncated JPEG (a copy cut short, a card pulled out) into a picture whose
lower part is grey, with only a warning: the dice there would be silently
missing from the roll. `imwrite` raises for an extension it has no writer
for and returns False, or even True, when the folder does not exist.
"""

from __future__ import annotations

import os

import cv2
import numpy as np

from .reading import ReadError

_JPEG, _PNG = b"\xff\xd8", b"\x89PNG\r\n\x1a\n"


def load_image(path: str) -> np.ndarray:
    """The image file at `path` as an (H, W, 3) uint8 BGR array; ReadError if it is missing,
    a folder, not an image, or cut short."""
    if os.path.isdir(path):
        raise ReadError(f"{path} is a folder, not an image file")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise ReadError(f"no such image file: {path}") from None
    except OSError as exc:
        raise ReadError(f"cannot open {path}: {exc.strerror or exc}") from None
    if truncated(data):
        raise ReadError(f"{path} is cut short (an incomplete copy?): not read, so no die goes missing")
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if img is None:
        raise ReadError(f"not a readable image: {path}")
    return img


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
    """Where a JPEG's image data begins (after its first SOS header), walking the segments
    before it; None if the file ends first."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:               # fill byte
            i += 1
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDA:
            return i + 2 + length
        i += 2 + length
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
