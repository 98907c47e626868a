"""Setup: the players, their citizens, bridges and hands, and the path laid tile by tile.

setup = {"game": "atlantis", "players": [2-4 names, in seat order],
         "first_player": seat (default 0),
         "path": "table" (the table lays the tiles and enters each top tile) or
                 "shuffle" (the companion lays the profile's tiles in an order given as an input),
         "profile": {...} (profile.py)}
"""

from .events import event
from .path import HALVES, HEIGHTS, MAINLAND, half_spaces, space, tile_id
from .profile import cards_total, half_tiles, validate_profile
from .refusals import malformed, refuse

CITIZENS = 3           # "Cada jugador tiene tres figuras ... y un puente"
FIRST_HAND = 4         # "El jugador inicial recibe cuatro cartas ..., el siguiente, cinco, etc."
PATH_MODES = ("table", "shuffle")
# What the setup form asks (companion/games/__init__.py, Rules.setup_options); words in the catalogs' page group.
SETUP_OPTIONS = (
    {"key": "path", "kind": "choice", "among": PATH_MODES, "words": "setup_path", "choice_words": "path_"},
)


def new_state(setup: dict) -> dict:
    """The table before the path is laid: citizens on Atlantis, hands dealt (counts only)."""
    if not isinstance(setup, dict):
        raise malformed("the setup must be an object", "Setup", "setup")
    if setup.get("game", "atlantis") != "atlantis":
        raise malformed(f"setup: this is the Atlantis engine, not {setup.get('game')!r}", "Setup", "setup")
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise malformed("setup: 'players' must be a list of names", "Setup", "setup")
    names = [p.strip() for p in players]
    if not 2 <= len(names) <= 4:
        raise malformed(f"setup: Atlantis is for 2 to 4 players, not {len(names)}", "Setup", "setup")
    if len({n.casefold() for n in names}) != len(names):
        raise malformed("setup: player names must be different", "Setup", "setup")
    first = setup.get("first_player", 0)
    if type(first) is not int or not 0 <= first < len(names):
        raise malformed(f"setup: 'first_player' must be a seat from 0 to {len(names) - 1}", "Setup", "setup")
    mode = setup.get("path", "table")
    if mode not in PATH_MODES:
        raise malformed(f"setup: 'path' must be one of {', '.join(PATH_MODES)}", "Setup", "setup")
    profile = validate_profile(setup.get("profile"), need_tiles=mode == "shuffle")
    n = len(names)
    hands = [0] * n
    for i in range(n):
        hands[(first + i) % n] = FIRST_HAND + i
    return {
        "game": "atlantis",
        "players": names,
        "first": first,
        "profile": profile,
        "path_mode": mode,
        "spaces": [{"tiles": [None] * h, "bridge": None} for h in HEIGHTS],
        "tiles": {},
        "citizens": [[0] * CITIZENS for _ in range(n)],
        "held": [[] for _ in range(n)],
        "bridge_built": [False] * n,
        "cards": [{"hand": h, "dealt": h, "drawn": 0, "bought": 0, "played": 0, "paid": 0} for h in hands],
        "draw_pile": cards_total(profile) - sum(hands),
        "discard": 0,
        "spent": [],
        "sold": [],
        "seat": first,
        "step": {"t": "shuffle"} if mode == "shuffle" else {"t": "lay", "position": 1},
        "settlement": [],
        "confirmed": [None] * n,
        "over": False,
        "result": None,
    }


def setup_events(state: dict) -> list:
    hands = [c["dealt"] for c in state["cards"]]
    return [event("atlantis.setup", "Setup", players=len(state["players"]), first=state["first"], hands=hands)]


def lay_options(state: dict) -> list[dict]:
    profile = state["profile"]
    return [{"type": "lay", "colour": c, "value": v} for c in profile["colours"] for v in profile["values"]]


def resolve_lay(state: dict, inp: dict, events: list) -> bool:
    """Enter the top tile the table laid at the step's space; True when the path is complete."""
    position = state["step"]["position"]
    tid = tile_id(position, 1)
    state["tiles"][tid] = {"colour": inp["colour"], "value": inp["value"]}
    space(state, position)["tiles"][0] = tid
    events.append(event("atlantis.laid", "A3", position=position, tile=tid, colour=inp["colour"],
                        value=inp["value"]))
    following = next((p for p in range(position + 1, MAINLAND) if HEIGHTS[p - 1]), None)
    if following is None:
        return True
    state["step"] = {"t": "lay", "position": following}
    return False


def check_shuffle(state: dict, inp: dict) -> None:
    for half in HALVES:
        order = inp["order"].get(half)
        size = len(half_tiles(state["profile"], half))
        if not isinstance(order, list) or sorted(order) != list(range(size)):
            raise refuse("bad_order", f"shuffle: the {half} order must list each of 0..{size - 1} once",
                         "A3", half=half, size=size)


def resolve_shuffle(state: dict, inp: dict, events: list) -> None:
    """Lay each half's tiles in the order given: space by space from Atlantis, the lower tile first."""
    for half in HALVES:
        tiles = half_tiles(state["profile"], half)
        dealt = iter(inp["order"][half])
        for position in half_spaces(half):
            stack = space(state, position)["tiles"]
            for level in range(len(stack), 0, -1):
                tid = tile_id(position, level)
                state["tiles"][tid] = dict(tiles[next(dealt)])
                stack[level - 1] = tid
    events.append(event("atlantis.shuffled", "A3", tiles=len(state["tiles"])))
