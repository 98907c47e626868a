"""What the table's history reads of a game of Atlantis (companion/history/, through the shelf):
each player's total, the final one or as it stands now (the provisional score sheet's, as
`companion replay --score` prints it). Atlantis has no die."""

from .score import score


def totals(state: dict) -> list:
    return [s["total"] for s in score(state)["scores"]]
