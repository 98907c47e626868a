"""What every game's table view (companion/games/<game>/table.py) shares: an input as a
button's `data-input` holds it (the page sends it back as it is)."""

import json


def input_json(inp: dict) -> str:
    return json.dumps(inp, separators=(",", ":"))
