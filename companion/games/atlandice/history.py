"""What the table's history reads of an Atlandice game (companion/history/, through the shelf):
each player's total, the faces of its die and the faces an input says came up, and what a
player's record adds (the resources held at the end, the tiles taken)."""

from .final_scoring import score_state
from .inputs import KINDS, is_chance

DIE_FACES = (1, 2, 3, 4, 5, 6)


def totals(state: dict) -> list:
    """Each player's total: the final one, or as it would be now (no neutral seat)."""
    result = state["result"] or score_state(state)
    return result["total"][:len(state["players"])]


def rolled(inp: dict) -> list:
    """The faces a physical roll (a gate roll, an effect's roll) says came up; [] for a choice."""
    kind = inp.get("type")
    if not is_chance(kind):
        return []
    faces = []
    for f in KINDS[kind].fields:
        value = inp.get(f.name)
        if f.domain == "faces" and isinstance(value, list):
            faces += [v for v in value if v in DIE_FACES]
        elif f.domain == "face" and value in DIE_FACES:
            faces.append(value)
    return faces


PLAYER_LINES = {"stock": {"group": "resources", "how": "average", "shapes": True},
                "tiles": {"group": "tile", "how": "total", "shapes": False}}


def player_extra(state: dict) -> list:
    """Per player, the resources held at the end ("stock") and the tiles taken ("tiles")."""
    humans = len(state["players"])
    return [{"stock": dict(state["stocks"][s]), "tiles": {t: 1 for t in state["tiles"][s]}}
            for s in range(humans)]
