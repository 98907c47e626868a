"""Positions (position.py): a game in progress, said in the game's words, read and checked;
a position of any turn of a real game plays on exactly as the game did; each impossible
position is refused with its reason."""

import copy
import json
import random

import pytest

from companion import games
from companion.game import Game
from companion.games.atlantis import RuleError, apply, expected, options, start, validate_position
from companion.games.atlantis.path import HEIGHTS, MAINLAND
from companion.games.atlantis.position import to_position
from companion.games.atlantis.simulate import play_random, random_setup

from .conftest import COLOURS, PROFILE, pattern


def table_position(**changes) -> dict:
    """Two players, Bia to play; space 1 has lost its top tile, every other stack is whole
    (lower tiles unseen); Ana holds the tile taken."""
    path = []
    for p, h in enumerate(HEIGHTS, start=1):
        colour, value = pattern(p)
        path.append("water" if h == 0 else f"{colour} {value}" if h == 1 or p == 1 else
                    {"colour": colour, "value": value, "under": True})
    position = {"players": ["Ana", "Bia"], "turn": "Bia", "path": path,
                "citizens": [[2, "atlantis", "atlantis"], [0, 0, 0]], "bridges": [None, None],
                "hands": [4, 6], "held": [["blue 3"], []], "profile": PROFILE}
    position.update(changes)
    return position


def refused(position) -> RuleError:
    with pytest.raises(RuleError) as error:
        validate_position(position)
    assert error.value.kind == "invalid" and error.value.key == "atlantis.position"
    return error.value


def test_a_position_in_the_games_words_plays_on():
    state, events = start(validate_position(table_position()))
    assert [e["key"] for e in events] == ["atlantis.position", "atlantis.turn"]
    assert state["seat"] == 1 and state["citizens"] == [[2, 0, 0], [0, 0, 0]]
    assert state["held"][0] == ["h1.1"] and state["tiles"]["h1.1"] == {"colour": "blue", "value": 3}
    assert state["tiles"]["1.2"] == {"colour": COLOURS[0], "value": 1} and state["spaces"][1]["tiles"] == ["2.1", None]
    assert state["draw_pile"] == 7 * 15 - 10
    prompt = expected(state)
    assert prompt["kind"] == "turn" and prompt["seat"] == 1
    # Bia moves grey from Atlantis: 2 is Ana's, so grey again to 9; behind, 8's top tile is taken: the
    # table enters the one uncovered (unseen in the position)
    state, _ = apply(state, {"type": "move", "citizen": 0, "cards": [COLOURS[1], COLOURS[1]], "bridge": None})
    assert state["held"][1] == ["8.1"] and expected(state)["kind"] == "reveal"


def test_the_registry_and_a_record_start_from_an_atlantis_position():
    position = table_position()
    state = games.load("atlantis").from_position(position)
    assert state["seat"] == 1
    header = {"format": "atlandice-record", "version": 1, "game": "atlantis", "position": position}
    move = {"type": "move", "citizen": 0, "cards": [COLOURS[1], COLOURS[1]], "bridge": None}
    game = Game.from_jsonl(json.dumps(header) + "\n" + json.dumps(move) + "\n")
    assert game.game_id == "atlantis" and game.state["held"][1] == ["8.1"] and game.expected()["kind"] == "reveal"


@pytest.mark.parametrize("players,path", [(2, "shuffle"), (3, "table"), (4, "shuffle")])
def test_the_position_of_any_turn_plays_on_as_the_game_did(players, path):
    rng = random.Random(players)
    states = [s for s, _, _ in play_random(rng, random_setup(rng, players, PROFILE, path))]
    turns = [i for i, s in enumerate(states) if s["step"]["t"] == "turn"]
    for i in turns[::7]:
        position = json.loads(json.dumps(to_position(states[i])))
        state, _ = start(validate_position(position))
        for key in ("spaces", "citizens", "bridge_built", "draw_pile", "discard", "seat", "step"):
            assert state[key] == states[i][key], key
        assert [state["tiles"][t] for t in sum(state["held"], [])] == \
            [states[i]["tiles"][t] for t in sum(states[i]["held"], [])]
        moves = [o for o in options(states[i]) if o["type"] != "buy"]
        assert [o for o in options(state) if o["type"] != "buy"] == moves
        assert expected(state)["context"]["movable"] == expected(states[i])["context"]["movable"]


