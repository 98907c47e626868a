"""After a move the player may take the first free tile behind the citizen, skipping
water, bridges and occupied tiles (A9: the move's "take": false leaves it; from the mainland, behind is the path's
last space, A10). Taking a stack's top tile reveals the one under it (the table
enters it when the companion did not lay it, A3); taking a space's last tile
leaves water there.
"""

from .events import event
from .path import ATLANTIS, MAINLAND, occupied, space, tile_id, top
from .water import flood


def tile_behind(state: dict, position: int) -> int | None:
    for p in range(position - 1, ATLANTIS, -1):
        if top(state, p) is not None and not occupied(state, p):
            return p
    return None


def behind_after(state: dict, seat: int, citizen: int, to: int) -> int | None:
    """The space whose tile a move of `citizen` to `to` would let the player take (or leave, A9):
    the first free tile behind it once it stands there (A10 from the mainland), or None when
    there is none or the move brings the third citizen home and ends the game at once (A15)."""
    moved = [list(c) for c in state["citizens"]]
    moved[seat][citizen] = to
    if all(p >= MAINLAND for p in moved[seat]):
        return None
    return tile_behind(dict(state, citizens=moved), to)


def take_behind(state: dict, seat: int, position: int, events: list) -> int | None:
    """Take the tile; return the space whose lower tile the table must enter, if any."""
    p = tile_behind(state, position)
    if p is None:
        events.append(event("atlantis.take/none", "A9", seat=seat))
        return None
    tiles = space(state, p)["tiles"]
    tile = tiles.pop(0)
    state["held"][seat].append(tile)
    events.append(event("atlantis.take", "Take", seat=seat, tile=tile, position=p,
                        colour=state["tiles"][tile]["colour"], value=state["tiles"][tile]["value"]))
    if not tiles:
        flood(state, p, events)
        return None
    if tiles[0] is None:
        return p
    revealed(state, p, events)
    return None


def leave_behind(state: dict, seat: int, position: int, events: list) -> None:
    """The player chose not to take the tile behind ("puede tomar", A9): it stays on the path."""
    p = tile_behind(state, position)
    if p is None:
        events.append(event("atlantis.take/none", "A9", seat=seat))
        return
    tile = top(state, p)
    events.append(event("atlantis.take/declined", "A9", seat=seat, position=p, colour=tile["colour"],
                        value=tile["value"]))


def revealed(state: dict, position: int, events: list) -> None:
    tile = top(state, position)
    events.append(event("atlantis.revealed", "Take", position=position, tile=tile["id"], colour=tile["colour"],
                        value=tile["value"]))


def reveal_options(state: dict) -> list[dict]:
    profile = state["profile"]
    return [{"type": "reveal", "colour": c, "value": v} for c in profile["colours"] for v in profile["values"]]


def resolve_reveal(state: dict, position: int, inp: dict, events: list) -> None:
    tiles = space(state, position)["tiles"]
    tid = tile_id(position, 2)
    state["tiles"][tid] = {"colour": inp["colour"], "value": inp["value"]}
    tiles[0] = tid
    revealed(state, position, events)
