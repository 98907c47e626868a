"""What the table's history reads of a game of Survive (companion/history/, through the shelf):
each player's total and the creature die's faces."""

from .names import CREATURES

DIE_FACES = CREATURES


def totals(state: dict) -> list | None:
    """Each player's total once the game is tallied (the values stay hidden until the end)."""
    result = state.get("result")
    return [s["total"] for s in result["seats"]] if result else None


def rolled(inp: dict) -> list:
    """The creature the die showed, for a creature roll; [] for anything else."""
    return [inp["face"]] if inp.get("type") == "creature_roll" and inp.get("face") in CREATURES else []
