"""What the table's history reads of a game of Atlantis (companion/history/, through the shelf):
each player's total at the end. Atlantis has no die."""


def totals(state: dict) -> list | None:
    result = state.get("result")
    return [s["total"] for s in result["scores"]] if result else None
