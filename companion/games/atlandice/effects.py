"""Step c: the effect of the visited Area's top tile (Areas' effects, R3, R4).

An effect that can be carried out is carried out (R3): its choice is asked for.
One that cannot (nothing to take, move or swap) is skipped with its reason.
"""

from .events import event
from .names import AREAS, MARKET, RESOURCES, area_of_face
from .state import holdings, live_districts, top_tile
from .visit import push_visit

ROLL_TILES = ("J-odd", "J-visit", "L-high", "I-clock", "B-even", "B-six")

# What each rolling tile needs to succeed.
SUCCESS = {
    "J-odd": (1, 3, 5),
    "J-visit": (6,),
    "L-high": (5, 6),
    "I-clock": (1, 2, 3, 4),
    "B-even": (2, 4, 6),
    "B-six": (6,),
}

AGAIN = "J-visit-again"     # J-visit's second roll: where the chained visit goes (R4)
ROLL_PURPOSES = tuple(SUCCESS) + (AGAIN,)

# Where each moving tile takes a resource from.
MOVE_FROM = {"L-market": "library", "I-supply": MARKET, "B-move": "blacksmith"}


def apply_effect(state: dict, task: dict, events: list) -> None:
    """Automatic: turn the visited Area's tile into the tasks it needs."""
    area = task["area"]
    base = {"seat": task["seat"], "who": task["who"], "area": area}
    if area == MARKET:
        events.append(event("effect.market", area=area))
        return
    tile = top_tile(state, area)
    pending = state["pending"]
    if tile in ROLL_TILES:
        pending.append({"t": "roll", "purpose": tile, "nth": task["nth"], **base})
    elif tile == "J-swap":
        pending.append({"t": "swap", **base})
    elif tile in MOVE_FROM:
        pending.append({"t": "move", "from": MOVE_FROM[tile], "tile": tile, **base})
    elif tile == "L-second":
        if task["nth"] == 2:
            pending.append({"t": "take", "area": "library", "seat": task["seat"], "who": task["who"],
                            "reason": "L-second"})
        else:
            events.append(event("effect.not_second", rule="R5", who=task["who"], nth=task["nth"]))
    elif tile == "I-change":
        pending.append({"t": "change_die", **base})
    elif tile in ("E1", "E2", "E3"):
        pending.append({"t": "submarine", **base})


def roll_options(state: dict, task: dict) -> list[dict]:
    return [{"type": "roll", "value": v} for v in range(1, 7)]


def resolve_roll(state: dict, task: dict, inp: dict, events: list) -> None:
    value = inp["value"]
    purpose = task["purpose"]
    seat, who = task["seat"], task["who"]
    if purpose == AGAIN:
        # R4: visit the Area of the second roll (a depleted District means the Black Market).
        area = area_of_face(value, state["depleted"])
        events.append(event("effect.roll", purpose=purpose, value=value, success=True, area=area, rule="R4"))
        push_visit(state, area, seat, who, task["nth"], chained=True)
        return
    success = value in SUCCESS[purpose]
    events.append(event("effect.roll", purpose=purpose, value=value, success=success))
    if not success:
        return
    take = {"t": "take", "seat": seat, "who": who, "reason": purpose}
    if purpose == "J-odd":
        state["pending"].append({**take, "area": "jeweller"})
    elif purpose == "B-even":
        state["pending"].append({**take, "area": "blacksmith"})
    elif purpose == "B-six":
        state["pending"].append({**take, "area": MARKET})
    elif purpose == "J-visit":
        state["pending"].append({"t": "roll", "purpose": AGAIN, "nth": task["nth"],
                                 "seat": seat, "who": who, "area": task["area"]})
    elif purpose == "L-high":
        state["pending"].append({"t": "take_from", "seat": seat, "who": who, "area": "library"})
    elif purpose == "I-clock":
        end = len(state["profile"]["track"]) - 1
        if state["clock"] == end:
            events.append(event("clock.inn_at_end", rule="R9"))  # nowhere left to move
            return
        state["clock"] += 1
        events.append(event("clock.inn", rule="R9", space=state["clock"]))
        if state["clock"] == end:
            state["end_after_visits"] = True
            events.append(event("clock.end_after_visits", rule="R9"))


def _other_districts(state: dict, *excluded: str) -> list[str]:
    return [d for d in live_districts(state) if d not in excluded]


