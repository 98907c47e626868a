"""Water: gaps in the path, what crossing them costs, bridges.

A gap is a run of water spaces with a tile on each side. Crossing it by boat
costs the lower of the two tiles beside it; a bridged gap is free for every
player. Water touching Atlantis or the mainland is no gap: nothing to pay and
nothing to bridge (A6). Gaps crossed in one move add up.
"""

from .events import event
from .path import ATLANTIS, MAINLAND, is_water, space, top


def gaps(state: dict) -> list[dict]:
    """Every gap, in path order: {"first", "last", "bridge": seat | None, "cost"}."""
    out = []
    position = ATLANTIS + 1
    while position < MAINLAND:
        if not is_water(state, position):
            position += 1
            continue
        first = position
        while position < MAINLAND and is_water(state, position):
            position += 1
        last = position - 1
        if first - 1 == ATLANTIS or last + 1 == MAINLAND:
            continue  # A6: joined to Atlantis or the mainland
        bridge = space(state, first)["bridge"]
        cost = 0 if bridge is not None else min(top(state, first - 1)["value"], top(state, last + 1)["value"])
        out.append({"first": first, "last": last, "bridge": bridge, "cost": cost})
    return out


def crossed(state: dict, start: int, end: int) -> list[dict]:
    """The gaps a citizen crosses going from `start` to `end`."""
    return [g for g in gaps(state) if start < g["first"] and g["last"] < end]


def crossing_cost(state: dict, start: int, end: int, bridge_at: int | None = None) -> int:
    """What crossing from `start` to `end` costs, with a bridge built on the gap at `bridge_at`."""
    return sum(g["cost"] for g in crossed(state, start, end) if g["first"] != bridge_at)


def gap_at(state: dict, position: int) -> dict | None:
    return next((g for g in gaps(state) if g["first"] <= position <= g["last"]), None)


def build_bridge(state: dict, seat: int, first: int, events: list) -> None:
    gap = gap_at(state, first)
    for position in range(gap["first"], gap["last"] + 1):
        space(state, position)["bridge"] = seat
    state["bridge_built"][seat] = True
    events.append(event("atlantis.bridge", "A7", seat=seat, first=gap["first"], last=gap["last"],
                        saved=gap["cost"]))


def flood(state: dict, position: int, events: list) -> None:
    """`position` lost its last tile. A bridge beside it lengthens over the whole joined water (A7)."""
    events.append(event("atlantis.flooded", "Water", position=position))
    first = last = position
    while is_water(state, first - 1):
        first -= 1
    while is_water(state, last + 1):
        last += 1
    owners = [space(state, p)["bridge"] for p in range(first, last + 1) if space(state, p)["bridge"] is not None]
    if not owners:
        return
    for p in range(first, last + 1):
        space(state, p)["bridge"] = owners[0]
    events.append(event("atlantis.bridge_longer", "A7", seat=owners[0], first=first, last=last))
