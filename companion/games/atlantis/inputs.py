"""Inputs: one JSON object each, its "type" says which. A clean copy, or RuleError("invalid").

| type | fields | when |
| --- | --- | --- |
| lay | colour, value | the table laid the next top tile of the path |
| shuffle | order: {"A": [...], "B": [...]} | the companion lays the profile's tiles in this order |
| buy | tile | give back a tile held for cards (start of the turn) |
| move | citizen, cards (colours in the order played), bridge (a water space, or null), take (optional: false leaves the tile behind on the path, A9) | |
| no_move | | no legal move: the turn is lost, two cards |
| pay | tiles (ids), cards (how many) | the crossings of the move |
| reveal | colour, value | the tile uncovered under a taken one |
| cards_left | count | at the end, each player in seat order |

Extra keys "source" and "note" are kept in the record and ignored by the rules.
"""

from .path import HALVES
from .refusals import malformed

FIELDS = {
    "lay": ("colour", "value"),
    "shuffle": ("order",),
    "buy": ("tile",),
    "move": ("citizen", "cards"),
    "no_move": (),
    "pay": (),
    "reveal": ("colour", "value"),
    "cards_left": ("count",),
}
META = ("source", "note")


def _int(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise malformed(f"{what} must be a whole number, 0 or more, not {value!r}")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise malformed(f"{what} must be a name, not {value!r}")
    return value


def normalize(inp: object) -> dict:
    if not isinstance(inp, dict):
        raise malformed("an input must be a JSON object with a 'type'")
    kind = inp.get("type")
    if not isinstance(kind, str):
        raise malformed(f"an input's 'type' is a name ({', '.join(FIELDS)}), not {type(kind).__name__} {kind!r}")
    if kind not in FIELDS:
        raise malformed(f"unknown input type {kind!r}; known: {', '.join(FIELDS)}")
    for field in FIELDS[kind]:
        if field not in inp:
            raise malformed(f"a {kind} input needs '{field}'")
    out: dict = {"type": kind}
    if kind in ("lay", "reveal"):
        out["colour"] = _text(inp["colour"], "colour")
        out["value"] = _int(inp["value"], "value")
    elif kind == "shuffle":
        order = inp["order"]
        if not isinstance(order, dict) or not all(isinstance(v, list) and all(type(i) is int for i in v)
                                                  for v in order.values()):
            raise malformed("a shuffle's 'order' must map each half (A, B) to a list of tile numbers")
        if set(order) != set(HALVES):
            raise malformed(f"a shuffle's 'order' gives the halves {', '.join(HALVES)} and nothing else, "
                            f"not {', '.join(map(str, order)) or 'none'}")
        out["order"] = {k: list(v) for k, v in order.items()}
    elif kind == "buy":
        out["tile"] = _text(inp["tile"], "tile")
    elif kind == "move":
        out["citizen"] = _int(inp["citizen"], "citizen")
        cards = inp["cards"]
        if not isinstance(cards, list) or not cards:
            raise malformed("a move needs 'cards': the colours played, in order (one at least)")
        out["cards"] = [_text(c, "each card") for c in cards]
        bridge = inp.get("bridge")
        out["bridge"] = None if bridge is None else _int(bridge, "bridge")
        take = inp.get("take", True)
        if not isinstance(take, bool):
            raise malformed(f"a move's 'take' must be true or false, not {take!r}")
        if not take:
            out["take"] = False   # kept only when declined: a record without it takes the tile
    elif kind == "pay":
        tiles = inp.get("tiles", [])
        if not isinstance(tiles, list):
            raise malformed("a payment's 'tiles' must be a list of tile ids")
        out["tiles"] = [_text(t, "each tile") for t in tiles]
        out["cards"] = _int(inp.get("cards", 0), "cards")
    elif kind == "cards_left":
        out["count"] = _int(inp["count"], "count")
    return out



def for_record(inp: object) -> dict:
    """The input as the record keeps it: its clean fields, and the table's own notes
    ("source", "note") that the rules ignore."""
    out = normalize(inp)
    out.update({k: inp[k] for k in META if isinstance(inp.get(k), str)})
    return out