def swap_options(state: dict, task: dict) -> list[dict]:
    """J-swap: a resource on the Jeweller for one on another District, of any kind (R17: a
    like-for-like swap is allowed, the player's way to leave the table as it is)."""
    jeweller = state["districts"]["jeweller"]["resources"]
    options = []
    for give in RESOURCES:
        if jeweller[give] == 0:
            continue
        for d in _other_districts(state, "jeweller"):
            there = state["districts"][d]["resources"]
            options += [{"type": "swap", "give": give, "district": d, "take": take}
                        for take in RESOURCES if there[take] > 0]
    return options


def resolve_swap(state: dict, task: dict, inp: dict, events: list) -> None:
    jeweller = state["districts"]["jeweller"]["resources"]
    there = state["districts"][inp["district"]]["resources"]
    jeweller[inp["give"]] -= 1
    there[inp["give"]] += 1
    there[inp["take"]] -= 1
    jeweller[inp["take"]] += 1
    events.append(event("effect.swap", give=inp["give"], district=inp["district"], take=inp["take"]))


def move_targets(state: dict, task: dict) -> list[str]:
    source = task["from"]
    if task["tile"] == "L-market":
        return [MARKET]
    if task["tile"] == "I-supply":
        return _other_districts(state, "inn")
    return _other_districts(state, source)  # B-move


def move_options(state: dict, task: dict) -> list[dict]:
    source = holdings(state, task["from"])
    targets = move_targets(state, task)
    return [{"type": "move", "resource": r, "to": to} for r in RESOURCES if source[r] > 0 for to in targets]


def resolve_move(state: dict, task: dict, inp: dict, events: list) -> None:
    holdings(state, task["from"])[inp["resource"]] -= 1
    holdings(state, inp["to"])[inp["resource"]] += 1
    events.append(event("effect.move", resource=inp["resource"], source=task["from"], to=inp["to"]))


def take_from_options(state: dict, task: dict) -> list[dict]:
    """L-high: one resource from any other District."""
    return [{"type": "take_from", "area": d, "resource": r}
            for d in _other_districts(state, "library")
            for r in RESOURCES if state["districts"][d]["resources"][r] > 0]


def resolve_take_from(state: dict, task: dict, inp: dict, events: list) -> None:
    state["districts"][inp["area"]]["resources"][inp["resource"]] -= 1
    state["stocks"][task["who"]][inp["resource"]] += 1
    events.append(event("visit.take", seat=task["seat"], who=task["who"], resource=inp["resource"],
                        area=inp["area"], reason="L-high"))


def submarine_options(state: dict, task: dict) -> list[dict]:
    """Engineering Works: to any other Area but a depleted District (R13)."""
    live = set(live_districts(state)) | {MARKET}
    return [{"type": "submarine", "area": a} for a in AREAS if a in live and a != state["submarine"]]


def resolve_submarine(state: dict, task: dict, inp: dict, events: list) -> None:
    events.append(event("effect.submarine", source=state["submarine"], to=inp["area"]))
    state["submarine"] = inp["area"]


def change_die_options(state: dict, task: dict) -> list[dict]:
    """I-change: any die still on the board gets a value that moves it to another Area (R17)."""
    depleted = state["depleted"]
    return [{"type": "change_die", "from": f, "to": v}
            for f in sorted(set(state["dice"])) for v in range(1, 7)
            if area_of_face(v, depleted) != area_of_face(f, depleted)]


def resolve_change_die(state: dict, task: dict, inp: dict, events: list) -> None:
    state["dice"].remove(inp["from"])
    state["dice"].append(inp["to"])
    state["dice"].sort()
    events.append(event("effect.change_die", before=inp["from"], after=inp["to"],
                        source=area_of_face(inp["from"], state["depleted"]),
                        to=area_of_face(inp["to"], state["depleted"])))


def swap_changes_nothing(state: dict, task: dict) -> bool:
    """Only like-for-like swaps are possible: whichever is made, the table stays as it is (R17)."""
    options = swap_options(state, task)
    return bool(options) and all(o["give"] == o["take"] for o in options)


def effect_skipped(state: dict, task: dict) -> dict:
    if task["t"] == "swap" and swap_changes_nothing(state, task):
        return event("effect.skipped", rule="R17", kind="same_kind", tile=top_tile(state, task["area"]),
                     area=task["area"])
    return event("effect.skipped", rule="R3", kind=task["t"], tile=top_tile(state, task["area"]), area=task["area"])


