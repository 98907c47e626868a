"""The game profile: what the pieces show and the rulebook's text does not (S3, S4, S5).

A profile is plain data (default_profile.toml in this package):

    {"name": "default", "confirmed": False,
     "colours": ["red", "blue", "green", "yellow"],       # the four explorer colours (S5)
     "values": [1, 1, 1, 2, 2, 3, 3, 4, 5, 6],            # under one colour's 10 explorers (S3)
     "backs": {"beach": {"shark": 3, ...}, "forest": {...}, "mountain": {...}}}   # S4

The text gives the number of tiles of each terrain (16, 16, 8), says values run from
1 to 6 and that the volcano lies under one mountain; the rest is the owner's to check
against their box, so the default is marked unconfirmed.
"""

from .errors import invalid
from .names import BACKS, COLOUR_WORDS, EXPLORERS_PER_COLOUR, TERRAIN_TILES, TERRAINS

MAX_NAME = 60


def _fault(message: str) -> Exception:
    return invalid(f"game profile: {message}", "S4", "profile", detail=message)


def validate_profile(profile: object) -> dict:
    """A clean copy of `profile`, or RuleError("invalid") naming the fault."""
    if not isinstance(profile, dict):
        raise _fault("it must be a table")
    colours = profile.get("colours")
    if (not isinstance(colours, list) or len(colours) != 4 or len(set(colours)) != 4
            or any(c not in COLOUR_WORDS for c in colours)):
        raise _fault(f"'colours' must be four different colours among {', '.join(COLOUR_WORDS)}")
    values = profile.get("values")
    if (not isinstance(values, list) or len(values) != EXPLORERS_PER_COLOUR
            or any(type(v) is not int or not 1 <= v <= 6 for v in values)):
        raise _fault(f"'values' must list the {EXPLORERS_PER_COLOUR} numbers (1 to 6) under one colour's explorers")
    backs = profile.get("backs")
    if not isinstance(backs, dict) or set(backs) != set(TERRAINS):
        raise _fault(f"'backs' must have a table for each terrain: {', '.join(TERRAINS)}")
    clean_backs = {}
    for terrain in TERRAINS:
        table = backs[terrain]
        if not isinstance(table, dict) or set(table) - set(BACKS):
            raise _fault(f"the {terrain} backs must be among {', '.join(BACKS)}")
        counts = {kind: table.get(kind, 0) for kind in BACKS}
        if any(type(n) is not int or n < 0 for n in counts.values()):
            raise _fault(f"the {terrain} backs must be whole numbers")
        if sum(counts.values()) != TERRAIN_TILES[terrain]:
            raise _fault(f"the {terrain} backs must add up to the {TERRAIN_TILES[terrain]} {terrain} tiles, "
                         f"not {sum(counts.values())}")
        clean_backs[terrain] = counts
    # Fim do Jogo: "Sob uma das peças de Montanha há o ícone do Vulcão".
    if clean_backs["mountain"]["volcano"] != 1 or clean_backs["beach"]["volcano"] or clean_backs["forest"]["volcano"]:
        raise _fault("the volcano lies under exactly one mountain tile")
    confirmed = profile.get("confirmed", False)
    if not isinstance(confirmed, bool):
        raise _fault("'confirmed' must be true or false")
    name = profile.get("name", "custom")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME or not name.isprintable():
        raise _fault(f"'name' must be text of 1 to {MAX_NAME} characters on one line")
    return {"name": name.strip(), "confirmed": confirmed, "colours": list(colours),
            "values": sorted(values), "backs": clean_backs}


def back_total(profile: dict, kind: str) -> int:
    """How many tiles of the whole island hide `kind`."""
    return sum(profile["backs"][t][kind] for t in TERRAINS)
