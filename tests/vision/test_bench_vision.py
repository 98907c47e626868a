"""benchmarks/bench_vision.py's rendered sets, run small: each reports what the reader did
with every rendered die (the benchmark is how the stress figures in docs/vision.md are made)."""

import importlib.util
import os
import re

import pytest

from vision import Config, nets

pytestmark = pytest.mark.skipif(not nets.available(), reason="vision/models/*.onnx not present")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def bench_vision():
    spec = importlib.util.spec_from_file_location(
        "bench_vision", os.path.join(ROOT, "benchmarks", "bench_vision.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _count(text: str, word: str) -> int:
    return int(re.search(rf"\b{word} (\d+)", text).group(1))


def test_every_rendered_die_is_counted_once(bench_vision):
    line = bench_vision.tilted_rolls(Config(), n=4)
    dice = int(re.search(r"(\d+) dice\)", line).group(1))
    assert sum(_count(line, w) for w in ("right", "unsure", "wrong", "missed")) == dice, line
    assert _count(line, "right") > 0


@pytest.mark.parametrize("name, n", [("close_ups", 4), ("cut_dice", 12), ("cocked_dice", 24),
                                     ("see_through_dice", 4), ("finished_dice", 4)])
def test_each_stress_set_reads_its_dice(bench_vision, name, n):
    line = getattr(bench_vision, name)(Config(), n=n)
    assert _count(line, "right") > 0, line
    assert re.search(r"\bwrong \d+", line) and re.search(r"\bmissed \d+", line), line
