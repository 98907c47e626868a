"""The score sheet at any moment: the final tally once over; before, as it stands now (marked
provisional): the tiles each player holds plus the cards the companion counts in hand, with
no crossing paid yet (the citizens still out pay only at the end, A16)."""

from .end import scoring


def score(state: dict) -> dict:
    if state["over"]:
        return dict(state["result"], provisional=False)
    now = dict(state, confirmed=[cards["hand"] for cards in state["cards"]], settlement=[])
    return dict(scoring(now), provisional=True)
