"""The engine: (state, input) -> (state, events), and what input comes next.

Every prompt whose inputs can be listed lists them all, and `apply` accepts an
input exactly when it is among them (one legality function for the tablet, the
command line and the tests). A shuffle order, a payment and a turn's moves cannot
usefully be listed (a crowded turn allows thousands of card chains): their prompt's
options are None and each has one check function instead (`setup.check_shuffle`,
`payment.check_payment`, `turn.turn_legal`). A turn's prompt says which citizens can
move (`context["movable"]`) and lists the rest (`context["listed"]`: the tiles to give
back, no_move when it may be declared); the page asks for a move step by step
(`reach` with the cards so far). `options(state)` still lists every legal input, each
move too (for the tests and the simulator). A move may add "take": false to any move
option: the player leaves the tile behind (A9).
"""

import marshal

from . import buying, end, payment, setup, taking, turn
from .inputs import normalize
from .position import position_events
from .path import HALVES, half_of, half_size
from .reach import points
from .refusals import refuse

# The input types each step accepts.
ACCEPTS = {
    "lay": ("lay",), "shuffle": ("shuffle",), "turn": ("move", "buy", "no_move"), "pay": ("pay",),
    "reveal": ("reveal",), "cards_left": ("cards_left",), "over": (),
}


def copy_state(state: dict) -> dict:
    return marshal.loads(marshal.dumps(state))


def start(state: dict) -> tuple[dict, list[dict]]:
    """The events of the setup (hands dealt; the first input is the path), or of a position
    (the game goes on at the start of a turn)."""
    if state.get("from_position"):
        return copy_state(state), position_events(state)
    return copy_state(state), setup.setup_events(state)


def options(state: dict) -> list[dict] | None:
    """Every legal input now, listed (a turn's moves too: slow in a crowded turn); None for a
    shuffle or a payment."""
    t = state["step"]["t"]
    if t == "lay":
        return setup.lay_options(state)
    if t == "reveal":
        return taking.reveal_options(state)
    if t == "turn":
        return turn.turn_options(state)
    if t == "cards_left":
        return end.cards_left_options(state)
    if t == "over":
        return []
    return None


def expected(state: dict) -> dict:
    """The prompt: {"kind", "seat" (who decides; None for the table), "options", "context"}.
    A turn's options are None: its context says the citizens that can move and lists the rest."""
    step = state["step"]
    t = step["t"]
    prompt = {"kind": t, "seat": None, "options": None if t == "turn" else options(state), "context": {}}
    if t == "lay":
        prompt["context"] = {"position": step["position"], "half": half_of(step["position"])}
    elif t == "shuffle":
        prompt["context"] = {"sizes": {h: half_size(h) for h in HALVES}}
    elif t in ("turn", "pay"):
        seat = state["seat"]
        prompt["seat"] = seat
        prompt["context"] = {"hand": state["cards"][seat]["hand"], "points": points(state, seat),
                             "bridge": not state["bridge_built"][seat],
                             "citizens": list(state["citizens"][seat]),
                             "tiles": [dict(state["tiles"][t], id=t) for t in state["held"][seat]]}
        if t == "pay":
            prompt["context"].update(owed=step["owed"], citizen=step["citizen"])
        else:
            prompt["context"].update(turn.turn_context(state))
    elif t == "reveal":
        prompt["context"] = {"position": step["position"]}
    elif t == "cards_left":
        prompt["seat"] = step["seat"]
        prompt["context"] = {"counted": state["cards"][step["seat"]]["hand"]}
    return prompt


def apply(state: dict, inp: object) -> tuple[dict, list[dict]]:
    """A new state and what happened; RuleError (state untouched) when refused."""
    step = state["step"]
    if step["t"] == "over":
        raise refuse("game_over", "the game is over: no more inputs", "End")
    clean = normalize(inp)
    if clean["type"] not in ACCEPTS[step["t"]]:
        raise refuse("wrong_kind", f"the companion expects {step['t']} now, not {clean['type']}", None,
                     expected=step["t"], given=clean["type"])
    if clean["type"] == "move":
        clean["bridge"] = turn.bridge_space(state, clean["bridge"])
    if step["t"] == "turn":
        if not turn.turn_legal(state, clean):
            raise _refusal(state, clean)
    else:
        legal = options(state)
        if legal is not None and clean not in legal:
            raise _refusal(state, clean)
    if clean["type"] == "shuffle":
        setup.check_shuffle(state, clean)
    if clean["type"] == "pay":
        payment.check_payment(state, state["seat"], step["owed"], clean)
    new = copy_state(state)
    events: list = []
    _resolve(new, clean, events)
    return new, events


def _resolve(state: dict, inp: dict, events: list) -> None:
    kind = inp["type"]
    step = state["step"]
    if kind == "lay":
        if setup.resolve_lay(state, inp, events):
            turn.begin_turn(state, state["first"], events)
    elif kind == "shuffle":
        setup.resolve_shuffle(state, inp, events)
        turn.begin_turn(state, state["first"], events)
    elif kind == "buy":
        buying.resolve_buy(state, state["seat"], inp, events)
    elif kind == "move":
        turn.resolve_move(state, inp, events)
    elif kind == "no_move":
        turn.resolve_no_move(state, events)
    elif kind == "pay":
        payment.resolve_pay(state, state["seat"], step["owed"], inp, events)
        turn.after_move(state, step["citizen"], events, step.get("take", True))
    elif kind == "reveal":
        taking.resolve_reveal(state, step["position"], inp, events)
        turn.end_turn(state, events)
    elif kind == "cards_left":
        end.resolve_cards_left(state, inp, events)


def _refusal(state: dict, inp: dict) -> Exception:
    kind = inp["type"]
    if kind == "move":
        return turn.explain_move(state, inp)
    if kind == "buy":
        return refuse("not_your_tile", f"tile {inp['tile']} is not one of the tiles you hold", "Buy",
                      tile=inp["tile"])
    if kind == "no_move":
        hand = state["cards"][state["seat"]]["hand"]
        return refuse("has_move", f"whatever the colours of your {hand} cards, they make a legal move", "A11",
                      hand=hand)
    if kind in ("lay", "reveal"):
        profile = state["profile"]
        if inp["colour"] not in profile["colours"]:
            return refuse("unknown_colour", f"{inp['colour']!r} is not a colour of this game "
                          f"({', '.join(profile['colours'])})", "A2", colour=inp["colour"])
        return refuse("bad_value", f"a tile's value is one of {profile['values']}, not {inp['value']}", "A2",
                      value=inp["value"])
    if kind == "cards_left":
        return refuse("bad_count", f"{inp['count']} is more cards than the game has", "A17", count=inp["count"])
    return refuse("wrong_kind", "that input is not possible now", None, expected=state["step"]["t"], given=kind)

