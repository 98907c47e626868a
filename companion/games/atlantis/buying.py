"""Buying cards: at the start of a turn, before moving, a player may give back
tiles they hold; each brings half its value in cards, rounded down (A12).
"""

from .drawing import take_cards
from .events import event


def buy_options(state: dict, seat: int) -> list[dict]:
    return [{"type": "buy", "tile": t} for t in state["held"][seat]]


def cards_for(value: int) -> int:
    return value // 2


def resolve_buy(state: dict, seat: int, inp: dict, events: list) -> None:
    tile = inp["tile"]
    state["held"][seat].remove(tile)
    state["sold"].append(tile)
    value = state["tiles"][tile]["value"]
    due = cards_for(value)
    got = take_cards(state, seat, due, events, counter="bought")
    events.append(event("atlantis.buy", "A12" if due == 0 or got < due else "Buy", seat=seat, tile=tile,
                        colour=state["tiles"][tile]["colour"], value=value, cards=got, due=due))
