"""The demo camera and its pictures: dice trays the project renders itself.

The embedded default (no Pi, no camera) shows these through DemoCamera: each
READ shows the next picture with as many dice as the game waits for (7 or 9
at the gate roll, one for an effect's roll), so the first READ reads a roll
that can be entered. Told which roll is awaited (the composition root tells it
on every change of the session, companion/app.py), it rolls by itself as a
camera over a real tray would see it: a few moving frames, then that picture
still, so the settle watcher proposes the dice with no READ (READ reads the
same still picture again).

Made by `python -m hardware.demo` (with vision.render); the JPEGs are shipped.
"""

import os
from pathlib import Path

import cv2
import numpy as np

from .folder_camera import ImageFolderCamera

DEMO_FOLDER = Path(__file__).resolve().parent / "demo_frames"

# (file stem, dice values); seeds are fixed so the pictures never change by accident.
SCRIPT = [
    ("01-gates", [3, 5, 1, 4, 6, 2, 5]),
    ("02-roll", [6]), ("03-roll", [2]), ("04-roll", [5]), ("05-roll", [1]), ("06-roll", [4]), ("07-roll", [3]),
    ("08-gates", [2, 2, 6, 4, 1, 3, 5]),
    ("09-roll", [4]), ("10-roll", [6]), ("11-roll", [1]), ("12-roll", [5]), ("13-roll", [2]), ("14-roll", [3]),
    ("15-gates", [4, 1, 6, 2, 5, 3, 3, 6, 1]), ("16-gates", [5, 2, 2, 6, 4, 1, 3, 4, 6]),
]


# A roll as the demo shows it: the picture moved by these shares of its size (down, right), a
# frame each (the dice tumbling), then still. Small enough that every die stays whole in the
# frame: a READ pressed mid-roll reads the same dice.
ROLLING = ((-0.03, 0.025), (0.025, -0.03), (-0.015, 0.02), (0.01, -0.01))


class DemoCamera(ImageFolderCamera):
    """The demo pictures, each READ the next one with as many dice as the game waits for.

    Told the roll awaited (`expect_dice(count, roll)`, `roll` not None) it is live until no roll
    is awaited: each read gives the frames of a roll (ROLLING, then the picture still) and a new
    roll begins when `roll` changes.

    `script`: (file stem, dice values) per picture; a picture not in it, or a count no picture
    has, plays in name order as ImageFolderCamera does. One picture is decoded at a time."""

    def __init__(self, folder: str | os.PathLike[str] = DEMO_FOLDER, script=SCRIPT, *, loop: bool = True) -> None:
        super().__init__(folder, loop=loop)
        self._counts = {stem: len(values) for stem, values in script}
        self._expected: int | None = None
        self._roll: object = None
        self._still: np.ndarray | None = None     # the picture of the roll now, once rolled
        self._moving = 0                          # frames of ROLLING still to show

    @property
    def live(self) -> bool:
        """Rolling by itself: a roll is awaited and it was told which."""
        return self._open and self._expected is not None and self._roll is not None

    def expect_dice(self, count: int | None, roll: object = None) -> None:
        if (count, roll) == (self._expected, self._roll):
            return
        self._expected, self._roll = count, roll
        self._still, self._moving = None, len(ROLLING)

    def read(self) -> np.ndarray:
        if not self.live:
            return self._next_picture()
        still, moving = self._still, self._moving     # told another roll meanwhile: the next read shows it
        if still is None:
            still = self._still = self._next_picture()
        if moving:
            self._moving = moving - 1
            dy, dx = ROLLING[len(ROLLING) - moving]
            h, w = still.shape[:2]
            shift = np.float32([[1, 0, round(dx * w)], [0, 1, round(dy * h)]])
            return cv2.warpAffine(still, shift, (w, h), borderMode=cv2.BORDER_REPLICATE)
        return still

    def _next_picture(self) -> np.ndarray:
        files = self._files
        if self._open and self._expected is not None:
            n = len(files)
            start = self._next % n if n else 0
            for k in range(n):
                i = (start + k) % n
                if self._counts.get(files[i].stem) == self._expected:
                    self._next = i
                    break
        return super().read()


def make_demo_frames(folder: Path = DEMO_FOLDER) -> list[Path]:
    import vision

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for n, (stem, values) in enumerate(SCRIPT):
        # The demo must read right: keep the first seed the reader gets right, and say which were not.
        for seed in range(100 + 10 * n, 110 + 10 * n):
            image = vision.render(values, seed=seed)
            read = sorted(d.value for d in vision.read(image).dice)
            if read == sorted(values):
                break
            print(f"{stem}: seed {seed} rendered {sorted(values)}, read {read}: skipped")
        else:
            raise RuntimeError(f"{stem}: no seed read right")
        path = folder / f"{stem}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        written.append(path)
    return written


if __name__ == "__main__":
    for p in make_demo_frames():
        print(p, p.stat().st_size // 1024, "KiB")
