"""A folder of photographs played in order: the demo and the tests."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from vision.image_file import load_image
from vision.reading import ReadError

from .camera import BadFrame, Camera, CameraUnavailable

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg")


class ImageFolderCamera(Camera):
    """Each ``read()`` returns the next image of ``folder``, in sorted name order.

    With ``loop`` (the default) it starts again after the last image; without
    it, reading past the end raises :class:`CameraUnavailable` (as a camera
    that was unplugged would).

    The file list is taken at ``open()``, so images added to the folder are
    seen the next time it is opened.
    """

    live = False
    # A photo larger than a camera frame is shrunk to this long side as soon as it is decoded:
    # a 12 MP photo kept whole is copied for the reading, the drawing and its PNG (about 250 MB
    # on a 2 GB Pi), and no dice reader needs more than a Full HD frame.
    MAX_SIDE = 1920

    def __init__(self, folder: str | os.PathLike[str], *, loop: bool = True) -> None:
        self.folder = Path(folder)
        self.loop = loop
        self._files: list[Path] = []
        self._next = 0
        self._open = False

    @property
    def name(self) -> str:
        return f"images in {self.folder}"

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def files(self) -> list[Path]:
        """The images that will be played, in order (empty until opened)."""
        return list(self._files)

    def open(self) -> None:
        if not self.folder.is_dir():
            raise CameraUnavailable(f"folder {self.folder} not found")
        files = sorted(
            p for p in self.folder.iterdir()
            if p.is_file() and p.suffix.lower() in IMAGE_EXTENSIONS
        )
        if not files:
            raise CameraUnavailable(f"no PNG or JPEG images in {self.folder}")
        self._files = files
        self._next = 0
        self._open = True

    def read(self) -> np.ndarray:
        if not self._open:
            raise CameraUnavailable("camera not open")
        if self._next >= len(self._files):
            if not self.loop:
                raise CameraUnavailable("no more images")
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        # Refused in one line when no camera could have sent it (too large, a bomb of a
        # header, not a regular file) or when it is damaged: never read in part as if whole.
        try:
            img = load_image(str(path), path.name)
        except ReadError as exc:
            raise BadFrame(str(exc)) from None
        return shrink(img, self.MAX_SIDE)

    def close(self) -> None:
        self._open = False


def shrink(img: np.ndarray, max_side: int) -> np.ndarray:
    """`img` (H, W, 3) uint8 scaled down so its long side is at most `max_side` (as is if it fits)."""
    h, w = img.shape[:2]
    if max(h, w) <= max_side:
        return img
    s = max_side / max(h, w)
    return cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
