"""Where a citizen can go and what it costs: the query the table asks before a move,
and the move options of the turn prompt (one source for both).

    reach(state, seat, citizen) -> [{"cards": [...], "to": 17, "steps": [9, 17],
                                     "gaps": [{"first", "last", "bridge", "cost"}], "cost": 3,
                                     "bridges": [first space of each gap a bridge could go on]}]

The colours in hand are hidden, so every chain the hand's size allows is listed;
the table picks the ones its cards make.
"""

from .movement import routes
from .path import MAINLAND
from .water import crossed


def points(state: dict, seat: int) -> int:
    return sum(state["tiles"][t]["value"] for t in state["held"][seat])


def reach(state: dict, seat: int, citizen: int, max_cards: int | None = None) -> list[dict]:
    start = state["citizens"][seat][citizen]
    if start >= MAINLAND:
        return []
    hand = state["cards"][seat]["hand"] if max_cards is None else max_cards
    out = []
    for route in routes(state, start, hand):
        gaps = crossed(state, start, route["to"])
        open_gaps = [g for g in gaps if g["bridge"] is None]
        out.append(dict(route, gaps=gaps, cost=sum(g["cost"] for g in gaps),
                        bridges=[] if state["bridge_built"][seat] else [g["first"] for g in open_gaps]))
    return out


def affordable(state: dict, seat: int, route: dict, bridge: int | None) -> bool:
    """The crossings can be paid with the tiles held and the cards left after the move (A8)."""
    cost = route["cost"] - sum(g["cost"] for g in route["gaps"] if g["first"] == bridge)
    return cost <= points(state, seat) + state["cards"][seat]["hand"] - len(route["cards"])


def move_options(state: dict, seat: int) -> list[dict]:
    out = []
    for citizen in range(len(state["citizens"][seat])):
        for route in reach(state, seat, citizen):
            for bridge in [None] + route["bridges"]:
                if affordable(state, seat, route, bridge):
                    out.append({"type": "move", "citizen": citizen, "cards": route["cards"], "bridge": bridge})
    return out


def sure_to_move(state: dict, seat: int) -> bool:
    """Whatever the colours in hand, one card alone makes a legal move (A11)."""
    if state["cards"][seat]["hand"] == 0:
        return False
    movable = set()
    for citizen in range(len(state["citizens"][seat])):
        for route in reach(state, seat, citizen, max_cards=1):
            if any(affordable(state, seat, route, b) for b in [None] + route["bridges"]):
                movable.add(route["cards"][0])
    return movable >= set(state["profile"]["colours"])
