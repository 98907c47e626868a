"""What the table's history reads of a game of Atlantis (companion/history/, through the shelf):
each player's total, the final one or as it stands now (the provisional score sheet's, as
`companion replay --score` prints it), and what each player's points came from. Atlantis has no die."""

from .score import score


def totals(state: dict) -> list:
    return [s["total"] for s in score(state)["scores"]]


PLAYER_LINES = {"points": {"group": "page", "how": "average", "shapes": False}}


def player_extra(state: dict) -> list | None:
    """Per player, the points of a finished game by source: tiles, cards and crossings paid."""
    if not state["over"]:
        return None
    return [{"points": {"tiles": s["tile_points"], "cards": s["cards"], "crossings": -s["payments"]}}
            for s in score(state)["scores"]]
