"""Positions: a complete snapshot of the table (like FEN for chess), checked.

A position is a state (see state.py) that a table typed in, or that a test
sets up, instead of a fresh Setup. `validate_position` refuses one that cannot
exist, with the reason: counts that break conservation, a die count that does
not fit the players, a tile in two places, a clock off the track...
Keys a table need not type are filled in: `pending` (the gate roll when no
dice lie on the board, else the next pick), `turn` (from the first player and
the dice already taken), `vp_history`, `over`, `result`, `end_after_visits`.
"""

from .effects import MOVE_FROM, ROLL_PURPOSES
from .engine import ASK, AUTO
from ..errors import invalid
from .final_scoring import score_state
from .names import AREAS, DISTRICT_RESOURCE, DISTRICTS, RESOURCES, STACKS, TILES
from .profile import validate_profile
from .state import copy_state, new_turn, setup_counts

# The engine's own tables say which steps, roll purposes and moves exist.
KNOWN_TASKS = set(AUTO) | set(ASK)


def _count(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise invalid(f"position: {what} must be a whole number, 0 or more, not {value!r}")
    return value


def _resources(value: object, what: str) -> dict:
    if not isinstance(value, dict) or set(value) - set(RESOURCES):
        raise invalid(f"position: {what} must map resources ({', '.join(RESOURCES)}) to counts")
    return {r: _count(value.get(r, 0), f"{what}.{r}") for r in RESOURCES}


def validate_position(position: object) -> dict:
    """A clean, complete state from `position`, or RuleError("invalid") with the reason."""
    if not isinstance(position, dict):
        raise invalid("a position must be an object")
    p = copy_state(position)
    players = p.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(isinstance(n, str) for n in players):
        raise invalid("position: 'players' must list 2 to 4 names")
    humans = len(players)
    neutral = humans == 2
    seats = humans + (1 if neutral else 0)
    if p.get("neutral", neutral) != neutral:
        raise invalid("position: there is a neutral player exactly when 2 people play", "Two players")
    p["neutral"] = neutral
    p["profile"] = validate_profile(p.get("profile"))
    on_tile, dice_count = setup_counts(humans)
    in_play = on_tile + 3
    if p.get("dice_count", dice_count) != dice_count:
        raise invalid(f"position: {humans} players play with {dice_count} dice, not {p.get('dice_count')}", "Setup")
    if p.get("in_play", in_play) != in_play:
        raise invalid(f"position: {humans} players play with {in_play} of each resource", "Setup")
    p["dice_count"], p["in_play"] = dice_count, in_play

    for key in ("stocks", "tokens", "tiles"):
        if not isinstance(p.get(key), list) or len(p[key]) != seats:
            raise invalid(f"position: '{key}' needs one entry per seat ({seats})")
    p["stocks"] = [_resources(s, f"stocks[{i}]") for i, s in enumerate(p["stocks"])]
    p["tokens"] = [_count(t, f"tokens[{i}]") for i, t in enumerate(p["tokens"])]
    p["market"] = _resources(p.get("market"), "market")
    depleted = p.get("depleted", [])
    if not isinstance(depleted, list) or set(depleted) - set(RESOURCES) or len(set(depleted)) != len(depleted):
        raise invalid("position: 'depleted' must list resources")
    p["depleted"] = sorted(depleted, key=RESOURCES.index)

    districts = p.get("districts")
    if not isinstance(districts, dict) or set(districts) != set(DISTRICTS):
        raise invalid(f"position: 'districts' must have {', '.join(DISTRICTS)}")
    pending = p.get("pending")
    over = p.get("over", False)
    visit = p.pop("visit", None)
    if visit is not None and pending is not None:
        raise invalid("position: give either 'visit' (in the game's words) or 'pending', not both")
    if pending is None:
        # The game's words: over, inside a visit, waiting for a pick, or for the gate roll.
        pending = [] if over is True else [{"t": "pick"}] if p.get("dice") or visit else [{"t": "gate_roll"}]
    if not isinstance(pending, list) or not all(isinstance(t, dict) and t.get("t") in KNOWN_TASKS for t in pending):
        raise invalid("position: 'pending' holds an unknown step")
    if not isinstance(over, bool) or not isinstance(p.get("end_after_visits", False), bool):
        raise invalid("position: 'over' and 'end_after_visits' must be true or false")
    if over != (not pending):
        raise invalid("position: a game is over exactly when nothing more is expected ('pending' is empty)")
    for task in pending:
        _check_task(task, humans, seats)
    p["pending"] = pending
    in_hand = [t["tile"] for t in pending if t["t"] == "tile_taker"]
    revealing = {t["district"] for t in pending if t["t"] == "reveal"}

    seen: list[str] = list(in_hand)
    for i, won in enumerate(p["tiles"]):
        if not isinstance(won, list) or set(won) - set(TILES):
            raise invalid(f"position: tiles[{i}] must list District tiles")
        seen += won
    set_aside = p.setdefault("set_aside", [])
    if not isinstance(set_aside, list) or set(set_aside) - set(TILES):
        raise invalid("position: 'set_aside' must list District tiles")
    seen += set_aside
    for d in DISTRICTS:
        x = districts[d]
        if not isinstance(x, dict):
            raise invalid(f"position: districts.{d} must be an object")
        top, below = x.get("top"), x.get("below", [])
        if top is not None and top not in STACKS[d]:
            raise invalid(f"position: {top!r} is not a {d} tile")
        if not isinstance(below, list) or set(below) - set(STACKS[d]):
            raise invalid(f"position: districts.{d}.below must list {d} tiles")
        x["resources"] = _resources(x.get("resources"), f"districts.{d}.resources")
        x["below"] = list(below)
        seen += ([top] if top else []) + list(below)
        r = DISTRICT_RESOURCE[d]
        exhausted = top is None and not below and d not in revealing
        if exhausted != (r in p["depleted"]):
            raise invalid(f"position: the {d} stack is depleted exactly when its three tiles are gone "
                          f"({r} {'is' if r in p['depleted'] else 'is not'} marked depleted)", "R8")
        if top is None and below and d not in revealing:
            raise invalid(f"position: the {d} has tiles left but none on top")
    for tile in TILES:
        n = seen.count(tile)
        if n != 1:
            raise invalid(f"position: tile {tile} is in {n} places; each tile is in exactly one", "Setup")

    for r in RESOURCES:
        total = p["market"][r] + sum(s[r] for s in p["stocks"]) + sum(x["resources"][r] for x in districts.values())
        expected = 0 if r in p["depleted"] else in_play
        if total != expected:
            raise invalid(f"position: {total} {r}s are on the table, but {expected} are in play "
                          f"(resource conservation)", "Setup")

    dice = p.get("dice", [])
    if not isinstance(dice, list) or not all(type(f) is int and 1 <= f <= 6 for f in dice):
        raise invalid("position: 'dice' must list faces from 1 to 6")
    p["dice"] = sorted(dice)
    first = p.get("first", 0)
    if type(first) is not int or not 0 <= first < humans:
        raise invalid(f"position: 'first' must be a seat from 0 to {humans - 1}")
    p["first"] = first
    turn = _turn(p.get("turn"), humans, first, seats, dice_count, len(dice) if pending[-1:] == [{"t": "pick"}] else None,
                 visit is not None)
    if turn.get("order") != new_turn(humans, first, seats)["order"]:
        raise invalid("position: the order of picks does not follow the First Player")
    nxt = turn.get("next", 0)
    received = turn.get("received", [0] * seats)
    if type(nxt) is not int or not 0 <= nxt <= len(turn["order"]):
        raise invalid("position: turn.next is off the order of picks")
    if not isinstance(received, list) or len(received) != seats:
        raise invalid("position: turn.received needs one count per seat")
    # During a visit the die is already taken but `next` moves only when the visit ends.
    taken = sum(_count(n, "turn.received") for n in received)
    if taken not in (nxt, nxt + 1):
        raise invalid("position: the dice received do not match the picks made")
    given = turn.setdefault("given", [False] * humans)
    if not isinstance(given, list) or len(given) != humans or not all(isinstance(g, bool) for g in given):
        raise invalid("position: turn.given needs true or false for each player")
    done = turn["order"][:taken]
    for s in range(humans):
        if received[s] + given[s] != done.count(s):
            raise invalid(f"position: seat {s} made {done.count(s)} picks this round, but received "
                          f"{received[s]} dice and gave {int(given[s])}", "Two players" if neutral else "Visit the Areas")
    if neutral and received[humans] != sum(given):
        raise invalid("position: the neutral player received a die for each die given to it", "Two players")
    if any(given) and not neutral:
        raise invalid("position: only a 2-player game has a neutral player to give dice to", "Two players")
    p["turn"] = turn
    if visit is not None:
        p["pending"] = pending = _visit_steps(visit, p, seats)
    on_board = 0 if pending and pending[-1]["t"] == "gate_roll" else dice_count - taken
    if over:
        on_board = len(dice) if len(dice) <= 1 else 1  # a game ends with the last die (or none) left
    if len(dice) != on_board:
        raise invalid(f"position: {len(dice)} dice lie on the board, but {on_board} should "
                      f"({dice_count} dice, {taken} taken this round)", "Setup")
    if p.get("submarine") not in AREAS:
        raise invalid(f"position: the Submarine must be at one of {', '.join(AREAS)}")
    end = len(p["profile"]["track"]) - 1
    clock = p.get("clock", 0)
    if type(clock) is not int or not 0 <= clock <= end:
        raise invalid(f"position: the clock must be a space from 0 to {end}")
    if clock == end and not over and not p.get("end_after_visits", False):
        raise invalid("position: the clock stands on the end space: the game is over", "End of the Game")
    p["clock"] = clock
    p["round"] = _count(p.get("round", 1), "round") or 1
    p.setdefault("end_after_visits", False)
    p.setdefault("vp_history", [])
    p["over"] = over
    # The breakdown is derived, never trusted from outside.
    p["result"] = score_state(p) if over else None
    return p


def _turn(turn: object, humans: int, first: int, seats: int, dice_count: int, lying: int | None,
          in_visit: bool) -> dict:
    """The round's turn, its missing parts derived: the order from the First Player; with dice
    lying (`lying`), the picks made from the dice gone, and the dice each seat received from
    the order (in a 2-player game, from `given`: who gave the neutral player a die, by default
    those who made their third pick). Inside a visit its die is taken, the pick not yet over."""
    fresh = new_turn(humans, first, seats)
    if turn is None:
        turn = {}
    if not isinstance(turn, dict):
        raise invalid("position: 'turn' must be an object")
    turn = dict(turn)
    turn.setdefault("order", fresh["order"])
    if "next" in turn and "received" in turn:
        return turn
    taken = dice_count - lying if lying is not None else 0
    if not 0 <= taken <= len(fresh["order"]):
        return turn               # refused below, with the counts
    done = fresh["order"][:taken]
    given = turn.get("given")
    if given is None:
        given = [humans == 2 and done.count(s) == 3 for s in range(humans)]
    if not isinstance(given, list) or len(given) != humans:
        return turn
    received = [done.count(s) - bool(given[s]) for s in range(humans)] + ([sum(map(bool, given))] if seats > humans else [])
    turn.setdefault("next", max(0, taken - 1) if in_visit else taken)
    turn.setdefault("received", received)
    turn["given"] = given
    return turn


def _visit_steps(visit: object, p: dict, seats: int) -> list:
    """The to-do stack of a visit written in the game's words:
    {"area": where the die was taken, "for": "self" | "neutral",
     "step": "resource" (b: take the resource) | "submarine" (b: the Submarine's extra) | "effect" (c)}."""
    if not isinstance(visit, dict) or visit.get("area") not in AREAS:
        raise invalid(f"position: 'visit' needs the 'area' visited (one of {', '.join(AREAS)})")
    step = visit.get("step", "resource")
    if step not in ("resource", "submarine", "effect"):
        raise invalid("position: visit.step must be resource, submarine or effect")
    if visit.get("for", "self") not in ("self", "neutral") or (visit.get("for") == "neutral" and not p["neutral"]):
        raise invalid("position: visit.for must be self, or neutral in a 2-player game")
    turn = p["turn"]
    if turn["next"] >= len(turn["order"]):
        raise invalid("position: every pick of the round is made: no visit is under way")
    seat = turn["order"][turn["next"]]
    who = seats - 1 if visit.get("for") == "neutral" else seat
    area = visit["area"]
    if step == "submarine" and p["submarine"] != area:
        raise invalid(f"position: the Submarine is not at the {area}: no extra resource to take there")
    nth = turn["received"][who]
    if nth not in (1, 2, 3):
        raise invalid("position: the visitor has received no die this round (turn.received)")
    steps = [{"t": "next_pick"}, {"t": "end_visit"}, {"t": "effect", "area": area, "seat": seat, "who": who, "nth": nth}]
    if step != "effect" and p["submarine"] == area:
        steps.append({"t": "take", "area": area, "seat": seat, "who": who, "reason": "submarine"})
    if step == "resource":
        steps.append({"t": "take", "area": area, "seat": seat, "who": who, "reason": "visit"})
    return steps


def _seat(value: object, limit: int) -> bool:
    return type(value) is int and 0 <= value < limit


# What each step of the to-do stack must carry (a position typed in must not crash the engine).
def _check_task(task: dict, humans: int, seats: int) -> None:
    t = task["t"]
    problems = []
    if t in ("take", "effect", "roll", "swap", "move", "take_from", "submarine", "change_die"):
        if not _seat(task.get("seat"), humans) or not _seat(task.get("who"), seats):
            problems.append("seat and who")
        if task.get("area") not in AREAS:
            problems.append("area")
    if t == "take" and not isinstance(task.get("reason"), str):
        problems.append("reason")
    if t in ("effect", "roll") and task.get("nth") not in (1, 2, 3):
        problems.append("nth")
    if t == "roll" and task.get("purpose") not in ROLL_PURPOSES:
        problems.append("purpose")
    if t == "move" and (task.get("tile") not in MOVE_FROM or task.get("from") != MOVE_FROM[task.get("tile")]):
        problems.append("tile and from")
    if t in ("score_empty", "reveal", "tile_taker") and task.get("district") not in DISTRICTS:
        problems.append("district")
    if t == "tile_taker":
        tied, counts = task.get("tied"), task.get("counts")
        if not isinstance(tied, list) or len(tied) < 2 or not all(_seat(s, seats) for s in tied):
            problems.append("tied (two seats or more)")
        if not isinstance(counts, list) or len(counts) != seats or task.get("tile") not in TILES \
                or task.get("resource") not in RESOURCES:
            problems.append("counts, tile and resource")
    if t == "donate" and not _seat(task.get("seat"), humans):
        problems.append("seat")
    if problems:
        raise invalid(f"position: the pending step {t!r} is incomplete ({', '.join(problems)})")
