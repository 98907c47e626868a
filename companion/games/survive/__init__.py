"""Survive: Escape from Atlantis! — the rules engine: pure, standard library only.

The printed board holds where every piece stands; the engine keeps what a referee
would, from what the table taps: the setup walk, whose turn and which step, the
sinking order, the tiles revealed and held, the supplies and creatures, each colour's
explorers saved and lost, and the end tally.

    state = new_state(setup)            # the table before the setup walk
    state, events = start(state)        # the first events (challenges, setup step 1)
    expected(state)                     # the prompt: kind, seat, every legal input, context
    state, events = apply(state, inp)   # a new state and what happened (RuleError if refused)

Rulings S1-S16: docs/rulings-survive.md. Words: i18n/en.json, i18n/pt-BR.json.
"""

from .engine import apply, apply_in_place, expected, start
from .errors import RuleError
from .history import DIE_FACES, PLAYER_LINES, player_extra, rolled, totals
from .inputs import normalize
from .profile import validate_profile
from .setup import SETUP_KEYS, SETUP_OPTIONS
from .state import GAME, copy_state, new_state
from .view import view

__all__ = ["DIE_FACES", "GAME", "SETUP_KEYS", "SETUP_OPTIONS", "apply", "apply_in_place", "expected", "start", "RuleError", "validate_profile",
           "copy_state", "new_state", "normalize", "PLAYER_LINES", "player_extra", "rolled", "totals", "view"]
