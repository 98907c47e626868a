"""What every shelf game's table page (web/<game>_view.py) shows alike: the proposal CONFIRM
would enter, and an input as the page sends it back."""

from __future__ import annotations

import json


def input_json(inp: dict) -> str:
    """An input as a button's `data-input` holds it."""
    return json.dumps(inp, separators=(",", ":"))


def proposal(snap: dict, words, names: list[str]) -> dict | None:
    """The step CONFIRM would enter now, in the game's words; None when there is none."""
    p = snap.get("proposal")
    expected = snap.get("expected")
    if not p or not expected:
        return None
    return {"text": words.option(p["input"], expected["kind"], names), "source": p["source"], "problem": None,
            "input": input_json(p["input"])}
