"""The bench: its matching rule and figures, on a synthetic labelled folder."""

import csv
import os

import cv2
import numpy as np
import pytest

from vision import bench
from vision.detect import Config
from vision.reading import Die, Reading
from vision.render import render_scene


def test_match_is_centre_in_box_one_to_one():
    labels = [(3, 0, 0, 50, 50), (5, 40, 0, 50, 50)]
    r = Reading((Die(3, (45, 25), (0, 0, 1, 1), 1.0),       # inside both boxes
                 Die(5, (46, 26), (0, 0, 1, 1), 1.0),       # inside both boxes too
                 Die(2, (200, 200), (0, 0, 1, 1), 1.0)))    # inside none
    pairs, extra, missed = bench.match(r, labels)
    assert len(pairs) == 2 and not missed
    assert [d.value for d in extra] == [2]


@pytest.fixture
def synthetic_folder(tmp_path):
    os.makedirs(tmp_path / "images")
    rows = []
    for k in range(4):
        values = [[1], [2, 3], [4, 5, 6, 1, 2, 3, 4], [6, 6]][k]
        img, truth = render_scene(values, seed=40 + k, size=(640, 480), die_px=48)
        name = f"img{k}.jpg"
        cv2.imwrite(str(tmp_path / "images" / name), img)
        for t in truth:
            h = t.side * 0.75
            rows.append([name, t.value, t.center[0] - h, t.center[1] - h, 2 * h, 2 * h])
    # A phantom-free image with one label that the reader cannot see (a missed die).
    rows.append(["img3.jpg", 5, 0, 0, 10, 10])
    with open(tmp_path / "labels.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["image", "value", "x", "y", "w", "h"])
        w.writerows(rows)
    return str(tmp_path)


def test_bench_counts_on_a_synthetic_folder(synthetic_folder):
    # The pip reader reads these renders exactly (known figures to count against).
    total, buckets = bench.run(synthetic_folder, time_720p=False, config=Config(reader="pips"))
    assert total.images == 4 and total.labelled == 13
    assert total.correct == 12 and total.missed == 1 and total.wrong == 0
    assert total.exact_rolls == 3                      # img3 has the missed label
    assert set(buckets) == {"1", "2-6", "7-9"}
    text = bench.report(synthetic_folder, total, buckets)
    for word in ("per-die accuracy", "per-roll accuracy", "wrong values", "unsure", "missed",
                 "phantoms", "silent-error rate", "median", "p95", "confusion", "7-9"):
        assert word in text
    assert "92.31%" in text                              # 12 / 13


def test_to_720p_keeps_aspect_and_size():
    img = np.zeros((640, 640, 3), np.uint8)
    out = bench.to_720p(img)
    assert out.shape == (720, 1280, 3)
