"""The shipped demo pictures read as their script says, with the shipped models.

The demo camera is what a first-time user sees: a retrained net that misreads
one of its pictures would put wrong dice on the tablet of the embedded default.
"""

import cv2
import pytest

import vision
from hardware.demo import DEMO_FOLDER, SCRIPT


@pytest.mark.parametrize("stem, values", SCRIPT, ids=[s for s, _ in SCRIPT])
def test_each_demo_picture_reads_as_its_script_says(stem, values) -> None:
    frame = cv2.imread(str(DEMO_FOLDER / f"{stem}.jpg"))
    assert frame is not None, f"{stem}.jpg is missing: run `python -m hardware.demo`"
    assert sorted(d.value for d in vision.read(frame).dice) == sorted(values)


def test_the_demo_folder_holds_exactly_the_scripted_pictures() -> None:
    assert sorted(p.stem for p in DEMO_FOLDER.glob("*.jpg")) == sorted(s for s, _ in SCRIPT)
