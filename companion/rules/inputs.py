"""Inputs: parse (invalid when not understood) and explain refusals (illegal, with the rule).

Every input is a JSON object with a "type"; docs/record-format.md lists them.
Extra keys "source" (camera, hand, panel, tablet) and "note" are kept in the
record and ignored by the rules.
"""

from .errors import RuleError, illegal, invalid
from .names import AREAS, MARKET, RESOURCES, TILES, area_of_face

# type -> {field: checker}
FIELDS = {
    "gate_roll": ("dice",),
    "pick": ("area", "for"),
    "resource": ("resource",),
    "roll": ("value",),
    "swap": ("give", "district", "take"),
    "move": ("resource", "to"),
    "take_from": ("area", "resource"),
    "submarine": ("area",),
    "change_die": ("from", "to"),
    "tile_taker": ("seat",),
    "reveal": ("tile",),
    "donate": ("pair",),
}
META = ("source", "note")


def _face(value: object, what: str) -> int:
    if type(value) is not int or not 1 <= value <= 6:
        raise invalid(f"{what} must be a die face from 1 to 6, not {value!r}")
    return value


def _one_of(value: object, allowed: tuple, what: str) -> str:
    if value not in allowed:
        raise invalid(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def normalize(inp: object) -> dict:
    """A clean copy of `inp` with only known keys, or RuleError("invalid")."""
    if not isinstance(inp, dict):
        raise invalid("an input must be a JSON object with a 'type'")
    kind = inp.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise invalid(f"unknown input type {kind!r}; known: {', '.join(FIELDS)}")
    out: dict = {"type": kind}
    get = inp.get
    for field in FIELDS[kind]:
        if field not in inp and not (kind == "pick" and field == "for"):
            raise invalid(f"a {kind} input needs '{field}'")
    if kind == "gate_roll":
        dice = get("dice")
        if not isinstance(dice, list) or not dice:
            raise invalid("a gate_roll needs 'dice': the list of faces read")
        out["dice"] = [_face(f, "each die") for f in dice]
    elif kind == "pick":
        out["area"] = _one_of(get("area"), AREAS, "area")
        out["for"] = _one_of(get("for", "self"), ("self", "neutral"), "'for'")
    elif kind == "resource":
        out["resource"] = _one_of(get("resource"), RESOURCES, "resource")
    elif kind == "roll":
        out["value"] = _face(get("value"), "the roll")
    elif kind == "swap":
        out["give"] = _one_of(get("give"), RESOURCES, "give")
        out["district"] = _one_of(get("district"), AREAS, "district")
        out["take"] = _one_of(get("take"), RESOURCES, "take")
    elif kind == "move":
        out["resource"] = _one_of(get("resource"), RESOURCES, "resource")
        out["to"] = _one_of(get("to"), AREAS, "to")
    elif kind == "take_from":
        out["area"] = _one_of(get("area"), AREAS, "area")
        out["resource"] = _one_of(get("resource"), RESOURCES, "resource")
    elif kind == "submarine":
        out["area"] = _one_of(get("area"), AREAS, "area")
    elif kind == "change_die":
        out["from"] = _face(get("from"), "'from'")
        out["to"] = _face(get("to"), "'to'")
    elif kind == "tile_taker":
        seat = get("seat")
        if type(seat) is not int or seat < 0:
            raise invalid(f"seat must be a seat number, not {seat!r}")
        out["seat"] = seat
    elif kind == "reveal":
        out["tile"] = _one_of(get("tile"), TILES, "tile")
    elif kind == "donate":
        pair = get("pair")
        if pair is not None:
            if not isinstance(pair, list) or len(pair) != 2:
                raise invalid("a donation 'pair' must be two resources, or null when done")
            pair = sorted((_one_of(r, RESOURCES, "each donated resource") for r in pair), key=RESOURCES.index)
        out["pair"] = pair
    for key in META:
        if isinstance(inp.get(key), str):
            out[key] = inp[key]
    return out


def describe_refusal(state: dict, task: dict, inp: dict, legal: list) -> RuleError:
    """Why a well-formed input is not allowed now, naming the rule."""
    kind = inp["type"]
    if kind == "pick":
        area = inp["area"]
        if not any(area_of_face(f, state["depleted"]) == area for f in state["dice"]):
            return illegal(f"there is no die at the {area}: you cannot visit an Area where there is no die",
                           "Visit the Areas", "no_die_at", area=area)
        if not state["neutral"] and inp["for"] == "neutral":
            return illegal("there is a neutral player only in a 2-player game", "Two players", "neutral_only_two")
        if inp["for"] == "neutral":
            return illegal("you have already given a die to the neutral player this round", "Two players",
                           "neutral_given")
        return illegal("your third die must go to the neutral player: each player gives it exactly one "
                       "die per round", "Two players", "neutral_due")
    if kind == "resource":
        where = "the Black Market" if task["area"] == MARKET else f"the {task['area']}"
        return illegal(f"there is no {inp['resource']} at {where}", "Visit the Areas", "no_resource_at",
                       resource=inp["resource"], area=task["area"])
    if kind == "tile_taker":
        return illegal("only a player tied for the most can take the tile", "Empty District", "tile_taker_tied")
    if kind == "reveal":
        return illegal(f"{inp['tile']} is not one of the tiles left in that stack "
                       f"({', '.join(state['districts'][task['district']]['below'])})", "Empty District",
                       "reveal_not_left", tile=inp["tile"], tiles=list(state["districts"][task["district"]]["below"]))
    if kind == "submarine":
        if inp["area"] == state["submarine"]:
            return illegal("the Submarine must move to another Area", "Engineering Works", "submarine_same")
        return illegal("the Submarine cannot go to a depleted District", "R13", "submarine_depleted")
    if kind == "donate":
        return illegal("you can only donate two resources you hold", "Donation", "donate_held")
    if kind == "change_die":
        if inp["from"] == inp["to"]:
            return illegal("the die must get another value", "Inn", "inn_same")
        return illegal(f"no die showing {inp['from']} lies on the board", "Inn", "inn_no_die", face=inp["from"])
    rules = {"swap": "Jeweller", "move": "Areas' effects", "take_from": "Library"}
    shown = [{k: v for k, v in o.items() if k != "type"} for o in legal[:6]]
    options = "; ".join(" ".join(str(v) for v in o.values()) for o in shown) + (" …" if len(legal) > 6 else "")
    return illegal(f"this {kind} is not possible now: " + (options or "nothing is possible"), rules.get(kind),
                   "not_possible" if legal else "none_possible", what=kind, options=shown, more=len(legal) > 6)
