"""The example in docs/record-format.md replays, and its table of inputs names every type."""

import json
import re
from pathlib import Path

from companion.game import Game
from companion.games.atlandice.inputs import FIELDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"


def test_the_documented_record_replays(profile):
    text = DOC.read_text(encoding="utf-8")
    block = text.split("The beginning of a 3-player game:")[1].split("```json")[1].split("```")[0]
    lines = [json.loads(line) for line in block.strip().splitlines()]
    lines[0]["setup"]["profile"] = profile
    game = Game.from_jsonl("\n".join(json.dumps(line) for line in lines))
    assert game.state["stocks"][0]["tool"] == 2 and game.state["stocks"][1]["weapon"] == 3
    assert game.state["submarine"] == "blacksmith"


def test_every_input_type_is_documented_with_an_example():
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r'\| `([a-z_]+)` \| .* \| `\{"type": "([a-z_]+)"', text))
    assert {t for t, example in documented if t == example} == set(FIELDS)
