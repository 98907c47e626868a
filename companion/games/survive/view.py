"""The public table: what the tablet may show everyone (never which tile a player holds).
Creatures and boats: {"board", "supply", "gone", "to_place" (during the setup walk)}."""

from .names import START_OF_TURN, DEFENSIVE
from .sinking import volcano_odds


def _pieces(state: dict) -> tuple[dict, dict]:
    """Creatures and boats as the board shows them: during the setup walk, the serpents are
    on the board once step 1 is done and the boats once step 8 is; before, they are to place."""
    creatures = {c: dict(n, to_place=0) for c, n in state["creatures"].items()}
    boats = dict(state["boats"], to_place=0)
    if state["step"] == "setup":
        if state["setup_step"] == 1:
            serpents = creatures["serpent"]
            serpents["to_place"], serpents["board"] = serpents["board"], 0
        boats["to_place"], boats["board"] = boats["board"], 0
    return creatures, boats


def view(state: dict) -> dict:
    creatures, boats = _pieces(state)
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
        "creatures": creatures,
        "boats": boats,
        "explorers": {c: dict(e) for c, e in state["explorers"].items()},
        "profile_confirmed": state["profile"]["confirmed"],
        "over": state["over"],
        "result": state["result"],
    }
