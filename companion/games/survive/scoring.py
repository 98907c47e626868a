"""The end tally: each player turns over the explorers they saved and enters their
values; the companion checks them against the values a colour holds (the game
profile, S3), adds them up and names the winner: the most points, not the most
explorers. Two players add their two colours (Partida de Dois Jogadores). Challenge #3
counts saved explorers and asks no values. A tie is a shared win (S2).
"""

from functools import lru_cache
from itertools import combinations

from .events import event
from .state import seat_of


@lru_cache(maxsize=64)
def _choices(values: tuple, count: int) -> tuple:
    return tuple(sorted({c for c in combinations(values, count)}))


def value_choices(values: list[int], count: int) -> list[list[int]]:
    """Every set of `count` values (sorted) that `count` explorers of one colour can show."""
    return [list(c) for c in _choices(tuple(sorted(values)), count)]


def holds(values: list[int], shown: list[int]) -> bool:
    """`shown` is part of a colour's `values` (as a multiset)."""
    left = list(values)
    for v in shown:
        if v not in left:
            return False
        left.remove(v)
    return True


def colour_asked(state: dict) -> str:
    return state["to_value"][0]


def options(state: dict) -> list[dict]:
    colour = colour_asked(state)
    count = state["explorers"][colour]["saved"]
    return [{"type": "values", "colour": colour, "values": v}
            for v in value_choices(state["profile"]["values"], count)]


def resolve(state: dict, inp: dict, events: list) -> None:
    colour = inp["colour"]
    state["values"][colour] = list(inp["values"])
    state["to_value"].pop(0)
    events.append(event("values.entered", "Objetivo", colour=colour, seat=seat_of(state, colour),
                        values=list(inp["values"]), total=sum(inp["values"])))
    if not state["to_value"]:
        tally(state, events)


def tally(state: dict, events: list) -> None:
    by_count = 3 in state["challenges"]
    seats = []
    for seat, colours in enumerate(state["colours"]):
        lines = []
        for colour in colours:
            saved = state["explorers"][colour]["saved"]
            values = [] if by_count else state["values"].get(colour, [])
            lines.append({"colour": colour, "saved": saved, "lost": state["explorers"][colour]["lost"],
                          "values": values, "points": saved if by_count else sum(values)})
        seats.append({"seat": seat, "colours": lines, "total": sum(line["points"] for line in lines)})
    best = max(s["total"] for s in seats)
    winners = [s["seat"] for s in seats if s["total"] == best]
    rule = "Desafio 3" if by_count else "Objetivo"
    for s in seats:
        events.append(event("final.score", rule, variant="explorers" if by_count else None,
                            seat=s["seat"], total=s["total"]))
    events.append(event("final.winners", "S2" if len(winners) > 1 else rule,
                        variant="shared" if len(winners) > 1 else None, seats=winners, total=best))
    state["result"] = {"counted": "explorers" if by_count else "values", "seats": seats,
                       "winners": winners, "shared": len(winners) > 1, "ended_by": state["ended_by"]}
    state["step"] = "over"
    state["over"] = True
