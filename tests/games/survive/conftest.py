"""Survive test helpers: the shipped profile, a game walked through its setup, inputs in a row."""

import json
import tomllib
from pathlib import Path

import pytest

from companion.games.survive import apply, expected, new_state, start, validate_profile

PACKAGE = Path(__file__).resolve().parents[3] / "companion" / "games" / "survive"


def load_profile() -> dict:
    return validate_profile(tomllib.loads((PACKAGE / "default_profile.toml").read_text(encoding="utf-8")))


def load_catalog(lang: str) -> dict:
    return json.loads((PACKAGE / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def profile() -> dict:
    return load_profile()


def setup_of(profile: dict, players: int = 3, challenges: tuple = (), first: int = 0, **more) -> dict:
    return {"game": "survive", "players": ["Ana", "Bruno", "Caio", "Dora"][:players], "first_player": first,
            "challenges": list(challenges), "profile": profile, **more}


def play(state: dict, *inputs) -> tuple[dict, list]:
    """Apply inputs in a row; the state after them and every event."""
    events = []
    for inp in inputs:
        state, more = apply(state, inp)
        events += more
    return state, events


def fresh(profile: dict, players: int = 3, challenges: tuple = (), first: int = 0, **more) -> dict:
    """A game just after the setup walk: the first player's first turn, at step 2."""
    state, _ = start(new_state(setup_of(profile, players, challenges, first, **more)))
    state, _ = play(state, *({"type": "setup", "step": n} for n in range(1, 9)))
    return state


def keys(events: list) -> list[str]:
    return [e["key"] for e in events]


def finish_turn(state: dict, back: str = "red", face: str = "serpent") -> tuple[dict, list]:
    """From step 1 or 2 of a turn: no tile, moves done, the current terrain removed, `back`
    revealed, the die shows `face`, the creature done (when one was on the board)."""
    events = []
    if expected(state)["kind"] == "tile":
        state, ev = play(state, {"type": "done"})
        events += ev
    if expected(state)["kind"] == "moves":
        state, ev = play(state, {"type": "done"})
        events += ev
    terrain = expected(state)["context"]["terrain"]
    state, ev = play(state, {"type": "remove", "terrain": terrain}, {"type": "reveal", "back": back},
                     {"type": "creature_roll", "face": face})
    events += ev
    if expected(state)["kind"] == "creature":
        state, ev = play(state, {"type": "done"})
        events += ev
    return state, events
