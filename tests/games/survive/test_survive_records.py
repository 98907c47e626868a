"""The example records in docs/examples replay through the engine to their end."""

import json
from pathlib import Path

import pytest

from companion.games.survive import RuleError
from companion.games.survive.replay import replay, replay_jsonl

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "docs" / "examples").glob("survive-*.jsonl"))


def test_there_are_example_records():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_record_replays_to_the_end(path):
    text = path.read_text(encoding="utf-8")
    header = json.loads(text.splitlines()[0])
    assert header["game"] == "survive"
    state, history = replay_jsonl(text)
    assert state["over"] and state["result"]["winners"]
    assert len(history) == len(text.strip().splitlines())        # the setup, then one entry per input
    assert history[-1][-1]["key"] == "final.winners"


def test_a_record_that_breaks_the_sinking_order_is_refused_at_that_input():
    lines = EXAMPLES[0].read_text(encoding="utf-8").splitlines()
    header, inputs = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    first_remove = next(i for i, inp in enumerate(inputs) if inp["type"] == "remove")
    inputs[first_remove] = {"type": "remove", "terrain": "forest"}
    with pytest.raises(RuleError) as err:
        replay(header, inputs)
    assert err.value.key == "sinking_order"


def test_a_record_must_name_its_game():
    with pytest.raises(RuleError) as err:
        replay_jsonl('{"format": "atlandice-record", "setup": {"players": ["A", "B"]}}\n')
    assert err.value.key == "record_game"


def test_who_entered_an_input_and_why_is_kept_but_is_no_part_of_the_decision():
    from companion.games.survive.inputs import normalize

    clean = normalize({"type": "setup", "step": 1, "source": "tablet", "note": "Ana's move", "junk": 1})
    assert clean == {"type": "setup", "step": 1, "source": "tablet", "note": "Ana's move"}
    assert "source" not in normalize({"type": "setup", "step": 1, "source": 5})    # text only
