"""The documented example records (docs/examples/atlantis-*.jsonl) replay through the engine."""

import json
from pathlib import Path

import pytest

from companion.games.atlantis import RuleError, replay

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
# Final totals of each record: a change to the rules that changes a game shows here.
FINAL = {"atlantis-table-3p.jsonl": [14, -18, -3], "atlantis-shuffled-2p.jsonl": [8, 17]}
SHOWN = {"atlantis.bridge", "atlantis.pay/over", "atlantis.buy", "atlantis.no_move", "atlantis.settle/gaps"}


def read(name):
    """The record's setup (its header's) and inputs."""
    lines = [json.loads(line) for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines()]
    assert lines[0]["format"] == "atlandice-record" and lines[0]["game"] == "atlantis"
    return lines[0]["setup"], lines[1:]


def test_every_atlantis_record_is_pinned():
    assert {p.name for p in EXAMPLES.glob("atlantis-*.jsonl")} == set(FINAL)


@pytest.mark.parametrize("name", sorted(FINAL))
def test_the_record_replays_to_its_final_score(name):
    setup, inputs = read(name)
    assert setup["game"] == "atlantis"
    state, history = replay(setup, inputs)
    assert state["over"] and [s["total"] for s in state["result"]["scores"]] == FINAL[name]
    keys = {e["key"] for step in history for e in step["events"]}
    assert SHOWN <= keys


def test_a_broken_record_names_its_line():
    setup, inputs = read("atlantis-shuffled-2p.jsonl")
    inputs[5] = {"type": "no_move"} if inputs[5]["type"] != "no_move" else {"type": "buy", "tile": "1.1"}
    with pytest.raises(RuleError) as refused:
        replay(setup, inputs)
    assert refused.value.params["line"] == 7
