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


def all_routes(state: dict, seat: int) -> list[list[dict]]:
    """`reach` of each of the seat's citizens (computed once for a prompt: the move options and
    the no-move check both read it)."""
    return [reach(state, seat, citizen) for citizen in range(len(state["citizens"][seat]))]


def move_options(state: dict, seat: int, routes: list[list[dict]] | None = None) -> list[dict]:
    out = []
    for citizen, reached in enumerate(routes if routes is not None else all_routes(state, seat)):
        for route in reached:
            for bridge in [None] + route["bridges"]:
                if affordable(state, seat, route, bridge):
                    out.append({"type": "move", "citizen": citizen, "cards": route["cards"], "bridge": bridge})
    return out


def good_sets(state: dict, seat: int, routes: list[list[dict]] | None = None) -> list[tuple[int, ...]]:
    """The cards of every legal move the seat could make now, as counts per colour (the
    profile's order): a hand holding one of them can move. Only the minimal ones are kept."""
    colours = state["profile"]["colours"]
    found = set()
    for reached in routes if routes is not None else all_routes(state, seat):
        for route in reached:
            if any(affordable(state, seat, route, b) for b in [None] + route["bridges"]):
                found.add(tuple(route["cards"].count(c) for c in colours))
    kept: list[tuple[int, ...]] = []
    for g in sorted(found, key=sum):           # a smaller set first: it is kept, the larger ones holding it not
        if not any(all(a <= b for a, b in zip(h, g)) for h in kept):
            kept.append(g)
    return kept


def stuck_hand(state: dict, seat: int, routes: list[list[dict]] | None = None) -> dict | None:
    """A hand of the seat's size (colour -> cards) that makes no legal move, or None when
    every possible hand of that size makes one (A11).

    The colours in hand are hidden: a hand is any mix of colours, at most the profile's
    cards of each. A hand makes a move when it holds the cards of one of `good_sets`
    (the player plays them in the order needed; the rest pays). A hand holding none of
    them keeps holding none when cards are taken out of it, so a stuck hand of the
    seat's size exists exactly when the largest hand holding none of them is that big.
    """
    n = state["cards"][seat]["hand"]
    colours = state["profile"]["colours"]
    most = state["profile"]["cards_per_colour"]
    good = good_sets(state, seat, routes)
    k = len(colours)
    # Cards of a colour beyond the most any good set needs change nothing: that many is "all".
    need = [max((g[c] for g in good), default=0) for c in range(k)]
    choices = [[x for x in range(min(need[c], most + 1))] + ([most] if need[c] <= most else [])
               for c in range(k)]

    def search(c: int, counts: list[int], alive: list[tuple[int, ...]]) -> list[int] | None:
        # alive: the good sets the hand so far still holds (every colour decided so far suffices)
        if sum(counts) + most * (k - c) < n:
            return None
        if c == k:
            return None if alive else counts
        for x in sorted(choices[c], reverse=True):
            still = [g for g in alive if g[c] <= x]
            if any(not any(g[d] for d in range(c + 1, k)) for g in still):
                continue            # the hand already holds a whole good set
            found = search(c + 1, counts + [x], still)
            if found is not None:
                return found
        return None

    counts = search(0, [], good)
    if counts is None:
        return None
    # Trim the largest stuck hand to the seat's size (a part of it is stuck too).
    hand, left = {}, n
    for colour, x in zip(colours, counts):
        take = min(x, left)
        if take:
            hand[colour] = take
        left -= take
    return hand


def sure_to_move(state: dict, seat: int, routes: list[list[dict]] | None = None) -> bool:
    """Whatever the colours in hand, the seat has a legal move (A11)."""
    return stuck_hand(state, seat, routes) is None
