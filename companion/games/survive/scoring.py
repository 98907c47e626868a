"""The end tally: each player turns over the explorers they saved and enters their
values, one tap per explorer (`{"type": "value", "colour", "value"}`: one of the numbers
that colour still holds; the last tap enters the set), or the whole set at once (`values`,
as older records do); the companion checks them against the values a colour holds (the game
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


def left_to_show(state: dict) -> list[int]:
    """The numbers the colour asked still holds, less those tapped so far (a multiset, sorted)."""
    left = sorted(state["profile"]["values"])
    for v in state["shown"]:
        left.remove(v)
    return left


def options(state: dict) -> list[dict]:
    """One tap per saved explorer: each number the colour still holds, once (at most six)."""
    colour = colour_asked(state)
    return [{"type": "value", "colour": colour, "value": v} for v in sorted(set(left_to_show(state)))]


def whole_set_legal(state: dict, decision: dict) -> bool:
    """The whole set at once (`values`), before any tap for that colour: as older records enter it."""
    if decision.get("type") != "values" or state["step"] != "values" or state["shown"]:
        return False
    colour = colour_asked(state)
    return (decision["colour"] == colour and len(decision["values"]) == state["explorers"][colour]["saved"]
            and holds(state["profile"]["values"], decision["values"]))


def resolve_value(state: dict, inp: dict, events: list) -> None:
    """One explorer's number; the last one of the colour enters the set."""
    colour = inp["colour"]
    state["shown"].append(inp["value"])
    left = state["explorers"][colour]["saved"] - len(state["shown"])
    if left:
        events.append(event("values.shown", "Objetivo", colour=colour, seat=seat_of(state, colour),
                            value=inp["value"], left=left))
        return
    shown, state["shown"] = sorted(state["shown"]), []
    resolve(state, {"colour": colour, "values": shown}, events)


def resolve(state: dict, inp: dict, events: list) -> None:
    colour = inp["colour"]
    state["values"][colour] = list(inp["values"])
    state["to_value"].pop(0)
    events.append(event("values.entered", "Objetivo", colour=colour, seat=seat_of(state, colour),
                        values=list(inp["values"]), total=sum(inp["values"]), count=len(inp["values"])))
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
