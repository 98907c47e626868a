"""The engine: (state, input) -> (state, events), and what input comes next.

`expected` lists every legal input of the step the game is at; `apply` accepts an
input exactly when it is among them (one legality function for every caller) and
explains a refusal otherwise, leaving the state as it was.
"""

from . import creatures, end, explorers, scoring, setup, sinking, tiles, turn, whirlpool
from .errors import illegal
from .inputs import META, normalize
from .names import CREATURE_REACH, MOVES_PER_TURN
from .refusals import explain
from .state import copy_state, in_play


def _options(state: dict) -> list[dict]:
    step = state["step"]
    losses = explorers.loss_options
    if step == "setup":
        return setup.options(state)
    if step == "tile":
        return tiles.play_options(state)
    if step == "moves":
        return [{"type": "done"}] + explorers.save_options(state) + losses(state)
    if step == "remove":
        return sinking.options(state) + losses(state)
    if step == "reveal":
        return tiles.reveal_options(state)
    if step == "whirlpool":
        return whirlpool.options(state)
    if step == "roll":
        return creatures.roll_options(state) + losses(state)
    if step == "creature":
        return [{"type": "done"}] + tiles.defend_options(state) + losses(state)
    if step == "values":
        return scoring.options(state)
    return []


# A later step's input entered early (Visão da Partida: the steps in order). With nothing to
# say at step 1 or 2 the table may go straight to what comes next: tap an explorer saved or
# lost at step 1 (no tile played), or what the land tile removed shows at step 1 or 2 (the
# moves done, the tile removed the plain way). The input implies the steps passed: "done",
# then the removal of a tile of the terrain that sinks now, not declared surrounded (S7 is
# declared at step 3 itself). The record keeps the one input; a record that entered each
# step replays as before.
AHEAD = {"tile": ("saved", "lost", "reveal"), "moves": ("reveal",)}
MOST_IMPLIED = 3


def _advance(state: dict) -> dict | None:
    """The input that passes the step the game is at when the table has nothing to say there."""
    step = state["step"]
    if step in ("tile", "moves"):
        return {"type": "done"}
    if step == "remove":
        return {"type": "remove", "terrain": sinking.current_terrain(state), "surrounded": False}
    return None


def _ahead(state: dict) -> tuple[list[dict], dict]:
    """The later steps' inputs legal from here (those of AHEAD, not already offered), and the
    context of the reveal they lead to ({"terrain"}: the tile the plain removal takes)."""
    wanted = AHEAD.get(state["step"])
    if not wanted:
        return [], {}
    own = _options(state)
    found: list[dict] = []
    context: dict = {}
    probe = copy_state(state)
    for _ in range(MOST_IMPLIED):
        nxt = _advance(probe)
        if nxt is None or nxt not in _options(probe):
            break
        _resolve(probe, nxt, [])
        if probe["over"]:
            break
        for option in _options(probe):
            if option["type"] in wanted and option not in own and option not in found:
                found.append(option)
        if probe["step"] == "reveal":
            context = {"terrain": probe["turn"]["removed"]}
            break
    return found, context


def _implied(state: dict, decision: dict) -> dict | None:
    """`decision` entered early: the state after the steps it implies and it, with the events of
    all (or None: not legal from here either). `state` is untouched."""
    if state["step"] not in AHEAD or decision["type"] not in AHEAD[state["step"]]:
        return None
    probe = copy_state(state)
    events: list = []
    for _ in range(MOST_IMPLIED):
        nxt = _advance(probe)
        if nxt is None or nxt not in _options(probe):
            return None
        _resolve(probe, nxt, events)
        if probe["over"]:
            return None
        if decision in _options(probe):
            return {"state": probe, "events": events}
    return None


