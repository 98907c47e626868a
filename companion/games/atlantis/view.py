"""The public table: what the tablet may show everyone, as plain data.

A stack's lower tile is not shown (the table sees only its back) even when the
companion laid the path and knows it; `laying` (the whole path, lower tiles too)
is for laying the path on the table right after the companion shuffled it.
"""

from .path import ATLANTIS, MAINLAND, space, top
from .reach import points


def _space(state: dict, position: int) -> dict:
    tiles = space(state, position)["tiles"]
    seated = [(seat, c) for seat, where in enumerate(state["citizens"]) for c, p in enumerate(where) if p == position]
    shown = top(state, position)
    return {"position": position, "tile": shown, "stack": len(tiles), "water": not tiles,
            "bridge": space(state, position)["bridge"],
            "citizen": {"seat": seated[0][0], "citizen": seated[0][1]} if seated else None}


def view(state: dict) -> dict:
    seats = range(len(state["players"]))
    return {
        "players": list(state["players"]),
        "step": dict(state["step"]),
        "seat": state["seat"],
        "path": [_space(state, p) for p in range(ATLANTIS + 1, MAINLAND)],
        "on_atlantis": [[c for c, p in enumerate(state["citizens"][s]) if p == ATLANTIS] for s in seats],
        "home": [[c for c, p in enumerate(state["citizens"][s]) if p >= MAINLAND] for s in seats],
        "citizens": [list(c) for c in state["citizens"]],
        "held": [[dict(state["tiles"][t], id=t) for t in state["held"][s]] for s in seats],
        "points": [points(state, s) for s in seats],
        "hands": [state["cards"][s]["hand"] for s in seats],
        "bridge_built": list(state["bridge_built"]),
        "draw_pile": state["draw_pile"],
        "discard": state["discard"],
        "path_mode": state["path_mode"],
        "profile_confirmed": state["profile"]["confirmed"],
        "over": state["over"],
        "result": state["result"],
    }


def laying(state: dict) -> list[dict]:
    """Each space with a tile, its tiles from the top down ({"colour", "value"}; None not yet entered)."""
    out = []
    for position in range(ATLANTIS + 1, MAINLAND):
        tiles = space(state, position)["tiles"]
        if tiles:
            out.append({"position": position,
                        "tiles": [dict(state["tiles"][t]) if t is not None else None for t in tiles]})
    return out
