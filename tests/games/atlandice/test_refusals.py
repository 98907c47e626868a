"""Refused inputs: invalid (not understood) or illegal (not now), with the rule, and nothing changes."""

import copy

import pytest

from companion.games.atlandice import RuleError, apply

from .conftest import pick, play, table, take


@pytest.fixture
def game(profile):
    return table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], tops={"library": "L-high"}, submarine="market")


@pytest.mark.parametrize("inp", [
    None, [], "pick", {"area": "inn"}, {"type": "jump"}, {"type": "pick"}, {"type": "pick", "area": "attic"},
    {"type": "pick", "area": "inn", "for": "someone"}, {"type": "roll", "value": 7}, {"type": "roll", "value": "3"},
    {"type": "gate_roll", "dice": "123"}, {"type": "gate_roll", "dice": [1, 2, 0]}, {"type": "resource"},
    {"type": "donate", "pair": ["gem"]}, {"type": "tile_taker", "seat": -1}, {"type": "reveal", "tile": "X"},
])
def test_malformed_inputs_are_invalid_and_change_nothing(game, inp):
    before = copy.deepcopy(game.state)
    with pytest.raises(RuleError) as err:
        game.apply(inp)
    assert err.value.kind == "invalid" and err.value.message
    assert game.state == before and game.version == 0


@pytest.mark.parametrize("inp,rule", [
    ({"type": "pick", "area": "library", "for": "neutral"}, "Two players"),
    ({"type": "roll", "value": 3}, "Visit the Areas"),
    ({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}, "Visit the Areas"),
])
def test_wrong_kind_or_rule_is_illegal_and_names_the_rule(game, inp, rule):
    before = copy.deepcopy(game.state)
    with pytest.raises(RuleError) as err:
        game.apply(inp)
    assert err.value.kind == "illegal" and err.value.rule == rule
    assert game.state == before


def test_an_area_with_no_die_cannot_be_visited(profile):
    game = table(profile, 3, dice=[1, 1, 2, 2, 5, 6, 6], submarine="market")
    with pytest.raises(RuleError) as err:
        game.apply(pick("inn"))
    assert "no die" in err.value.message and err.value.rule == "Visit the Areas"
    assert err.value.to_dict() == {"error": "illegal", "message": err.value.message, "rule": "Visit the Areas",
                                   "key": "no_die_at", "params": {"area": "inn"}}


def test_taking_a_resource_that_is_not_there(game):
    play(game, pick("library"))
    with pytest.raises(RuleError) as err:
        game.apply(take("weapon"))
    assert "no weapon" in err.value.message and game.state["stocks"][0]["weapon"] == 0


def test_gate_roll_with_the_wrong_number_of_dice_is_refused_with_the_reason(profile):
    game = table(profile, 4)
    with pytest.raises(RuleError) as err:
        game.apply({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
    assert "9 dice" in err.value.message and "7" in err.value.message
    assert game.expected()["kind"] == "gate_roll"


def test_pure_apply_leaves_the_given_state_untouched(game):
    before = copy.deepcopy(game.state)
    new, events = apply(game.state, pick("library"))
    assert game.state == before and new != before and events


def test_no_input_after_the_end(profile):
    end = len(profile["track"]) - 1
    game = table(profile, 3, dice=[2, 6], picks_done=5, clock=end - 1, submarine="inn")
    play(game, pick("market"), take("gem"))
    assert game.state["over"]
    with pytest.raises(RuleError) as err:
        game.apply({"type": "gate_roll", "dice": [1] * 7})
    assert err.value.rule == "End of the Game"


def test_every_offered_option_is_accepted_and_nothing_else(profile):
    # One legality function: every option offered applies; a few near misses are refused.
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], tops={"jeweller": "J-swap"}, submarine="market")
    play(game, pick("jeweller"), take("gem"))
    options = game.expected()["options"]
    for option in options:
        apply(game.state, option)
    offered = {tuple(sorted(o.items())) for o in options}
    for near in ({"type": "swap", "give": "gem", "district": "market", "take": "gem"},
                 {"type": "swap", "give": "gem", "district": "library", "take": "gem"},
                 {"type": "swap", "give": "tool", "district": "library", "take": "book"}):
        assert tuple(sorted(near.items())) not in offered
        with pytest.raises(RuleError):
            apply(game.state, near)


def test_r1_the_engine_never_invents_a_roll(profile):
    # R1: a roll is always an input with its value; there is no input that asks the engine to roll.
    from companion.games.atlandice.inputs import FIELDS
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], tops={"jeweller": "J-odd"}, submarine="market")
    play(game, pick("jeweller"), take("gem"))
    prompt = game.expected()
    assert prompt["kind"] == "roll" and [o["value"] for o in prompt["options"]] == [1, 2, 3, 4, 5, 6]
    for missing in ({"type": "roll"}, {"type": "roll", "value": None}):
        with pytest.raises(RuleError):
            game.apply(missing)
    assert all("value" in FIELDS[t] or "dice" in FIELDS[t] for t in ("roll", "gate_roll"))
    assert game.expected() == prompt