def _resolve(state: dict, inp: dict, events: list) -> None:
    step, kind = state["step"], inp["type"]
    if kind == "lost":
        explorers.resolve_lost(state, inp, events)
    elif kind == "boat_lost":
        explorers.resolve_boat_lost(state, inp, events)
    elif kind == "saved":
        explorers.resolve_saved(state, inp, events)
    elif kind == "setup":
        if setup.resolve(state, inp, events):
            turn.begin_first_turn(state, events)
    elif kind == "play":
        tiles.resolve_play(state, inp, events)
        turn.enter(state, "moves", events)
    elif kind == "remove":
        sinking.resolve(state, inp, events)
        if end.last_tile_gone(state):
            end.finish(state, "last_tile", events)
        else:
            state["step"] = "reveal"
    elif kind == "reveal":
        turn.after_reveal(state, tiles.resolve_reveal(state, inp, events), events)
    elif kind == "taken":
        whirlpool.resolve_taken(state, inp, events)
    elif kind == "creature_roll":
        if creatures.resolve_roll(state, inp, events):
            state["step"] = "creature"
        else:
            turn.end_turn(state, events)
    elif kind == "defend":
        tiles.resolve_defend(state, inp, events)
        turn.end_turn(state, events)
    elif kind == "value":
        scoring.resolve_value(state, inp, events)
    elif kind == "values":
        scoring.resolve(state, inp, events)
    elif kind == "done":
        if step == "tile":
            turn.enter(state, "moves", events)
        elif step == "moves":
            turn.enter(state, "remove", events)
        elif step == "whirlpool":
            turn.enter(state, "roll", events)
        else:  # the creature has moved (or stayed)
            turn.end_turn(state, events)
    if not state["over"] and state["step"] != "values" and end.last_explorer_gone(state):
        end.finish(state, "last_explorer", events)


def expected(state: dict) -> dict:
    """What the game waits for: kind (the step), whose decision, every legal input, context."""
    step = state["step"]
    seat = None if step in ("setup", "over") else state["turn"]["seat"]
    context: dict = {}
    if step == "setup":
        # what to place now, said in the prompt itself (the events of that setup step)
        context = {"step": state["setup_step"], "challenges": state["challenges"], "now": setup.step_events(state)}
    elif step == "tile":
        context = {"hand": state["hands"][seat]}
    elif step == "moves":
        context = {"moves": MOVES_PER_TURN, "moves_left": MOVES_PER_TURN - state["turn"]["saved"],
                   "in_play": in_play(state, seat)}
    elif step == "remove":
        context = {"terrain": sinking.current_terrain(state), "left": dict(state["terrain"]),
                   "volcano_under_one_of": sinking.volcano_odds(state)}
    elif step == "reveal":
        context = {"terrain": state["turn"]["removed"]}
    elif step == "whirlpool":
        context = {"volcano": state["volcano"]}
    elif step == "roll":
        # a shark a tile just placed took every swimmer in its space: the prompt asks whose
        if state["turn"].get("placed") == "shark":
            context = {"variant": "shark"}
    elif step == "creature":
        face = state["turn"]["face"]
        context = {"creature": face, "on_board": state["creatures"][face]["board"],
                   "reach": list(CREATURE_REACH[face]), "variant": face}
    elif step == "values":
        colour = scoring.colour_asked(state)
        seat = next(s for s, cs in enumerate(state["colours"]) if colour in cs)
        count = state["explorers"][colour]["saved"]
        context = {"colour": colour, "count": count, "shown": list(state["shown"]), "left": count - len(state["shown"])}
    options = _options(state)
    ahead, reveal = _ahead(state)
    if ahead:           # a later step's input, entered early (AHEAD): legal here too
        options += ahead
        if reveal:
            context["ahead"] = reveal
    prompt = {"kind": step, "seat": seat, "options": options, "context": context}
    if step == "roll":
        prompt["chance"] = True
    # The input that goes on when the table has nothing else to say: a held tile is a choice,
    # not a stop; with the three moves spent on landings, step 2 has nothing left to do. A
    # caller may press it for the table (the record keeps it, so records replay alike).
    if step == "tile" or (step == "moves" and state["turn"]["saved"] >= MOVES_PER_TURN):
        prompt["default"] = {"type": "done"}
    return prompt


def apply_in_place(state: dict, inp: object) -> list[dict]:
    """Apply one input to `state` itself. On a RuleError nothing was changed."""
    if state["over"]:
        raise illegal("the game is over: no more inputs", "Fim do Jogo", "game_over")
    clean = normalize(inp)
    decision = {k: v for k, v in clean.items() if k not in META}
    if decision not in _options(state) and not scoring.whole_set_legal(state, decision):
        early = _implied(state, decision)
        if early is None:
            raise explain(state, clean)
        events = early["events"]
        _resolve(early["state"], clean, events)
        state.clear()
        state.update(early["state"])
        return events
    events: list = []
    _resolve(state, clean, events)
    return events


def apply(state: dict, inp: object) -> tuple[dict, list[dict]]:
    """The pure form: a new state and the events; `state` itself is untouched."""
    new = copy_state(state)
    events = apply_in_place(new, inp)
    return new, events


def start(state: dict) -> tuple[dict, list[dict]]:
    """The first events of a fresh state: the challenges and setup step 1."""
    new = copy_state(state)
    events: list = []
    if new["step"] == "setup" and new["setup_step"] == 1:
        setup.begin(new, events)
    return new, events
