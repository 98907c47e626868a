"""Positions written in the game's words: the turn derived, a visit by its Area and step, a finished game."""

import json

import pytest

from companion.game import Game
from companion.games.atlandice import RuleError, validate_position

DISTRICTS = {"jeweller": {"top": "J-odd", "below": ["J-swap", "J-visit"], "resources": {"gem": 6}},
             "library": {"top": "L-high", "below": ["L-market", "L-second"], "resources": {"book": 7}},
             "inn": {"top": "I-clock", "below": ["I-supply", "I-change"], "resources": {"provision": 7}},
             "works": {"top": "E1", "below": ["E2", "E3"], "resources": {"tool": 6}},
             "blacksmith": {"top": "B-even", "below": ["B-move", "B-six"], "resources": {"weapon": 7}}}


def position(profile, **kw):
    base = {"players": ["Ana", "Bruno", "Eric"], "profile": profile, "first": 1, "submarine": "works",
            "districts": json.loads(json.dumps(DISTRICTS)), "market": {r: 3 for r in DISTRICTS_RES},
            "stocks": [{"gem": 1}, {"tool": 1}, {}], "tokens": [0, 0, 0], "tiles": [[], [], []],
            "dice": [1, 3, 5, 6, 6]}
    return dict(base, **kw)


DISTRICTS_RES = ("gem", "book", "provision", "tool", "weapon")


def test_a_mid_round_position_needs_no_turn(profile):
    game = Game.from_position(position(profile))
    assert game.state["turn"] == {"order": [1, 2, 0, 1, 2, 0], "next": 2, "received": [0, 1, 1],
                                  "given": [False, False, False]}
    assert game.expected()["kind"] == "pick" and game.expected()["seat"] == 0


def test_a_two_player_turn_asks_only_who_gave(profile):
    p = position(profile, players=["Ana", "Bruno"], first=0, stocks=[{"gem": 1}, {"tool": 1}, {}],
                 tokens=[0, 0, 0], tiles=[[], [], []], dice=[2, 3, 6, 6])
    turn = validate_position(dict(p, turn={"given": [True, False]}))["turn"]
    assert turn["next"] == 3 and turn["received"] == [1, 1, 1]
    assert validate_position(p)["turn"]["received"] == [2, 1, 0]


def test_a_position_inside_a_visit_in_the_games_words(profile):
    p = position(profile, dice=[3, 5, 6, 6], visit={"area": "library", "step": "resource"})
    game = Game.from_position(p)
    prompt = game.expected()
    assert (prompt["kind"], prompt["seat"], prompt["context"]["area"]) == ("resource", 0, "library")
    game.apply({"type": "resource", "resource": "book"})
    assert game.expected()["kind"] == "roll" and game.expected()["context"]["purpose"] == "L-high"
    effect = Game.from_position(dict(p, visit={"area": "library", "step": "effect"}))
    assert effect.expected()["kind"] == "roll"
    sub = Game.from_position(dict(p, visit={"area": "works", "step": "resource"}))
    sub.apply({"type": "resource", "resource": "tool"})
    assert sub.expected()["context"]["reason"] == "submarine"


def test_a_visit_that_cannot_be_is_refused(profile):
    with pytest.raises(RuleError, match="Submarine is not at the library"):
        validate_position(position(profile, dice=[3, 5, 6, 6], visit={"area": "library", "step": "submarine"}))
    with pytest.raises(RuleError, match="either 'visit'"):
        validate_position(position(profile, dice=[3, 5, 6, 6], visit={"area": "library"}, pending=[{"t": "pick"}]))


def test_a_finished_position_says_over_and_nothing_else(profile):
    game = Game.from_position(position(profile, dice=[], over=True))
    assert game.state["over"] and game.state["pending"] == [] and game.expected()["kind"] == "over"
    assert game.state["result"]["total"] == [3, 3, 0]
