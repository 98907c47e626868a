"""Where a citizen can go and what it costs: the query the table asks before a move,
one step of a move asked tap by tap, and whether a move is legal (one source for all).

    reach(state, seat, citizen) -> [{"cards": [...], "to": 17, "steps": [9, 17],
                                     "gaps": [{"first", "last", "bridge", "cost"}], "cost": 3,
                                     "bridges": [first space of each gap a bridge could go on]}]
    route_of(state, seat, citizen, cards)    the one chain of exactly these cards, or None
    legal_move(state, inp)                   a move input is legal now (A5, A7, A8)
    movable(state, seat)                     the citizens with at least one legal move
    next_step(state, seat, citizen, cards)   one step of a move asked tap by tap

The colours in hand are hidden, so every chain the hand's size allows is legal; the
table picks the ones its cards make. A crowded turn allows thousands of chains: the
turn's prompt lists none of them (`movable` and the no-move check stop early, on one
`Board` computed once), the page asks for them step by step (`next_step`), and `apply`
checks the one move made (`legal_move`). `move_options` still lists them
all, for the tests and the simulator.
"""

from .movement import follow, routes
from .path import ATLANTIS, MAINLAND, top
from .water import crossed, gaps


def points(state: dict, seat: int) -> int:
    return sum(state["tiles"][t]["value"] for t in state["held"][seat])


def _with_costs(state: dict, seat: int, start: int, route: dict) -> dict:
    crossing = crossed(state, start, route["to"])
    open_gaps = [g for g in crossing if g["bridge"] is None]
    return dict(route, gaps=crossing, cost=sum(g["cost"] for g in crossing),
                bridges=[] if state["bridge_built"][seat] else [g["first"] for g in open_gaps])


def reach(state: dict, seat: int, citizen: int, max_cards: int | None = None) -> list[dict]:
    start = state["citizens"][seat][citizen]
    if start >= MAINLAND:
        return []
    hand = state["cards"][seat]["hand"] if max_cards is None else max_cards
    return [_with_costs(state, seat, start, r) for r in routes(state, start, hand)]


def route_of(state: dict, seat: int, citizen: int, cards: list[str]) -> dict | None:
    """The chain of exactly these cards (with its crossings), or None when they make no chain
    the hand allows: an unknown colour, more cards than in hand, a card but the last that lands
    on a free tile or the mainland, the last one on an occupied tile (A5)."""
    citizens = state["citizens"][seat]
    if not 0 <= citizen < len(citizens) or citizens[citizen] >= MAINLAND:
        return None
    colours = state["profile"]["colours"]
    if not cards or len(cards) > state["cards"][seat]["hand"] or any(c not in colours for c in cards):
        return None
    start = citizens[citizen]
    to, steps = follow(state, start, cards)
    if to is None:
        return None
    return _with_costs(state, seat, start, {"cards": list(cards), "to": to, "steps": steps})


def legal_move(state: dict, inp: dict) -> bool:
    """A move input (normalized, its bridge named by its gap's first space) is legal now: exactly
    when it is among `move_options` (a "take" in it changes nothing: A9)."""
    seat = state["seat"]
    route = route_of(state, seat, inp["citizen"], inp["cards"])
    if route is None:
        return False
    bridge = inp.get("bridge")
    if bridge is not None and bridge not in route["bridges"]:
        return False
    return affordable(state, seat, route, bridge)


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


class Board:
    """What a turn's checks ask of the path again and again, computed once: the next tile of
    each colour after each position, the occupied spaces, the gaps, and what the seat can pay."""

    def __init__(self, state: dict, seat: int):
        self.colours = state["profile"]["colours"]
        self.taken = {p for cs in state["citizens"] for p in cs if ATLANTIS < p < MAINLAND}
        ahead = {c: MAINLAND for c in self.colours}
        self.next = [None] * MAINLAND
        for p in range(MAINLAND - 1, ATLANTIS - 1, -1):
            self.next[p] = dict(ahead)
            tile = top(state, p)
            if tile is not None and tile["colour"] in ahead:
                ahead[tile["colour"]] = p
        self.gaps = gaps(state)
        self.can_bridge = not state["bridge_built"][seat]
        self.budget = points(state, seat) + state["cards"][seat]["hand"]
        self.hand = state["cards"][seat]["hand"]

    def least_cost(self, start: int, to: int) -> int:
        """The crossings from `start` to `to`, less the dearest open gap when a bridge can go there."""
        crossing = [g for g in self.gaps if start < g["first"] and g["last"] < to]
        cost = sum(g["cost"] for g in crossing)
        if self.can_bridge:
            cost -= max((g["cost"] for g in crossing if g["bridge"] is None), default=0)
        return cost

    def payable(self, start: int, to: int, cards: int) -> bool:
        """A chain of `cards` cards from `start` to `to` can be paid, bridging the best gap (A8).
        What a chain costs only grows as it goes on, and the cards left only shrink: a chain
        that cannot be paid where it lands cannot be paid further on either."""
        return self.least_cost(start, to) <= self.budget - cards

    def chains(self, start: int, most: int, at: int | None = None, played: tuple = ()):
        """Every chain of at most `most` cards from `start` that is not sure to be unpayable, as
        (cards, to, ends): `ends` when it is a move (the last card lands on a free tile or the
        mainland), else it lands on a citizen and goes on. Depth first, lazily. `at` and
        `played`: the chain goes on from there, these cards already played from `start`."""
        stack = [(start if at is None else at, tuple(played))] if most > len(played) else []
        while stack:
            position, cards = stack.pop()
            for colour in self.colours:
                to = self.next[position][colour]
                n = len(cards) + 1
                if not self.payable(start, to, n):
                    continue
                ends = to == MAINLAND or to not in self.taken
                yield cards + (colour,), to, ends
                if not ends and n < most:
                    stack.append((to, cards + (colour,)))


