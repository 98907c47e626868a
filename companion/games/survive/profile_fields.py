"""The game profile as its page edits it: each field, plain data (the page lays them out and
reads them back; profile.py's `validate_profile` checks what comes back).

Kinds: "pick" (`length` choices among `among`, said by the catalog group `words`),
"numbers" (a list of whole numbers), "number", "words" (a list of names), and "table"
({key: {item: cell}}, a column per key and a row per item; `cell` "number" or "numbers";
`items_from` names the field whose list gives the items). Labels: the catalog's "profile" group.
"""

from .names import BACKS, COLOUR_WORDS, EXPLORERS_PER_COLOUR, TERRAIN_TILES, TERRAINS

FIELDS = (
    {"key": "colours", "kind": "pick", "length": 4, "among": COLOUR_WORDS, "words": "colour"},
    {"key": "values", "kind": "numbers", "length": EXPLORERS_PER_COLOUR, "min": 1, "max": 6},
    {"key": "backs", "kind": "table", "keys": TERRAINS, "key_words": "terrain", "items": BACKS,
     "item_words": "back", "cell": "number", "min": 0, "max": max(TERRAIN_TILES.values())},
)
