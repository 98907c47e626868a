"""The public table: what the tablet may show everyone (never which tile a player holds)."""

from .names import START_OF_TURN, DEFENSIVE
from .sinking import volcano_odds


def view(state: dict) -> dict:
    return {
        "players": list(state["players"]),
        "colours": [list(c) for c in state["colours"]],
        "challenges": list(state["challenges"]),
        "step": state["step"],
        "seat": state["turn"]["seat"],
        "turn": state["turn"]["number"] + 1,
        "terrain_left": dict(state["terrain"]),
        "volcano_under_one_of": volcano_odds(state),
        "hands": list(state["hands"]),
        "red_played": {k: state["played"][k] for k in START_OF_TURN + DEFENSIVE},
        "creatures": {c: dict(n) for c, n in state["creatures"].items()},
        "boats": dict(state["boats"]),
        "explorers": {c: dict(e) for c, e in state["explorers"].items()},
        "profile_confirmed": state["profile"]["confirmed"],
        "over": state["over"],
        "result": state["result"],
    }
