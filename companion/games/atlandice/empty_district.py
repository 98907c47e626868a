"""Empty District: who takes the tile, who takes VP tokens, and why.

    >>> payout([3, 3, 1, 0])   # the book's example: Anna, Bruno, Eric, Lola
    {'first': [0, 1], 'second': [], 'tied': True, 'unclaimed': False, 'second_scores': False}

The tile goes to one of `first` (the table chooses when several are tied);
`tokens(result, taker)` gives each seat's VP tokens once the taker is known.
"""

from .majority import ranks

TIE_FIRST_TOKENS = 3
SECOND_TOKENS = 1


def payout(counts: list[int]) -> dict:
    """The places at an empty District from each seat's count of its resource."""
    first, second = ranks(counts)
    tied = len(first) > 1
    return {
        "first": first,
        "second": [] if tied else second,
        "tied": tied,
        "unclaimed": not first,           # R7: nobody holds any
        "second_scores": bool(second) and not tied,
    }


def tokens(result: dict, taker: int | None) -> dict[int, int]:
    """VP tokens per seat once the tile's taker is chosen (None when unclaimed)."""
    if result["unclaimed"]:
        return {}
    if result["tied"]:
        return {s: TIE_FIRST_TOKENS for s in result["first"] if s != taker}
    return {s: SECOND_TOKENS for s in result["second"]}


def payout_by_name(counts: dict[str, int], taker: str | None = None) -> dict:
    """The same for the check page: names in, names out.

    With a tie for the most and no `taker` named, the first tied name (in the
    order given) is shown as taking the tile; the tokens do not depend on it.
    """
    names = list(counts)
    values = [int(counts[n]) for n in names]
    if any(v < 0 for v in values):
        raise ValueError("counts cannot be negative")
    result = payout(values)
    if taker is not None and (taker not in counts or names.index(taker) not in result["first"]):
        raise ValueError(f"{taker} is not among those with the most")
    seat = names.index(taker) if taker is not None else (result["first"][0] if result["first"] else None)
    got = tokens(result, seat)
    return {
        "first": [names[s] for s in result["first"]],
        "second": [names[s] for s in result["second"]],
        "tied": result["tied"],
        "unclaimed": result["unclaimed"],
        "tile": names[seat] if seat is not None else None,
        "tokens": {names[s]: n for s, n in got.items()},
        "rule": "R7" if result["unclaimed"] else None,
    }


# --- The flow on the table: after step c of every visit (R6) ---------------

from .events import event  # noqa: E402  (the pure payout above needs nothing)
from .names import DISTRICT_RESOURCE, DISTRICTS, RESOURCES, STACKS  # noqa: E402

MARKET_REFILL = 3


def check_after_visit(state: dict, task: dict, events: list) -> None:
    """Automatic: every District whose top tile holds nothing is scored, 1 to 5 (R6, R14).

    Only Districts empty now: one emptied by a depletion while scoring waits for the next visit (R16)."""
    empty = [d for d in DISTRICTS
             if state["districts"][d]["top"] is not None
             and not any(state["districts"][d]["resources"].values())]
    pending = state["pending"]
    for d in reversed(empty):  # the stack runs top-last: District 1 first
        pending.append({"t": "score_empty", "district": d})


def score_empty(state: dict, task: dict, events: list) -> None:
    """Automatic: places and tokens; then the tile goes to its taker (asked if tied)."""
    d = task["district"]
    r = DISTRICT_RESOURCE[d]
    counts = [stock[r] for stock in state["stocks"]]
    result = payout(counts)
    tile = state["districts"][d]["top"]
    events.append(event("empty.district", district=d, tile=tile, resource=r, counts=counts))
    pending = state["pending"]
    pending.append({"t": "reveal", "district": d})
    if result["unclaimed"]:
        state["set_aside"].append(tile)
        events.append(event("empty.unclaimed", rule="R7", district=d, tile=tile, resource=r))
    elif result["tied"]:
        # R18: the table chooses which of the tied takes the tile.
        pending.append({"t": "tile_taker", "district": d, "tile": tile, "resource": r,
                        "tied": result["first"], "seat": None, "who": None, "counts": counts})
    else:
        award_tile(state, d, tile, r, result["first"][0], result, counts, events)
    state["districts"][d]["top"] = None  # the tile left the board; the next one is revealed


def award_tile(state: dict, d: str, tile: str, r: str, taker: int, result: dict, counts: list,
               events: list) -> None:
    state["tiles"][taker].append(tile)
    events.append(event("empty.tile", rule="R18" if result["tied"] else None, district=d, tile=tile,
                        resource=r, seat=taker, count=counts[taker], tied=result["tied"],
                        kind="tied" if result["tied"] else "most"))
    for seat, n in tokens(result, taker).items():
        state["tokens"][seat] += n
        events.append(event("empty.tokens", seat=seat, tokens=n, resource=r, count=counts[seat],
                            place="tied_first" if result["tied"] else "second"))


def tile_taker_options(state: dict, task: dict) -> list[dict]:
    return [{"type": "tile_taker", "seat": s} for s in task["tied"]]


def resolve_tile_taker(state: dict, task: dict, inp: dict, events: list) -> None:
    result = payout(task["counts"])
    award_tile(state, task["district"], task["tile"], task["resource"], inp["seat"], result, task["counts"], events)


def reveal_options(state: dict, task: dict) -> list[dict]:
    return [{"type": "reveal", "tile": t} for t in state["districts"][task["district"]]["below"]]


def reveal_auto(state: dict, task: dict, events: list) -> bool:
    """With one tile left (or none) the companion knows what comes next: no question."""
    below = state["districts"][task["district"]]["below"]
    if len(below) > 1:
        return False
    if below:
        resolve_reveal(state, task, {"tile": below[0]}, events)
    else:
        deplete(state, task["district"], events)
    return True


def resolve_reveal(state: dict, task: dict, inp: dict, events: list) -> None:
    """The new tile comes up; every player returns that resource; refill the market to 3."""
    d = task["district"]
    r = DISTRICT_RESOURCE[d]
    district = state["districts"][d]
    district["below"].remove(inp["tile"])
    district["top"] = inp["tile"]
    returned = sum(stock[r] for stock in state["stocks"])
    for stock in state["stocks"]:
        stock[r] = 0
    to_market = min(returned, max(0, MARKET_REFILL - state["market"][r]))
    state["market"][r] += to_market
    district["resources"][r] += returned - to_market
    events.append(event("empty.reveal", district=d, tile=inp["tile"], resource=r, returned=returned,
                        to_market=to_market, on_tile=returned - to_market))


def deplete(state: dict, d: str, events: list) -> None:
    """The third tile is gone: that resource leaves the game everywhere (R8, R13)."""
    r = DISTRICT_RESOURCE[d]
    removed = sum(stock[r] for stock in state["stocks"]) + state["market"][r] + sum(
        x["resources"][r] for x in state["districts"].values())
    for stock in state["stocks"]:
        stock[r] = 0
    state["market"][r] = 0
    for x in state["districts"].values():
        x["resources"][r] = 0
    state["depleted"].append(r)
    state["depleted"].sort(key=RESOURCES.index)
    events.append(event("empty.depleted", rule="R8", district=d, resource=r, removed=removed,
                        dice_moved=sum(1 for f in state["dice"] if f == DISTRICTS.index(d) + 1)))


