"""What the table's history reads of a game of Survive (companion/history/, through the shelf):
each player's total, the creature die's faces and the explorers each player saved and lost."""

from .names import CREATURES

DIE_FACES = CREATURES


def totals(state: dict) -> list | None:
    """Each player's total once the game is tallied (the values stay hidden until the end)."""
    result = state.get("result")
    return [s["total"] for s in result["seats"]] if result else None


def rolled(inp: dict) -> list:
    """The creature the die showed, for a creature roll; [] for anything else."""
    return [inp["face"]] if inp.get("type") == "creature_roll" and inp.get("face") in CREATURES else []


PLAYER_LINES = {"explorers": {"group": "page", "how": "average", "shapes": False}}


def player_extra(state: dict) -> list | None:
    """Per player, the explorers of their colours saved and lost, once the game is tallied."""
    result = state.get("result")
    if not result:
        return None
    return [{"explorers": {"saved": sum(c["saved"] for c in s["colours"]),
                           "lost": sum(c["lost"] for c in s["colours"])}} for s in result["seats"]]
