"""Replay a Survive record: its first line the setup (with "game": "survive"), then one
input per line. Pure: it takes the text, not a file."""

import json

from .engine import apply_in_place, start
from .errors import invalid
from .state import GAME, new_state


def header_setup(header: dict) -> dict:
    """The setup of a record's first line: a bare setup, or {"setup": {...}} with "game"."""
    if not isinstance(header, dict) or header.get("game") != GAME:
        raise invalid("the record's first line must name the game: \"game\": \"survive\"", key="record_game")
    return header["setup"] if isinstance(header.get("setup"), dict) else header


def replay(header: dict, inputs: list) -> tuple[dict, list[list[dict]]]:
    """The state after every input, and the events of each (RuleError names the first bad one)."""
    state, first = start(new_state(header_setup(header)))
    history = [first]
    for inp in inputs:
        history.append(apply_in_place(state, inp))
    return state, history


def replay_jsonl(text: str) -> tuple[dict, list[list[dict]]]:
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not lines:
        raise invalid("the record is empty", key="record_empty")
    return replay(lines[0], lines[1:])
