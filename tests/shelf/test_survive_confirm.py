"""CONFIRM enters a prompt's `default` (Rules.preferred, every game): Survive's step 1 with a
held tile ("No tile: go on") and step 2 once the three moves went on landings."""

import tomllib
from pathlib import Path

from companion.games import load
from companion.games.survive import apply, expected, new_state, start, validate_profile

PROFILE = Path(__file__).resolve().parents[2] / "companion" / "games" / "survive" / "default_profile.toml"


def test_preferred_is_a_prompts_default_for_every_game():
    prompt = {"kind": "x", "seat": 0, "options": [{"type": "a"}, {"type": "done"}], "context": {},
              "default": {"type": "done"}}
    for rules in (load("atlandice"), load("survive"), load("atlantis")):
        assert rules.preferred(prompt) == {"type": "done"}
    assert load("survive").preferred(dict(prompt, default=None)) is None     # no default, two options


def _game():
    state, _ = start(new_state({"players": ["Ana", "Bruno"], "first_player": 0,
                                "profile": validate_profile(tomllib.loads(PROFILE.read_text()))}))
    for step in range(1, 9):
        state, _ = apply(state, {"type": "setup", "step": step})
    return state


def test_after_the_third_landing_confirm_says_moves_done():
    rules = load("survive")
    state = _game()
    prompt = expected(state)
    assert prompt["kind"] == "moves" and rules.preferred(prompt) is None      # a choice: tap it
    for _ in range(3):
        state, _ = apply(state, {"type": "saved", "colour": "red"})
    prompt = expected(state)
    assert rules.preferred(prompt) == {"type": "done"}
    state, _ = apply(state, rules.preferred(prompt))
    assert expected(state)["kind"] == "remove"
