"""The path from Atlantis to the mainland, and positions on it.

Positions are numbers: 0 is Atlantis, 1..53 the spaces of the path in order,
54 the mainland (A1). A space is {"tiles": [top, lower...], "bridge": seat or
None}: tile ids, the top one first; a lower tile not yet seen is None (the
table enters it when it is revealed, A3). A space with no tile is water.
"""

# (stack height, how many spaces): the order the rules give, and after the water
# the same again in mirror order (A1). Height 0 is the water tile.
LAYOUT = ((2, 10), (1, 10), (2, 6), (0, 1), (2, 6), (1, 10), (2, 10))
HEIGHTS = tuple(h for h, n in LAYOUT for _ in range(n))
ATLANTIS = 0
MAINLAND = len(HEIGHTS) + 1
HALVES = ("A", "B")   # the tiles before the water and after it
WATER_AT = HEIGHTS.index(0) + 1


def half_of(position: int) -> str:
    return "A" if position < WATER_AT else "B"


def half_spaces(half: str) -> list[int]:
    return [p for p in range(1, MAINLAND) if HEIGHTS[p - 1] and half_of(p) == half]


def half_size(half: str) -> int:
    return sum(HEIGHTS[p - 1] for p in half_spaces(half))


def tile_id(position: int, level: int) -> str:
    """'12.1' is the tile laid on top at space 12, '12.2' the one under it."""
    return f"{position}.{level}"


def space(state: dict, position: int) -> dict:
    return state["spaces"][position - 1]


def is_water(state: dict, position: int) -> bool:
    return ATLANTIS < position < MAINLAND and not space(state, position)["tiles"]


def top(state: dict, position: int) -> dict | None:
    """The tile on top at `position` ({"id", "colour", "value"}), None on water, Atlantis or the mainland."""
    if not ATLANTIS < position < MAINLAND:
        return None
    tiles = space(state, position)["tiles"]
    if not tiles or tiles[0] is None:
        return None
    return dict(state["tiles"][tiles[0]], id=tiles[0])


def occupied(state: dict, position: int) -> bool:
    """A path space holds one citizen at most; Atlantis and the mainland hold any number (A4)."""
    if not ATLANTIS < position < MAINLAND:
        return False
    return any(position in citizens for citizens in state["citizens"])


def tiles_on_path(state: dict) -> int:
    """Tiles still on the path, the lower ones not yet seen included."""
    return sum(len(s["tiles"]) for s in state["spaces"])
