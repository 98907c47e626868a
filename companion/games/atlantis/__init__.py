"""Atlantis (Leo Colovini): the rules engine, pure, standard library only.

    state = new_state(setup)            # citizens on Atlantis, hands dealt (setup.py)
    state = validate_position(position) # or a game in progress, in the game's words (position.py)
    state, events = start(state)        # the setup's events
    expected(state)                     # the prompt: kind, seat, every legal input, context (a turn's
                                        #   moves are not listed: context movable, listed; see engine.py)
    options(state)                      # every legal input listed, a turn's moves too (tests, simulator)
    state, events = apply(state, inp)   # RuleError (companion.games.errors) if refused, state unchanged
    reach(state, seat, citizen)         # where each chain of cards takes a citizen, and its crossings
    normalize(inp)                      # the input as the record keeps it
    view(state)                         # the public table (never a stack's unseen lower tile)

Rules facts and rulings: docs/rulings-atlantis.md. Words: i18n/en.json, i18n/pt-BR.json.
"""

from companion.games.errors import RuleError

from .engine import apply, copy_state, expected, options, start
from .history import PLAYER_LINES, player_extra, totals
from .inputs import for_record as normalize
from .profile import default_profile, validate_profile
from .reach import reach
from .score import score
from .position import validate_position
from .replay import replay
from .setup import SETUP_OPTIONS, new_state
from .view import laying, view

GAME = "atlantis"


def preferred(prompt: dict) -> dict | None:
    """What CONFIRM may enter without a tap: the one legal input, as when a turn listed its moves
    (a turn in which no citizen can move and only no_move is listed)."""
    if prompt["kind"] == "turn":
        listed = prompt["context"]["listed"]
        return listed[0] if not prompt["context"]["movable"] and len(listed) == 1 else None
    choices = prompt["options"] or []
    return choices[0] if len(choices) == 1 else None


__all__ = ["GAME", "SETUP_OPTIONS", "RuleError", "apply", "copy_state", "default_profile", "expected", "laying", "new_state",
           "normalize", "options", "PLAYER_LINES", "player_extra", "preferred", "reach", "replay", "score", "start", "totals", "validate_position", "validate_profile",
           "view"]
