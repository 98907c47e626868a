"""Regression guards on the shared real photographs (skipped when absent).

These are not the targets (those are printed by `python -m vision bench`,
see docs/vision.md); they fail if a change makes the reader clearly worse or
makes it guess: the silent-error rate is what matters most.
"""

import pytest

from vision import bench

pytestmark = pytest.mark.shared_data


def test_nell_byler_first_40_images(shared_folder):
    folder = shared_folder("nell-byler")
    total, _ = bench.run(folder, limit=40, time_720p=False)
    n = total.labelled
    assert n > 300
    assert (total.wrong + total.phantoms_valued) / n <= 0.015, total.errors
    assert total.correct / n >= 0.55


def test_rune55_gray_first_60_images(shared_folder):
    folder = shared_folder("rune55-gray")
    total, _ = bench.run(folder, limit=60, time_720p=False)
    n = total.labelled
    assert (total.wrong + total.phantoms_valued) / n <= 0.03, total.errors
    assert total.correct / n >= 0.5
