"""What the history asks of each game of the shelf: replay a record, the players, the
score and winners (the game's own scoring, from its final state), and the chance inputs.

A record's header names its game (`"game": "survive"`); a header without it is Atlandice.
Every game answers the same few questions, so the games list, the players' records and
the dice know no game by name; only `extra` (what a game adds to a player's record) is
the game's own.
"""

from dataclasses import dataclass
from typing import Callable

from companion.game import Game
from companion.games import DEFAULT as ATLANDICE, game_of
from companion.games.survive.names import CREATURES
from companion.games.survive.replay import replay as survive_replay
from companion.record import Record
from companion.games.atlandice.final_scoring import score_state
from companion.games.atlandice.inputs import KINDS, is_chance

@dataclass(frozen=True)
class Replayed:
    state: dict
    start_events: list          # what happened before the first input
    events: list                # the events of each input, in order


@dataclass(frozen=True)
class ShelfGame:
    id: str
    replay: Callable            # (header, inputs) -> Replayed; RuleError/ValueError when it breaks
    players: Callable           # state -> the players' names, by seat (no neutral seat)
    totals: Callable            # state -> [score per player] or None when the game keeps none yet
    winners: Callable           # state -> [seats] once the game is over
    faces: tuple                # the faces of the game's die
    rolls: Callable             # input -> the faces it says came up ([] for a choice)
    extra: Callable | None = None   # state -> per player, what this game adds to their record


# --- Atlandice ------------------------------------------------------------------------------

def _atlandice_replay(header: dict, inputs: list) -> Replayed:
    game = Game(Record(header, list(inputs)))
    return Replayed(game.state, game.start_events, [h["events"] for h in game.history])


def _atlandice_totals(state: dict) -> list:
    result = state["result"] or score_state(state)
    return result["total"][:len(state["players"])]


def _atlandice_rolls(inp: dict) -> list:
    kind = inp.get("type")
    if not is_chance(kind):
        return []
    faces = []
    for f in KINDS[kind].fields:
        value = inp.get(f.name)
        if f.domain == "faces" and isinstance(value, list):
            faces += [v for v in value if v in range(1, 7)]
        elif f.domain == "face" and value in range(1, 7):
            faces.append(value)
    return faces


def _atlandice_extra(state: dict) -> list:
    """Each player's resources at the end (what they hoarded) and the tiles they took."""
    humans = len(state["players"])
    return [{"stock": dict(state["stocks"][s]), "tiles": list(state["tiles"][s])} for s in range(humans)]


# --- Survive --------------------------------------------------------------------------------

def _survive_replay(header: dict, inputs: list) -> Replayed:
    state, history = survive_replay(header, inputs)
    return Replayed(state, history[0], history[1:])


def _survive_totals(state: dict) -> list | None:
    result = state.get("result")
    return [s["total"] for s in result["seats"]] if result else None


def _survive_rolls(inp: dict) -> list:
    return [inp["face"]] if inp.get("type") == "creature_roll" and inp.get("face") in CREATURES else []


# --- Atlantis -------------------------------------------------------------------------------

def _atlantis_totals(state: dict) -> list | None:
    result = state.get("result")
    return [s["total"] for s in result["scores"]] if result else None


GAMES = {
    ATLANDICE: ShelfGame(ATLANDICE, _atlandice_replay, lambda s: list(s["players"]), _atlandice_totals,
                         lambda s: list(s["result"]["winners"]) if s["result"] else [],
                         (1, 2, 3, 4, 5, 6), _atlandice_rolls, _atlandice_extra),
    "survive": ShelfGame("survive", _survive_replay, lambda s: list(s["players"]), _survive_totals,
                         lambda s: list(s["result"]["winners"]) if s.get("result") else [],
                         tuple(CREATURES), _survive_rolls),
    # Game replays any record of the shelf; Atlantis has no die (faces: none).
    "atlantis": ShelfGame("atlantis", _atlandice_replay, lambda s: list(s["players"]), _atlantis_totals,
                          lambda s: list(s["result"]["winners"]) if s.get("result") else [], (), lambda inp: []),
}


def game_id(header: dict) -> str:
    """The game a record's header names, as the shelf reads it (companion.games.game_of)."""
    game = game_of(header)
    return game if isinstance(game, str) else repr(game)


def shelf_game(header: dict) -> ShelfGame | None:
    """The game of this header, or None for a game this companion does not have."""
    return GAMES.get(game_id(header))


def header_players(header: dict) -> list:
    """The players' names as the header gives them (for a record that no longer replays)."""
    start = header.get("setup") or header.get("position") or {}
    players = start.get("players", []) if isinstance(start, dict) else []
    return [p for p in players if isinstance(p, str)]
