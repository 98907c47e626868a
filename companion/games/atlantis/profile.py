"""The game profile: what the box holds and the rules text does not say (A2).

A profile is plain data, carried whole in the setup so a record replays the
same whatever the shipped file later says:

    {"name": "standard", "confirmed": False,
     "colours": ["blue", ...],            # the card and tile colours (symbols)
     "values": [1, 2, ..., 7],            # the values a path tile can show
     "cards_per_colour": 15,
     "tiles": {"A": {colour: [value, ...]}, "B": {...}}}   # each half's tiles

`tiles` is only needed when the companion lays the path (setup "path":
"shuffle"); each half must then hold exactly the tiles its half of the path
takes. The shipped profile (profile.json) is marked unconfirmed until the
owner checks it against the box.
"""

import json
from importlib import resources

from .path import HALVES, half_size
from .refusals import malformed

MAX_COLOURS = 12
MAX_VALUE = 99


def default_profile() -> dict:
    """The profile shipped with the package (reads package data: call it at the edge, not in a rule)."""
    text = resources.files(__package__).joinpath("profile.json").read_text(encoding="utf-8")
    return validate_profile(json.loads(text))


def validate_profile(profile: object, *, need_tiles: bool = False) -> dict:
    """A clean copy of `profile`, or RuleError("invalid") naming the fault."""
    if not isinstance(profile, dict):
        raise malformed("setup: the game profile must be an object", "A2", "setup")
    colours = profile.get("colours")
    if (not isinstance(colours, list) or not 2 <= len(colours) <= MAX_COLOURS
            or not all(isinstance(c, str) and c for c in colours) or len(set(colours)) != len(colours)):
        raise malformed("profile: 'colours' must be a list of 2 or more different names", "A2", "setup")
    cards = profile.get("cards_per_colour")
    if type(cards) is not int or not 1 <= cards <= 99:
        raise malformed("profile: 'cards_per_colour' must be a whole number from 1 to 99", "A2", "setup")
    values = profile.get("values")
    if (not isinstance(values, list) or not values or len(set(values)) != len(values)
            or not all(type(v) is int and 1 <= v <= MAX_VALUE for v in values)):
        raise malformed("profile: 'values' must list the different values a tile can show", "A2", "setup")
    confirmed = profile.get("confirmed", False)
    if not isinstance(confirmed, bool):
        raise malformed("profile: 'confirmed' must be true or false", "A2", "setup")
    out = {"name": str(profile.get("name", "custom")), "confirmed": confirmed, "colours": list(colours),
           "values": sorted(values), "cards_per_colour": cards}
    tiles = profile.get("tiles")
    if tiles is None and not need_tiles:
        return out
    if not isinstance(tiles, dict) or set(tiles) != set(HALVES):
        raise malformed("profile: 'tiles' must give the tiles of both halves, A and B", "A2", "setup")
    out["tiles"] = {}
    for half in HALVES:
        by_colour = tiles[half]
        if not isinstance(by_colour, dict) or set(by_colour) - set(colours):
            raise malformed(f"profile: the {half} tiles must be listed by colour, one of the profile's colours",
                            "A2", "setup")
        clean = {}
        for colour in colours:
            values = by_colour.get(colour, [])
            if not isinstance(values, list) or not all(type(v) is int and v in out["values"] for v in values):
                raise malformed(f"profile: the {half} {colour} tiles must be values of the profile's 'values'",
                                "A2", "setup")
            clean[colour] = list(values)
        if sum(len(v) for v in clean.values()) != half_size(half):
            raise malformed(f"profile: half {half} of the path takes {half_size(half)} tiles, "
                            f"not {sum(len(v) for v in clean.values())}", "A1", "setup")
        out["tiles"][half] = clean
    return out


def half_tiles(profile: dict, half: str) -> list[dict]:
    """The tiles of one half in the profile's order: the order a shuffle permutes."""
    return [{"colour": c, "value": v} for c in profile["colours"] for v in profile["tiles"][half][c]]


def cards_total(profile: dict) -> int:
    return profile["cards_per_colour"] * len(profile["colours"])
