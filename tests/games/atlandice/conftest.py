"""Helpers to set the table up exactly as a test needs it (through validate_position)."""

import pytest

from companion.game_profiles import load_profile
from companion.game import Game
from companion.games.atlandice import expected, new_state, validate_position
from companion.games.atlandice.engine import apply_in_place, start
from companion.games.atlandice.names import DISTRICTS, RESOURCES, STACKS
from companion.games.atlandice.state import new_turn

NAMES = ["Anna", "Bruno", "Eric", "Lola"]


@pytest.fixture(scope="session")
def profile():
    return load_profile()


def table(profile, players=3, *, first=0, dice=(), picks_done=0, tops=None, below=None, districts=None,
          market=None, stocks=None, tokens=None, tiles=None, set_aside=(), depleted=(), submarine="works",
          clock=0, given=None):
    """A quiet position (waiting for a pick, or the gate roll when no dice lie).

    districts: {district: {resource: n}} for the top tiles (others start empty
    when named). The Black Market gets whatever conservation leaves over unless
    `market` is given.
    """
    names = NAMES[:players]
    state = new_state({"players": names, "first_player": first, "profile": profile,
                       "tops": tops or {d: s[0] for d, s in STACKS.items()}})
    seats = len(state["stocks"])
    if below is not None:
        for d, b in below.items():
            state["districts"][d]["below"] = list(b)
    for r in depleted:
        d = DISTRICTS[RESOURCES.index(r)]
        state["districts"][d]["top"] = None
        state["districts"][d]["below"] = []
    state["depleted"] = list(depleted)
    if districts:
        for d, res in districts.items():
            state["districts"][d]["resources"] = {r: res.get(r, 0) for r in RESOURCES}
    if stocks:
        for seat, res in stocks.items():
            state["stocks"][seat] = {r: res.get(r, 0) for r in RESOURCES}
    if market is None:
        market = {}
        for r in RESOURCES:
            if r in depleted:
                market[r] = 0
                for d in DISTRICTS:
                    state["districts"][d]["resources"][r] = 0
                continue
            used = sum(x["resources"][r] for x in state["districts"].values()) + sum(s[r] for s in state["stocks"])
            market[r] = state["in_play"] - used
    state["market"] = {r: market.get(r, 0) for r in RESOURCES}
    state["tokens"] = list(tokens) if tokens else [0] * seats
    state["tiles"] = [list(t) for t in tiles] if tiles else [[] for _ in range(seats)]
    state["set_aside"] = list(set_aside)
    placed = set(state["set_aside"]).union(*map(set, state["tiles"]))
    for r in depleted:  # a depleted stack's tiles were taken: set them aside unless a test gave them out
        d = DISTRICTS[RESOURCES.index(r)]
        state["set_aside"] += [t for t in STACKS[d] if t not in placed]
    state["submarine"] = submarine
    state["clock"] = clock
    state["dice"] = sorted(dice)
    turn = new_turn(players, first, seats)
    turn["next"] = picks_done
    for seat in turn["order"][:picks_done]:
        turn["received"][seat] += 1
    if given:
        turn["given"] = list(given)
        for s, gave in enumerate(given):  # a die given went to the neutral seat, not the giver
            if gave:
                turn["received"][s] -= 1
                turn["received"][players] += 1
    state["turn"] = turn
    state["pending"] = [{"t": "pick"}] if dice else [{"t": "gate_roll"}]
    return Game.from_position(validate_position(state))


def play(game, *inputs):
    """Apply inputs in order; return all their events."""
    events = []
    for inp in inputs:
        events += game.apply(inp)
    return events


def pick(area, who="self"):
    return {"type": "pick", "area": area, "for": who}


def take(resource):
    return {"type": "resource", "resource": resource}


def roll(value):
    return {"type": "roll", "value": value}


def keys(events):
    return [e["key"] for e in events]


def find(events, key):
    return [e for e in events if e["key"] == key]
