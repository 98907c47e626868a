"""Visit the Areas: take a die (a), take a resource (b), then the Area's effect (c).

In a 2-player game each human gives exactly one of their three dice to the
neutral player; the giver decides everything for it (Two players).
"""

from ..errors import illegal
from .events import event
from .names import AREAS, RESOURCES, area_of_face
from .state import holdings, neutral_seat


def areas_with_dice(state: dict) -> list[str]:
    depleted = state["depleted"]
    present = {area_of_face(f, depleted) for f in set(state["dice"])}
    return [a for a in AREAS if a in present]


def picker(state: dict) -> int:
    turn = state["turn"]
    return turn["order"][turn["next"]]


def pick_options(state: dict, task: dict) -> list[dict]:
    seat = picker(state)
    recipients = ["self"]
    if state["neutral"]:
        turn = state["turn"]
        picks_before = turn["order"][: turn["next"]].count(seat)
        if turn["given"][seat]:
            recipients = ["self"]
        elif picks_before == 2:
            recipients = ["neutral"]  # a third pick with no die given yet must be given
        else:
            recipients = ["self", "neutral"]
    return [{"type": "pick", "area": a, "for": r} for a in areas_with_dice(state) for r in recipients]


def pick_context(state: dict, task: dict) -> dict:
    turn = state["turn"]
    seat = picker(state)
    return {"pick": turn["next"] + 1, "picks": len(turn["order"]),
            "taken": turn["order"][: turn["next"]].count(seat)}


def resolve_pick(state: dict, task: dict, inp: dict, events: list) -> None:
    seat = picker(state)
    area = inp["area"]
    who = neutral_seat(state) if inp.get("for", "self") == "neutral" else seat
    _remove_die(state, area)
    turn = state["turn"]
    turn["received"][who] += 1
    if who != seat:
        turn["given"][seat] = True
    events.append(event("visit.pick", seat=seat, who=who, area=area, kind="neutral" if who != seat else "self"))
    # The stack runs top-last: the visit's steps, the empty-District check, the next pick.
    state["pending"].append({"t": "next_pick"})
    state["pending"].append({"t": "end_visit"})
    push_visit(state, area, seat, who, turn["received"][who])


def push_visit(state: dict, area: str, seat: int, who: int, nth: int, chained: bool = False) -> None:
    """Steps b and c of a visit to `area` (also the full visit of J-visit, R4)."""
    pending = state["pending"]
    pending.append({"t": "effect", "area": area, "seat": seat, "who": who, "nth": nth})
    if state["submarine"] == area:
        pending.append({"t": "take", "area": area, "seat": seat, "who": who, "reason": "submarine"})
    pending.append({"t": "take", "area": area, "seat": seat, "who": who,
                    "reason": "chained" if chained else "visit"})


def _remove_die(state: dict, area: str) -> None:
    faces = [f for f in state["dice"] if area_of_face(f, state["depleted"]) == area]
    if not faces:
        raise illegal(f"there is no die at the {area}: you cannot visit an Area where there is no die",
                      "Visit the Areas", "no_die_at", area=area)
    # At the Black Market prefer a 6, so dice of depleted Districts keep their faces for I-change.
    face = 6 if 6 in faces else min(faces)
    state["dice"].remove(face)


def take_options(state: dict, task: dict) -> list[dict]:
    there = holdings(state, task["area"])
    return [{"type": "resource", "resource": r} for r in RESOURCES if there[r] > 0]


def resolve_take(state: dict, task: dict, inp: dict, events: list) -> None:
    r = inp["resource"]
    holdings(state, task["area"])[r] -= 1
    state["stocks"][task["who"]][r] += 1
    events.append(event("visit.take", rule=_TAKE_RULES.get(task["reason"]), seat=task["seat"],
                        who=task["who"], resource=r, area=task["area"], reason=task["reason"]))


def take_skipped(state: dict, task: dict) -> dict:
    return event("visit.nothing_to_take", rule=_TAKE_RULES.get(task["reason"]), who=task["who"],
                 area=task["area"], reason=task["reason"])


_TAKE_RULES = {"chained": "R4", "L-second": "R5"}



def next_pick(state: dict, task: dict, events: list) -> None:
    """Automatic: the next player picks, or, with one die left, the clock moves."""
    turn = state["turn"]
    turn["next"] += 1
    state["pending"].append({"t": "pick"} if turn["next"] < len(turn["order"]) else {"t": "clock"})
