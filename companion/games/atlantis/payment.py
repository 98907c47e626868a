"""Paying for crossings: with tiles held and/or cards from the hand (their colour
does not matter), any mix that reaches the amount owed. Paying more is allowed
and the surplus is lost (A8); the prompt reports the total owed so nobody
overpays by accident.

    {"type": "pay", "tiles": ["12.1", "30.2"], "cards": 2}
"""

from .events import event
from .refusals import refuse


def payment_total(state: dict, inp: dict) -> int:
    return sum(state["tiles"][t]["value"] for t in inp["tiles"]) + inp["cards"]


def check_payment(state: dict, seat: int, owed: int, inp: dict) -> None:
    held = state["held"][seat]
    for tile in inp["tiles"]:
        if tile not in held:
            raise refuse("not_your_tile", f"tile {tile} is not one of the tiles you hold", "Water", tile=tile)
    if len(set(inp["tiles"])) != len(inp["tiles"]):
        raise refuse("pay_repeat", "each tile can be paid once", "Water")
    hand = state["cards"][seat]["hand"]
    if inp["cards"] > hand:
        raise refuse("pay_cards", f"you have {hand} cards, not {inp['cards']}", "Water", hand=hand,
                     cards=inp["cards"])
    total = payment_total(state, inp)
    if total < owed:
        raise refuse("pay_short", f"the crossing costs {owed}; this pays {total}", "Water", owed=owed,
                     paid=total)


def resolve_pay(state: dict, seat: int, owed: int, inp: dict, events: list) -> None:
    for tile in inp["tiles"]:
        state["held"][seat].remove(tile)
        state["spent"].append(tile)
    cards = state["cards"][seat]
    cards["hand"] -= inp["cards"]
    cards["paid"] += inp["cards"]
    state["discard"] += inp["cards"]
    total = payment_total(state, inp)
    key = "atlantis.pay/over" if total > owed else "atlantis.pay"
    faces = [dict(state["tiles"][t]) for t in inp["tiles"]]
    events.append(event(key, "A8" if total > owed else "Water", seat=seat, tiles=list(inp["tiles"]), faces=faces,
                        cards=inp["cards"], paid=total, owed=owed, over=total - owed))
