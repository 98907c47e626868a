"""The game profile as its page edits it: each field, plain data (the page lays them out and
reads them back; profile.py's `validate_profile` checks what comes back). The kinds are
described in companion/games/survive/profile_fields.py."""

from .path import HALVES
from .profile import MAX_VALUE

FIELDS = (
    {"key": "colours", "kind": "words", "words": "colours"},
    {"key": "values", "kind": "numbers", "min": 1, "max": MAX_VALUE},
    {"key": "cards_per_colour", "kind": "number", "min": 1, "max": 99},
    {"key": "tiles", "kind": "table", "keys": HALVES, "items_from": "colours", "item_words": "colours",
     "cell": "numbers"},
)
