"""Drawing cards: counts only (cards in hand are hidden).

At the end of a turn a player draws one card, two with one citizen on the
mainland, three with two (counted after this turn's move, A13). When the draw
pile is empty the discards are shuffled into a new one; when both are empty the
player gets what there is (A14).
"""

from .events import event
from .path import MAINLAND


def end_of_turn_cards(state: dict, seat: int) -> int:
    return 1 + sum(1 for p in state["citizens"][seat] if p >= MAINLAND)


def take_cards(state: dict, seat: int, n: int, events: list, counter: str = "drawn") -> int:
    """Move up to `n` cards from the draw pile to the seat's hand; how many it got."""
    got = 0
    while got < n:
        if state["draw_pile"] == 0:
            if state["discard"] == 0:
                break
            state["draw_pile"], state["discard"] = state["discard"], 0
            events.append(event("atlantis.reshuffle", "A14", cards=state["draw_pile"]))
        take = min(n - got, state["draw_pile"])
        state["draw_pile"] -= take
        got += take
    state["cards"][seat]["hand"] += got
    state["cards"][seat][counter] += got
    return got


def draw(state: dict, seat: int, n: int, events: list, rule: str = "Draw") -> None:
    got = take_cards(state, seat, n, events)
    if got < n:
        events.append(event("atlantis.draw/short", "A14", seat=seat, cards=got, due=n))
    else:
        events.append(event("atlantis.draw", rule, seat=seat, cards=got))
