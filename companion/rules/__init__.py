"""The Atlandice rules engine: pure, standard library only.

    state = new_state(setup)            # the table after Setup
    state, events = start(state)        # run the automatic steps
    expected(state)                     # what input comes next, and every legal one
    state, events = apply(state, inp)   # a new state and what happened (RuleError if refused)

See docs/engine-api.md for the shapes of states, prompts, inputs and events.
"""

from .engine import apply, apply_in_place, expected, start
from .errors import RuleError
from .position import validate_position
from .state import copy_state, new_state, seat_names

__all__ = ["apply", "apply_in_place", "expected", "start", "RuleError", "validate_position",
           "copy_state", "new_state", "seat_names"]
