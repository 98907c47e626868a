"""The engine: (state, input) -> (state, events), and what input comes next.

The state's `pending` list is a to-do stack (top last). Automatic tasks run
by themselves; a task that needs a decision or a roll stops the engine and is
what `expected` describes. `apply` checks the input against the very same
option list `expected` shows (one legality function for every caller), so an
input is legal exactly when it is offered.
"""

from . import clock, effects, empty_district, gates, visit
from .inputs import KINDS, META, describe_refusal, normalize, refusal
from .state import copy_state

# Tasks that run by themselves.
AUTO = {
    "effect": effects.apply_effect,
    "end_visit": empty_district.check_after_visit,
    "score_empty": empty_district.score_empty,
    "next_pick": visit.next_pick,
    "clock": clock.move_clock,
    "next_round": clock.next_round,
    "final": clock.finish,
}

# Tasks that wait for an input: (prompt kind, options, resolve).
ASK = {
    "gate_roll": ("gate_roll", None, gates.resolve_gate_roll),
    "pick": ("pick", visit.pick_options, visit.resolve_pick),
    "take": ("resource", visit.take_options, visit.resolve_take),
    "roll": ("roll", effects.roll_options, effects.resolve_roll),
    "swap": ("swap", effects.swap_options, effects.resolve_swap),
    "move": ("move", effects.move_options, effects.resolve_move),
    "take_from": ("take_from", effects.take_from_options, effects.resolve_take_from),
    "submarine": ("submarine", effects.submarine_options, effects.resolve_submarine),
    "change_die": ("change_die", effects.change_die_options, effects.resolve_change_die),
    "tile_taker": ("tile_taker", empty_district.tile_taker_options, empty_district.resolve_tile_taker),
    "reveal": ("reveal", empty_district.reveal_options, empty_district.resolve_reveal),
    "donate": ("donate", clock.donate_options, clock.resolve_donate),
}

# When an input task has no option at all, it is skipped with its reason (R3).
SKIPPED = {
    "take": visit.take_skipped,
    "donate": clock.donate_skipped,
}

# A step whose every option leaves the table as it is runs by itself, with its reason.
CHANGES_NOTHING = {"swap": effects.swap_changes_nothing}

# Tasks that always have an option: a pick (a die always lies on the board while picks remain),
# a roll, a tie (two seats or more), a die change (the last die is still on the board).
NEVER_EMPTY = {"gate_roll", "pick", "roll", "tile_taker", "change_die"}


def advance(state: dict, events: list) -> None:
    """Run automatic tasks until a decision is needed or the game is over."""
    pending = state["pending"]
    while pending:
        task = pending[-1]
        t = task["t"]
        if t in AUTO:
            pending.pop()
            AUTO[t](state, task, events)
            continue
        if t == "reveal" and empty_district.reveal_auto(state, task, events):
            pending.pop()
            continue
        if t in NEVER_EMPTY:
            return
        if not ASK[t][1](state, task) or (t in CHANGES_NOTHING and CHANGES_NOTHING[t](state, task)):
            pending.pop()
            events.append(SKIPPED.get(t, effects.effect_skipped)(state, task))
            continue
        return


def expected(state: dict) -> dict:
    """What the engine waits for: kind, whose decision, for whom, and every legal input."""
    if not state["pending"]:
        return {"kind": "over", "seat": None, "for": None, "options": [], "context": {}}
    task = state["pending"][-1]
    kind, options, _ = ASK[task["t"]]
    prompt = {"kind": kind, "seat": None, "for": None, "options": [], "context": _context(state, task)}
    if kind == "gate_roll":
        prompt["count"] = state["dice_count"]
        prompt["values"] = [1, 2, 3, 4, 5, 6]
        prompt["seat"] = state["first"]
        return prompt
    prompt["options"] = options(state, task)
    if kind == "pick":
        prompt["seat"] = prompt["for"] = visit.picker(state)
    elif kind == "tile_taker":
        prompt["for"] = None  # the table chooses among the tied; it changes no score
    else:
        prompt["seat"] = task.get("seat")
        prompt["for"] = task.get("who")
    return prompt


def _context(state: dict, task: dict) -> dict:
    keys = ("area", "reason", "purpose", "district", "tile", "tied", "counts", "from", "resource", "nth")
    context = {k: task[k] for k in keys if k in task}
    if task["t"] == "pick":
        context.update(visit.pick_context(state, task))
    if "area" in task and "tile" not in context and task["area"] in state["districts"]:
        context["tile"] = state["districts"][task["area"]]["top"]
    return context


def apply_in_place(state: dict, inp: object) -> list[dict]:
    """Apply one input to `state` itself. On a RuleError nothing was changed."""
    if state["over"] or not state["pending"]:
        raise refusal("game_over", "End of the Game")
    clean = normalize(inp)
    task = state["pending"][-1]
    kind, options, resolve = ASK[task["t"]]
    if clean["type"] != kind:
        raise refusal("wrong_kind", KINDS[kind].rule, expected=kind, given=clean["type"])
    if kind == "gate_roll":
        if len(clean["dice"]) != state["dice_count"]:
            raise refusal("dice_count", "Setup", want=state["dice_count"], got=len(clean["dice"]))
    else:
        legal = options(state, task)
        # Options carry exactly the decision's fields: compare without the meta keys.
        decision = {k: v for k, v in clean.items() if k not in META}
        if decision not in legal:
            raise describe_refusal(state, task, clean, legal)
    events: list = []
    state["pending"].pop()
    resolve(state, task, clean, events)
    advance(state, events)
    return events


def apply(state: dict, inp: object) -> tuple[dict, list[dict]]:
    """The pure form: a new state and the events; `state` itself is untouched."""
    new = copy_state(state)
    events = apply_in_place(new, inp)
    return new, events


def start(state: dict) -> tuple[dict, list[dict]]:
    """Run the automatic steps of a fresh state (a setup or an entered position)."""
    new = copy_state(state)
    events: list = []
    advance(new, events)
    return new, events


__all__ = ["advance", "expected", "apply", "apply_in_place", "start"]
