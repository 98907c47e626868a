"""Tables set up exactly as a test needs them: the path laid by `lay` inputs, then
citizens, water and holdings placed on the state (plain data) before the turn."""

import pytest

from companion.games.atlantis import apply, default_profile, expected, new_state, start
from companion.games.atlantis.path import HEIGHTS, MAINLAND, space

PROFILE = default_profile()
COLOURS = PROFILE["colours"]


def pattern(position: int) -> tuple[str, int]:
    """The default top tile of a space: the colours in turn, values 1 to 7 in turn."""
    return COLOURS[(position - 1) % len(COLOURS)], (position - 1) % 7 + 1


def laid(players: int = 2, tops: dict | None = None, first: int = 0) -> dict:
    """A game whose path the table laid (top tiles `tops` or the pattern), waiting for the first turn."""
    state, _ = start(new_state({"game": "atlantis", "players": ["Ana", "Bia", "Caio", "Duda"][:players],
                                "first_player": first, "path": "table", "profile": PROFILE}))
    tops = tops or {}
    for p in range(1, MAINLAND):
        if HEIGHTS[p - 1]:
            colour, value = tops.get(p, pattern(p))
            state, _ = apply(state, {"type": "lay", "colour": colour, "value": value})
    assert expected(state)["kind"] == "turn"
    return state


def place(state: dict, seat: int, citizen: int, position: int) -> None:
    state["citizens"][seat][citizen] = position


def drown(state: dict, *positions: int, bridge: int | None = None) -> None:
    """Make spaces water (their tiles leave the game), bridged by `bridge`'s seat if given."""
    for p in positions:
        state["spent"] += [t for t in space(state, p)["tiles"] if t]
        space(state, p)["tiles"] = []
        space(state, p)["bridge"] = bridge
    if bridge is not None:
        state["bridge_built"][bridge] = True


def give(state: dict, seat: int, *values: int) -> list[str]:
    """Hand the seat tiles of these values (new ids, as if taken earlier)."""
    ids = []
    for i, v in enumerate(values):
        tid = f"x{len(state['tiles'])}.{i}"
        state["tiles"][tid] = {"colour": COLOURS[0], "value": v}
        state["held"][seat].append(tid)
        ids.append(tid)
    return ids


def hand(state: dict, seat: int, n: int) -> None:
    state["draw_pile"] += state["cards"][seat]["hand"] - n
    state["cards"][seat]["hand"] = n


@pytest.fixture
def profile():
    return PROFILE
