"""Atlandice on the shelf: the protocol of companion/games/ over its rules engine.

The engine itself still lives in companion/rules/ (docs/engine-api.md); this package
only names what the shelf asks for. Pure: standard library and the engine only.
"""

from companion.rules import RuleError, apply, apply_in_place, copy_state, expected, new_state, seat_names, start
from companion.rules import validate_position
from companion.rules.final_scoring import score_state
from companion.rules.inputs import normalize

GAME = "atlandice"


def score(state: dict) -> dict:
    """The final scoring breakdown; before the end, what it would be now (marked provisional)."""
    if state["over"]:
        return dict(state["result"], provisional=False)
    return dict(score_state(state), provisional=True)


__all__ = ["GAME", "RuleError", "apply", "apply_in_place", "copy_state", "expected", "new_state", "normalize",
           "score", "seat_names", "start", "validate_position"]