def next_step(state: dict, seat: int, citizen: int, cards: list[str]) -> dict | None:
    """One step of a move asked tap by tap, the citizen and the cards tapped so far:
    {"steps": where each card landed, "route": the move these cards make (with its crossings,
    `reach`'s form) or None when they land on a citizen, "bridges": the legal bridge choices
    of that move (None first: no bridge), "next": [{"colour", "to", "route"}] each card that
    may come next (`route` when it ends the move there)}; None when no legal move begins so."""
    citizens = state["citizens"][seat]
    if not 0 <= citizen < len(citizens) or citizens[citizen] >= MAINLAND:
        return None
    board = Board(state, seat)
    if len(cards) > board.hand or any(c not in board.colours for c in cards):
        return None
    start = position = citizens[citizen]
    steps = []
    for i, colour in enumerate(cards):
        position = board.next[position][colour]
        steps.append(position)
        if i < len(cards) - 1 and position not in board.taken:   # each card but the last lands on a citizen
            return None
    if cards and steps[-1] not in board.taken:          # the cards make a move: how to finish it
        route = _with_costs(state, seat, start, {"cards": list(cards), "to": steps[-1], "steps": steps})
        bridges = [b for b in [None] + route["bridges"] if affordable(state, seat, route, b)]
        return {"steps": steps, "route": route, "bridges": bridges, "next": []} if bridges else None
    following = []
    n = len(cards) + 1
    for colour in board.colours:
        to = board.next[position][colour]
        if n > board.hand or not board.payable(start, to, n):
            continue
        if to == MAINLAND or to not in board.taken:
            route = _with_costs(state, seat, start, {"cards": list(cards) + [colour], "to": to, "steps": steps + [to]})
            following.append({"colour": colour, "to": to, "route": route})
        elif any(ends for _, _, ends in board.chains(start, board.hand, to, tuple(cards) + (colour,))):
            following.append({"colour": colour, "to": to, "route": None})
    return {"steps": steps, "route": None, "bridges": [], "next": following} if following else None


def movable(state: dict, seat: int) -> list[int]:
    """The seat's citizens that have at least one legal move now (the first found is enough)."""
    board = Board(state, seat)
    out = []
    for citizen, start in enumerate(state["citizens"][seat]):
        if start < MAINLAND and any(ends for _, _, ends in board.chains(start, board.hand)):
            out.append(citizen)
    return out


def good_sets(state: dict, seat: int, routes: list[list[dict]] | None = None) -> list[tuple[int, ...]]:
    """The cards of every legal move the seat could make now, as counts per colour (the
    profile's order): a hand holding one of them can move. Only the minimal ones are kept.

    Found shortest first (one card, then two, ...), so a chain whose cards already hold a
    set found is not followed further: its moves would hold it too. `routes` (`all_routes`)
    is accepted and not needed."""
    colours = state["profile"]["colours"]
    board = Board(state, seat)
    index = {c: i for i, c in enumerate(colours)}
    found: set[tuple[int, ...]] = set()

    def counts(cards: tuple) -> tuple[int, ...]:
        out = [0] * len(colours)
        for c in cards:
            out[index[c]] += 1
        return tuple(out)

    def holds(have: tuple[int, ...]) -> bool:
        return any(all(a <= b for a, b in zip(g, have)) for g in found)

    # the chains still going on after n cards: (citizen's start, where it stands, the cards' counts)
    going = {(start, start, counts(())) for start in state["citizens"][seat] if start < MAINLAND}
    for n in range(1, board.hand + 1):
        later = set()
        new = set()
        for start, position, have in going:
            for colour in colours:
                to = board.next[position][colour]
                if not board.payable(start, to, n):
                    continue
                more = list(have)
                more[index[colour]] += 1
                more = tuple(more)
                if holds(more):
                    continue
                if to == MAINLAND or to not in board.taken:
                    new.add(more)
                else:
                    later.add((start, to, more))
        found |= new
        going = {g for g in later if not holds(g[2])}
        if not going:
            break
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
