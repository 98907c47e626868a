"""Toss: a toy game registered by the tests only, to prove the shelf's protocol (docs/games.md).

Each turn the player rolls the die (chance: the table taps it), then banks the roll or
risks it (risking doubles it). The first player to reach the goal ends the game; the most
points win (a tie shares the win).
Pure: standard library only, plain data in and out.
"""

from companion.games.errors import RuleError, illegal, invalid

GAME = "toy"
GOAL = 10
DIE_FACES = (1, 2, 3, 4, 5, 6)
SETUP_OPTIONS = (
    {"key": "goal", "kind": "choice", "among": (10, 15), "words": "setup_goal", "choice_words": "goal_"},
)

__all__ = ["DIE_FACES", "GAME", "RuleError", "SETUP_OPTIONS", "apply", "expected", "new_state", "rolled",
           "start", "totals"]


def new_state(setup: dict) -> dict:
    players = setup.get("players") if isinstance(setup, dict) else None
    if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(isinstance(p, str) and p for p in players):
        raise invalid("setup: Toss is for 2 to 4 named players", key="toy_players")
    first = setup.get("first_player", 0)
    if type(first) is not int or not 0 <= first < len(players):
        raise invalid("setup: no such first player", key="toy_players")
    goal = setup.get("goal", GOAL)
    if goal not in (10, 15):
        raise invalid("setup: the goal is 10 or 15", key="toy_goal")
    return {"players": list(players), "seat": first, "goal": goal, "points": [0] * len(players),
            "rolled": None, "over": False, "result": None}


def start(state: dict) -> tuple[dict, list]:
    return state, [{"type": "toy.start", "rule": "Toss", "params": {"seat": state["seat"]}}]


def expected(state: dict) -> dict:
    if state["over"]:
        return {"kind": "over", "seat": None, "options": [], "context": {}}
    if state["rolled"] is None:
        return {"kind": "roll", "seat": state["seat"], "chance": True, "context": {},
                "options": [{"type": "roll", "value": v} for v in DIE_FACES]}
    return {"kind": "choose", "seat": state["seat"], "context": {"rolled": state["rolled"]},
            "options": [{"type": "bank"}, {"type": "risk"}]}


def apply(state: dict, inp: object) -> tuple[dict, list]:
    if not isinstance(inp, dict) or not isinstance(inp.get("type"), str):
        raise invalid("an input is an object with a 'type'", key="toy_input")
    clean = {k: v for k, v in inp.items() if k not in ("source", "note")}
    if clean not in expected(state)["options"]:
        raise illegal(f"{clean} is not possible now", "Toss", "toy_not_now")
    new = dict(state, points=list(state["points"]))
    seat = new["seat"]
    if clean["type"] == "roll":
        new["rolled"] = clean["value"]
        return new, [{"type": "toy.rolled", "rule": "Toss", "params": {"seat": seat, "value": clean["value"]}}]
    gain = new["rolled"] * (2 if clean["type"] == "risk" else 1)
    new["points"][seat] += gain
    new["rolled"] = None
    events = [{"type": f"toy.{clean['type']}", "rule": "Toss", "params": {"seat": seat, "gain": gain}}]
    if new["points"][seat] >= new["goal"]:
        best = max(new["points"])
        new["over"] = True
        new["result"] = {"totals": list(new["points"]), "winners": [s for s, p in enumerate(new["points"]) if p == best]}
        events.append({"type": "toy.over", "rule": "Toss", "params": {"seats": new["result"]["winners"]}})
    else:
        new["seat"] = (seat + 1) % len(new["players"])
    return new, events


def totals(state: dict) -> list | None:
    return list(state["points"])


def rolled(inp: dict) -> list:
    return [inp["value"]] if inp.get("type") == "roll" and inp.get("value") in DIE_FACES else []
