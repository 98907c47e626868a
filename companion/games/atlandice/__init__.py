"""Atlandice: the rules engine, pure, standard library only (one file per rule).

    state = new_state(setup)            # the table after Setup
    state, events = start(state)        # run the automatic steps
    expected(state)                     # what input comes next, and every legal one
    state, events = apply(state, inp)   # a new state and what happened (RuleError if refused)

See docs/engine-api.md for the shapes of states, prompts, inputs and events. The shelf
(companion/games/) loads it by its id, "atlandice".
"""

from ..errors import RuleError
from .engine import apply, apply_in_place, expected, start
from .final_scoring import score_state
from .history import DIE_FACES, PLAYER_LINES, player_extra, rolled, totals
from .inputs import normalize, skipped_step
from .position import validate_position
from .profile import PROFILE_FILE_BEFORE, validate_new_profile, validate_profile
from .proposals import camera_dice, forced, preferred, roll_input
from .state import SETUP_OPTIONS, copy_state, new_state, seat_names

GAME = "atlandice"


def score(state: dict) -> dict:
    """The final scoring breakdown; before the end, what it would be now (marked provisional)."""
    if state["over"]:
        return dict(state["result"], provisional=False)
    return dict(score_state(state), provisional=True)


__all__ = ["DIE_FACES", "GAME", "SETUP_OPTIONS", "camera_dice", "forced", "preferred", "roll_input", "RuleError", "apply", "apply_in_place", "copy_state", "expected", "new_state",
           "normalize", "PLAYER_LINES", "player_extra", "rolled", "score", "seat_names", "skipped_step", "start", "totals", "validate_position", "PROFILE_FILE_BEFORE", "validate_new_profile", "validate_profile"]
