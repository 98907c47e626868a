"""Remova uma peça de Terreno: one land tile a turn, beaches first, then forests, then
mountains. The companion counts the tiles left of each terrain.

A beach completely surrounded by forests and/or mountains goes as the last beach even
though it touches no sea (a forest surrounded by mountains likewise). The order stays:
the table declares such a tile as it removes it; it is the last of its terrain left, and
six neighbours of the higher terrains are still on the island (S7).
"""

from .events import event
from .names import HEX_NEIGHBOURS, TERRAINS


def current_terrain(state: dict) -> str | None:
    """The terrain that sinks now: the first one of the order with tiles left."""
    return next((t for t in TERRAINS if state["terrain"][t]), None)


def higher_around(state: dict, terrain: str) -> bool:
    """Enough tiles of the higher terrains left to surround one (six on a board of hexes)."""
    higher = TERRAINS[TERRAINS.index(terrain) + 1:]
    return bool(higher) and sum(state["terrain"][t] for t in higher) >= HEX_NEIGHBOURS


def can_be_surrounded(state: dict, terrain: str) -> bool:
    """"remova-a como a última peça de Praia": a surrounded tile goes only as the last of its
    terrain left, with six higher tiles still around it (S7)."""
    return state["terrain"][terrain] == 1 and higher_around(state, terrain)


def options(state: dict) -> list[dict]:
    terrain = current_terrain(state)
    out = [{"type": "remove", "terrain": terrain, "surrounded": False}]
    if can_be_surrounded(state, terrain):
        out.append({"type": "remove", "terrain": terrain, "surrounded": True})
    return out


def resolve(state: dict, inp: dict, events: list) -> None:
    terrain = inp["terrain"]
    state["terrain"][terrain] -= 1
    state["turn"]["removed"] = terrain
    events.append(event("remove.tile", "S7" if inp["surrounded"] else "Remova uma peça de Terreno",
                        variant="surrounded" if inp["surrounded"] else None, seat=state["turn"]["seat"],
                        terrain=terrain, left=state["terrain"][terrain]))


def volcano_odds(state: dict) -> int | None:
    """Public odds: the volcano is under one of this many mountain tiles (None once revealed)."""
    return None if state["volcano"] else state["terrain"]["mountain"]
