"""The end: a player's third citizen reaches the mainland.

The game ends at once: that move takes no tile behind, and the player draws four
cards (instead of the end-of-turn draw, A15). Every
other citizen still on the path, or still on Atlantis, goes to the mainland and
its crossings are subtracted from its player's points: no tile or card changes
hands, so a player can always "pay" and a score may go below zero (A16). Then
each player confirms the cards left in hand (A17), and the score is the
values of the tiles held plus one per card, less those payments. Ties share
the win.
"""

from .drawing import draw
from .events import event
from .path import MAINLAND
from .water import crossed

END_CARDS = 4


def all_home(state: dict, seat: int) -> bool:
    return all(p >= MAINLAND for p in state["citizens"][seat])


def finish(state: dict, seat: int, events: list) -> None:
    events.append(event("atlantis.end", "End", seat=seat))
    draw(state, seat, END_CARDS, events, rule="End")
    n = len(state["players"])
    for other in [(seat + i) % n for i in range(1, n)]:
        for citizen, position in enumerate(state["citizens"][other]):
            if position >= MAINLAND:
                continue
            gaps = crossed(state, position, MAINLAND)
            cost = sum(g["cost"] for g in gaps)
            state["settlement"].append({"seat": other, "citizen": citizen, "from": position, "cost": cost,
                                        "gaps": [dict(g) for g in gaps]})
            state["citizens"][other][citizen] = MAINLAND
            split = [g["cost"] for g in gaps]
            key = "atlantis.settle/free" if not cost else "atlantis.settle/gaps" if len(split) > 1 \
                else "atlantis.settle"
            events.append(event(key, "A16", seat=other, citizen=citizen, position=position, cost=cost,
                                split=split))
    state["step"] = {"t": "cards_left", "seat": 0}


def cards_left_options(state: dict) -> list[dict]:
    """Any count the player finds in hand; the companion's own count first (A17)."""
    counted = state["cards"][state["step"]["seat"]]["hand"]
    limit = state["profile"]["cards_per_colour"] * len(state["profile"]["colours"])
    return [{"type": "cards_left", "count": c} for c in [counted] + [c for c in range(limit + 1) if c != counted]]


def resolve_cards_left(state: dict, inp: dict, events: list) -> None:
    seat = state["step"]["seat"]
    counted = state["cards"][seat]["hand"]
    state["confirmed"][seat] = inp["count"]
    key = "atlantis.cards_left" if inp["count"] == counted else "atlantis.cards_left/differs"
    events.append(event(key, "A17", seat=seat, count=inp["count"], counted=counted))
    if seat + 1 < len(state["players"]):
        state["step"] = {"t": "cards_left", "seat": seat + 1}
        return
    state["result"] = scoring(state)
    state["over"] = True
    state["step"] = {"t": "over"}
    for line in state["result"]["scores"]:
        events.append(event("atlantis.score", "End", seat=line["seat"], tiles=line["tile_points"],
                            cards=line["cards"], payments=line["payments"], total=line["total"]))
    events.append(event("atlantis.winners", "End", seats=state["result"]["winners"],
                        total=state["result"]["best"]))


def scoring(state: dict) -> dict:
    """The breakdown: each player's tiles, cards, every automatic payment (a citizen whose way home
    crosses nothing to pay is no payment: not listed) and total; the winners."""
    scores = []
    for seat in range(len(state["players"])):
        tiles = [dict(state["tiles"][t], id=t) for t in state["held"][seat]]
        paid = [dict(s) for s in state["settlement"] if s["seat"] == seat and s["cost"]]   # a free one is no payment
        cards = state["confirmed"][seat]
        tile_points = sum(t["value"] for t in tiles)
        payments = sum(p["cost"] for p in paid)
        scores.append({"seat": seat, "tiles": tiles, "tile_points": tile_points, "cards": cards,
                       "settlement": paid, "payments": payments, "total": tile_points + cards - payments})
    best = max(s["total"] for s in scores)
    return {"scores": scores, "best": best, "winners": [s["seat"] for s in scores if s["total"] == best]}
