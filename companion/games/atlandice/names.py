"""The game's vocabulary: resources, Areas, Districts and their tiles.

Everything here is constant data; the order of each tuple is the order the
rulebook uses and the order the companion shows.
"""

RESOURCES = ("gem", "book", "provision", "tool", "weapon")

# District die value -> District, in the book's order (1 to 5).
DISTRICTS = ("jeweller", "library", "inn", "works", "blacksmith")
MARKET = "market"
AREAS = DISTRICTS + (MARKET,)

DISTRICT_VALUE = {d: i + 1 for i, d in enumerate(DISTRICTS)}
DISTRICT_RESOURCE = dict(zip(DISTRICTS, RESOURCES))
RESOURCE_DISTRICT = dict(zip(RESOURCES, DISTRICTS))

# Each stack holds three different tiles (rulings: "District effects").
STACKS = {
    "jeweller": ("J-odd", "J-swap", "J-visit"),
    "library": ("L-high", "L-market", "L-second"),
    "inn": ("I-clock", "I-supply", "I-change"),
    "works": ("E1", "E2", "E3"),
    "blacksmith": ("B-even", "B-move", "B-six"),
}
TILES = tuple(t for stack in STACKS.values() for t in stack)
TILE_DISTRICT = {t: d for d, stack in STACKS.items() for t in stack}

TILE_POINTS = 3  # each District tile won is worth 3 VP at the end


def area_of_face(face: int, depleted: list | tuple = ()) -> str:
    """The Area a die showing `face` lies beside (Open the Gates, R8).

    A 6 goes to the Black Market, as does a die of a depleted District.
    """
    if 1 <= face <= 5:
        district = DISTRICTS[face - 1]
        if DISTRICT_RESOURCE[district] not in depleted:
            return district
    return MARKET


def no_resources() -> dict:
    return {r: 0 for r in RESOURCES}
