"""Final scoring: majorities per resource, tiles and tokens, and the winners.

final_scoring(stocks, tiles, tokens, humans, depleted) returns the breakdown:

    {"resources": {"gem": {"counts": [...], "first": [...], "second": [...],
                           "points": [...], "tied": bool, "depleted": bool}, ...},
     "majority": [...], "tiles": [...], "tile_points": [...], "tokens": [...],
     "total": [...], "winners": [...]}

every list indexed by seat. Only the first `humans` seats can win (R11).
"""

from .majority import ranks
from .names import RESOURCES, TILE_POINTS

FIRST_POINTS = 3
SECOND_POINTS = 1


def score_state(state: dict) -> dict:
    """The breakdown for the table in `state` (at the end, or as it would be now)."""
    return final_scoring(state["stocks"], [len(t) for t in state["tiles"]], state["tokens"],
                         len(state["players"]), state["depleted"])


def resource_points(counts: list[int]) -> dict:
    first, second = ranks(counts)
    tied = len(first) > 1
    points = [0] * len(counts)
    for s in first:
        points[s] = FIRST_POINTS
    if not tied:
        for s in second:
            points[s] = SECOND_POINTS
    return {"counts": list(counts), "first": first, "second": [] if tied else second,
            "points": points, "tied": tied}


def final_scoring(stocks: list[dict], tiles: list[int], tokens: list[int],
                  humans: int, depleted: list | tuple = ()) -> dict:
    seats = len(stocks)
    per_resource = {}
    majority = [0] * seats
    for r in RESOURCES:
        if r in depleted:
            # A depleted resource scores nothing any more (Empty District, step 7).
            per_resource[r] = {"counts": [0] * seats, "first": [], "second": [],
                               "points": [0] * seats, "tied": False, "depleted": True}
            continue
        line = resource_points([stock[r] for stock in stocks])
        line["depleted"] = False
        per_resource[r] = line
        majority = [m + p for m, p in zip(majority, line["points"])]
    tile_points = [TILE_POINTS * n for n in tiles]
    total = [m + t + k for m, t, k in zip(majority, tile_points, tokens)]
    best = max(total[:humans])
    return {
        "resources": per_resource,
        "majority": majority,
        "tiles": list(tiles),
        "tile_points": tile_points,
        "tokens": list(tokens),
        "total": total,
        "winners": [s for s in range(humans) if total[s] == best],
    }
