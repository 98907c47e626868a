"""Inputs: parse them (invalid when not understood). Every input is a JSON object with a
"type"; the extra keys "source" and "note" are kept in the record and ignored here.

    {"type": "setup", "step": 3}                      a setup step done
    {"type": "play", "tile": "dolphin"}               step 1: a red tile played from the hand
    {"type": "done"}                                  the step is over (no tile, moves, whirlpool, creature)
    {"type": "saved", "colour": "red"}                an explorer reached a safe isle
    {"type": "lost", "colour": "blue"}                an explorer left the game
    {"type": "boat_lost"}                             a boat left the game
    {"type": "remove", "terrain": "beach", "surrounded": false}   step 3
    {"type": "reveal", "back": "shark"}               the back of that tile ("red": to the hand)
    {"type": "taken", "creature": "shark"}            a whirlpool took a creature
    {"type": "creature_roll", "face": "whale"}        the creature die (a chance input)
    {"type": "defend", "seat": 2, "tile": "repel_shark"}   a defensive tile, in another's turn
    {"type": "value", "colour": "red", "value": 4}    the end: one saved explorer's number
    {"type": "values", "colour": "red", "values": [1, 4, 6]}   the end: the saved explorers' values at once
"""

from .errors import invalid
from .names import COLOUR_WORDS, CREATURES, DEFENSIVE, GREEN, RED_BACK, START_OF_TURN, TERRAINS

META = ("source", "note")
FIELDS = {
    "setup": ("step",), "play": ("tile",), "done": (), "saved": ("colour",), "lost": ("colour",),
    "boat_lost": (), "remove": ("terrain",), "reveal": ("back",), "taken": ("creature",),
    "creature_roll": ("face",), "defend": ("seat", "tile"), "values": ("colour", "values"),
    "value": ("colour", "value"),
}


def _one_of(value: object, allowed: tuple, field: str) -> str:
    if value not in allowed:
        raise invalid(f"'{field}' must be one of {', '.join(map(str, allowed))}, not {value!r}",
                      key="input_field", field=field)
    return value


def _int(value: object, field: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise invalid(f"'{field}' must be a whole number from {low} to {high}, not {value!r}",
                      key="input_field", field=field)
    return value


def normalize(inp: object) -> dict:
    """A clean copy of `inp` with only the known keys, or RuleError("invalid")."""
    if not isinstance(inp, dict):
        raise invalid("an input must be a JSON object with a 'type'", key="input_object")
    kind = inp.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:     # a list or an object is no type (and unhashable)
        raise invalid(f"unknown input type {kind!r}; known: {', '.join(FIELDS)}", key="input_type",
                      given=str(kind))
    for field in FIELDS[kind]:
        if field not in inp:
            raise invalid(f"a {kind} input needs '{field}'", key="input_missing", field=field)
    out: dict = {"type": kind}
    if kind == "setup":
        out["step"] = _int(inp["step"], "step", 1, 8)
    elif kind == "play":
        out["tile"] = _one_of(inp["tile"], START_OF_TURN, "tile")
    elif kind in ("saved", "lost"):
        out["colour"] = _one_of(inp["colour"], COLOUR_WORDS, "colour")
    elif kind == "remove":
        out["terrain"] = _one_of(inp["terrain"], TERRAINS, "terrain")
        surrounded = inp.get("surrounded", False)
        if not isinstance(surrounded, bool):
            raise invalid("'surrounded' must be true or false", key="input_field", field="surrounded")
        out["surrounded"] = surrounded
    elif kind == "reveal":
        out["back"] = _one_of(inp["back"], GREEN + (RED_BACK,), "back")
    elif kind == "taken":
        out["creature"] = _one_of(inp["creature"], CREATURES, "creature")
    elif kind == "creature_roll":
        out["face"] = _one_of(inp["face"], CREATURES, "face")
    elif kind == "defend":
        out["seat"] = _int(inp["seat"], "seat", 0, 3)
        out["tile"] = _one_of(inp["tile"], DEFENSIVE, "tile")
    elif kind == "value":
        out["colour"] = _one_of(inp["colour"], COLOUR_WORDS, "colour")
        out["value"] = _int(inp["value"], "value", 1, 6)
    elif kind == "values":
        out["colour"] = _one_of(inp["colour"], COLOUR_WORDS, "colour")
        values = inp["values"]
        if not isinstance(values, list) or len(values) > 10:
            raise invalid("'values' must be the list of numbers under the saved explorers",
                          key="input_field", field="values")
        out["values"] = sorted(_int(v, "values", 1, 6) for v in values)
    for key in META:        # who entered it and why: kept in the record, never part of the decision
        if isinstance(inp.get(key), str):
            out[key] = inp[key]
    return out