def test_a_bridge_covers_its_whole_run_of_water_and_a_merged_one_is_said_built():
    path = table_position()["path"]
    for p in (11, 12, 14):
        path[p - 1] = "water"
    position = table_position(path=path, bridges=[12, None])
    state = validate_position(position)
    assert [state["spaces"][p - 1]["bridge"] for p in (10, 11, 12, 13, 14)] == [None, 0, 0, None, None]
    assert state["bridge_built"] == [True, False]
    state = validate_position(table_position(path=path, bridges=[11, "built"]))
    assert state["bridge_built"] == [True, True]


def _with(**changes):
    return table_position(**changes)


def _path(**spaces):
    path = table_position()["path"]
    for p, entry in spaces.items():
        path[int(p[1:]) - 1] = entry
    return path


@pytest.mark.parametrize("position,says,rule", [
    ("not an object", "a position must be an object", None),
    (_with(game="survive"), "not 'survive'", None),
    (_with(players=["Ana"]), "2 to 4 players", "Setup"),
    (_with(players=["Ana", "ana"]), "names must be different", "Setup"),
    ({k: v for k, v in table_position().items() if k != "turn"}, "'turn' says whose turn", None),
    (_with(turn="Caio"), "'turn' must be a player's name or seat", None),
    (_with(path=_path(s1="water")[:-1]), "lists the 53 spaces", "A1"),
    (_with(path=_path(s27="blue 3")), "the water tile laid with the path", "A1"),
    (_with(path=_path(s15={"colour": "blue", "value": 1, "under": True})), "a single tile", "A1"),
    (_with(path=_path(s5="purple 3")), "'purple' is not a colour", "A2"),
    (_with(path=_path(s5="blue 9")), "value is one of", "A2"),
    (_with(path=_path(s5=["blue", 3])), "must be a tile", None),
    (_with(path=_path(s1={"colour": "blue", "value": 1, "under": True})), "the path had 84", "A1"),
    (_with(citizens=[[2, 0], [0, 0, 0]]), "3 citizens", "Setup"),
    (_with(citizens=[[2, 0, 0], [2, 0, 0]]), "one citizen per space", "A4"),
    (_with(citizens=[[27, 0, 0], [0, 0, 0]]), "stands on water", "Move"),
    (_with(citizens=[[55, 0, 0], [0, 0, 0]]), "a space from 1 to 53", None),
    (_with(citizens=[["mainland", MAINLAND, "mainland"], [0, 0, 0]]), "ended the game", "End"),
    (_with(bridges=[5, None]), "bridge must be on a water space", "A7"),
    (_with(bridges=["built", None]), "needs that other bridge", "A7"),
    (_with(bridges=[None]), "one entry per player", None),
    (_with(hands=[4, -1]), "0 or more", None),
    (_with(hands=[100, 6]), "the game has 105", "A2"),
    (_with(draw_pile=3), "the game has 105", "A2"),
    (_with(held=[["blue 3"], "none"]), "a list of tiles", None),
])
def test_an_impossible_position_is_refused_with_its_reason(position, says, rule):
    error = refused(position)
    assert says in error.message and error.rule == rule
    assert error.params["reason"] in error.message


def test_two_bridges_in_one_run_of_water_are_refused():
    path = _path(s11="water", s12="water")
    error = refused(_with(path=path, bridges=[11, 12]))
    assert "holds one bridge" in error.message and error.rule == "A7"


def test_the_position_given_is_not_changed():
    position = table_position()
    before = copy.deepcopy(position)
    validate_position(position)
    assert position == before
