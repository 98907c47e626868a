"""The table as one plain value, and the setup that makes the first one.

A state is a dict of plain data (JSON as is). Its keys:

    players     human names, seat order (clockwise)
    neutral     True in a 2-player game: seat 2 is the neutral player
    profile     the board profile (R12)
    in_play     resources of each kind in play at setup (10 or 12)
    dice_count  7 or 9
    districts   {district: {"top": tile | None, "below": [tiles], "resources": {r: n}}}
    market      {r: n}            the Black Market
    stocks      [{r: n}] per seat
    tokens      [n] VP tokens per seat
    tiles       [[tile]] District tiles won per seat
    set_aside   [tile]            tiles no one could claim (R7)
    depleted    [resource]        stacks used up: that resource left the game
    submarine   area
    clock       index of the hand on profile["track"]
    round       1, 2, ...
    first       seat of the first player
    dice        faces of the dice lying on the board (their Area follows from the face, R8)
    turn        {"order": [seat per pick], "next": i, "received": [n per seat], "given": [bool per human]}
    end_after_visits   R9: the Inn moved the hand to the end space this round
    pending     the engine's to-do stack (top last): what happens or is asked next
    vp_history  [[VP per seat]] at the end of each round
    over, result   the game has ended; the final scoring breakdown
"""

import marshal

from ..errors import invalid
from .names import DISTRICT_RESOURCE, DISTRICTS, MARKET, RESOURCES, STACKS, no_resources
from .profile import validate_profile

NEUTRAL_NAME = "Neutral"
# What the setup form asks (companion/games/__init__.py, Rules.setup_options): the top tile
# of each District's stack, said in the words of the area and the tile.
SETUP_OPTIONS = tuple({"key": f"tops.{d}", "kind": "choice", "among": STACKS[d], "words": ["area", d],
                       "choice_words": ["tile"], "group": "setup_tops"} for d in DISTRICTS)


def copy_state(state: dict) -> dict:
    # marshal round-trips plain data several times faster than copy.deepcopy.
    return marshal.loads(marshal.dumps(state))


def seat_names(state: dict) -> list[str]:
    return list(state["players"]) + ([NEUTRAL_NAME] if state["neutral"] else [])


def seat_count(state: dict) -> int:
    return len(state["players"]) + (1 if state["neutral"] else 0)


def neutral_seat(state: dict) -> int | None:
    return len(state["players"]) if state["neutral"] else None


def setup_counts(humans: int) -> tuple[int, int]:
    """(resources on each first tile, dice) for 2/3 or 4 players (Setup)."""
    return (9, 9) if humans == 4 else (7, 7)


def new_state(setup: dict) -> dict:
    """The table after Setup.

    setup: {"players": [2-4 names], "first_player": seat, "profile": {...},
            "tops": {district: tile on top}}  (tops: the table says which tile
            was shuffled on top; by default the first of each stack).
    """
    if not isinstance(setup, dict):
        raise invalid("the setup must be an object")
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise invalid("setup: 'players' must be a list of names", key="setup_names")
    if not 2 <= len(players) <= 4:
        raise invalid(f"setup: Atlandice is for 2 to 4 players, not {len(players)}", "Setup", "setup_players",
                      n=len(players))
    names = [p.strip() for p in players]
    if len(set(n.casefold() for n in names)) != len(names) or NEUTRAL_NAME.casefold() in (n.casefold() for n in names):
        raise invalid("setup: player names must be different from each other and from 'Neutral'",
                      key="setup_distinct")
    first = setup.get("first_player", 0)
    if type(first) is not int or not 0 <= first < len(names):
        raise invalid(f"setup: 'first_player' must be a seat from 0 to {len(names) - 1}", key="setup_first")
    profile = validate_profile(setup.get("profile"))
    tops = setup.get("tops") or {}
    if not isinstance(tops, dict) or set(tops) - set(DISTRICTS):
        raise invalid("setup: 'tops' must map Districts to the tile on top")
    on_tile, dice = setup_counts(len(names))
    districts = {}
    for d in DISTRICTS:
        top = tops.get(d, STACKS[d][0])
        if top not in STACKS[d]:
            raise invalid(f"setup: {top!r} is not a {d} tile (one of {', '.join(STACKS[d])})", key="setup_tile",
                          tile=str(top), district=d)
        resources = no_resources()
        resources[DISTRICT_RESOURCE[d]] = on_tile
        districts[d] = {"top": top, "below": [t for t in STACKS[d] if t != top], "resources": resources}
    neutral = len(names) == 2
    seats = len(names) + (1 if neutral else 0)
    return {
        "players": names,
        "neutral": neutral,
        "profile": profile,
        "in_play": on_tile + 3,
        "dice_count": dice,
        "districts": districts,
        "market": {r: 3 for r in RESOURCES},
        "stocks": [no_resources() for _ in range(seats)],
        "tokens": [0] * seats,
        "tiles": [[] for _ in range(seats)],
        "set_aside": [],
        "depleted": [],
        "submarine": "works",
        "clock": 0,
        "round": 1,
        "first": first,
        "dice": [],
        "turn": new_turn(len(names), first, seats),
        "end_after_visits": False,
        "pending": [{"t": "gate_roll"}],
        "vp_history": [],
        "over": False,
        "result": None,
    }


def new_turn(humans: int, first: int, seats: int) -> dict:
    """The order of picks in a round: twice round the table, or P1 P2 x3 with 2 players."""
    ring = [(first + i) % humans for i in range(humans)]
    order = ring * 3 if humans == 2 else ring * 2
    return {"order": order, "next": 0, "received": [0] * seats, "given": [False] * humans}


def vp(state: dict) -> list[int]:
    """VP so far per seat: tokens plus 3 per tile (majorities come only at the end)."""
    return [k + 3 * len(t) for k, t in zip(state["tokens"], state["tiles"])]


def top_tile(state: dict, district: str) -> str | None:
    return state["districts"][district]["top"]


def live_districts(state: dict) -> list[str]:
    """Districts whose stack is not depleted ("another District" never means a depleted one)."""
    return [d for d in DISTRICTS if DISTRICT_RESOURCE[d] not in state["depleted"]]


def holdings(state: dict, area: str) -> dict:
    return state["market"] if area == MARKET else state["districts"][area]["resources"]
