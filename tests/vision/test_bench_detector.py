"""benchmarks/bench_detector.py: the detector's centres and boxes on rendered dice, measured
against where the renderer put them (a detector that drifts or swells shows in its figures)."""

import importlib.util
import os

import numpy as np
import pytest

from vision import nets
from vision.settings import MODELS

pytestmark = pytest.mark.skipif(not nets.available(), reason="vision/models/*.onnx not present")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_detector", os.path.join(ROOT, "benchmarks", "bench_detector.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_detector_finds_every_rendered_die_near_its_centre_and_size(bench):
    m = bench.measure(MODELS, scenes=3, die_px=70)
    assert m["missed"] == 0 and len(m["centre"]) == 9
    assert max(m["centre"]) < 0.15                         # the reader's tests' bound
    assert 0.9 < float(np.median(m["box"])) < 1.2


def test_the_figures_are_printed_for_each_size(bench, capsys):
    assert bench.main(["--scenes", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + len(bench.SIZES)               # the header and a row per size
    assert all(row.rstrip(" |").split("|")[-1].strip() == "0" for row in rows[1:])   # no die missed
