"""Positions typed in by a table: complete, checked, refused with the reason when impossible."""

import pytest

from companion.games.atlandice import RuleError, validate_position
from companion.games.atlandice.state import new_state

from .conftest import table


@pytest.fixture
def fresh(profile):
    return new_state({"players": ["A", "B", "C"], "first_player": 0, "profile": profile})


@pytest.mark.parametrize("players,on_tile,dice", [(2, 7, 7), (3, 7, 7), (4, 9, 9)])
def test_setup_counts(profile, players, on_tile, dice):
    state = new_state({"players": ["A", "B", "C", "D"][:players], "first_player": players - 1, "profile": profile})
    assert state["dice_count"] == dice
    assert all(x["resources"][r] == (on_tile if i == j else 0)
               for i, x in enumerate(state["districts"].values()) for j, r in enumerate(state["market"]))
    assert state["market"] == {r: 3 for r in state["market"]}
    assert state["submarine"] == "works" and state["clock"] == 0 and state["first"] == players - 1
    validate_position(state)


@pytest.mark.parametrize("setup,fragment", [
    ({"players": ["A"]}, "2 to 4"),
    ({"players": ["A", "B", "C", "D", "E"]}, "2 to 4"),
    ({"players": ["A", "A"]}, "different"),
    ({"players": ["A", "Neutral"]}, "different"),
    ({"players": ["A", "B"], "first_player": 2}, "first_player"),
    ({"players": ["A", "B"], "tops": {"library": "J-odd"}}, "not a library tile"),
])
def test_bad_setups_are_refused(profile, setup, fragment):
    with pytest.raises(RuleError) as err:
        new_state({**setup, "profile": profile})
    assert fragment in err.value.message


def test_conservation_is_checked(fresh):
    fresh["market"]["gem"] = 4
    with pytest.raises(RuleError) as err:
        validate_position(fresh)
    assert "11 gems" in err.value.message and "conservation" in err.value.message


def test_dice_must_fit_the_players(fresh):
    fresh["dice"] = [1, 2, 3]
    fresh["pending"] = [{"t": "pick"}]
    with pytest.raises(RuleError) as err:
        validate_position(fresh)
    assert "dice" in err.value.message


def test_a_tile_in_two_places_is_refused(fresh):
    fresh["tiles"][0] = ["J-odd"]
    with pytest.raises(RuleError) as err:
        validate_position(fresh)
    assert "J-odd is in 2 places" in err.value.message


def test_depleted_must_match_the_stack(fresh):
    fresh["depleted"] = ["gem"]
    with pytest.raises(RuleError):
        validate_position(fresh)


def test_negative_counts_and_bad_clock(fresh):
    bad = dict(fresh, clock=99)
    with pytest.raises(RuleError):
        validate_position(bad)
    fresh["stocks"][0]["gem"] = -1
    with pytest.raises(RuleError):
        validate_position(fresh)


def test_minimal_position_fills_in_what_a_table_need_not_type(profile):
    game = table(profile, 4, dice=[1, 2, 3, 4, 5, 6, 6, 6, 6])
    position = {k: v for k, v in game.state.items() if k not in ("pending", "turn", "vp_history", "over", "result",
                                                                 "end_after_visits")}
    filled = validate_position(position)
    assert filled["pending"] == [{"t": "pick"}] and filled["turn"]["next"] == 0


@pytest.mark.parametrize("change,fragment", [
    (lambda p: p.update(over=True), "over exactly when"),
    (lambda p: p.update(pending=[]), "over exactly when"),
    (lambda p: p.update(pending=[{"t": "take"}]), "incomplete"),
    (lambda p: p.update(pending=[{"t": "donate", "seat": 7}]), "incomplete"),
    (lambda p: p.update(pending=[{"t": "tile_taker", "district": "library", "tied": [0]}]), "incomplete"),
    (lambda p: p.update(clock=len(p["profile"]["track"]) - 1), "end space"),
    (lambda p: p.update(end_after_visits="yes"), "true or false"),
])
def test_positions_that_would_crash_or_stick_are_refused(fresh, change, fragment):
    change(fresh)
    with pytest.raises(RuleError) as err:
        validate_position(fresh)
    assert fragment in err.value.message


def test_two_player_gifts_must_match_the_picks(profile):
    state = new_state({"players": ["A", "B"], "first_player": 0, "profile": profile})
    state["turn"]["given"] = [True, True]      # gifts but no pick made
    with pytest.raises(RuleError) as err:
        validate_position(state)
    assert err.value.rule == "Two players"
    state["turn"]["given"] = []
    with pytest.raises(RuleError):
        validate_position(state)


def test_received_dice_must_follow_the_order_of_picks(profile):
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6], picks_done=1)
    state = dict(game.state, turn=dict(game.state["turn"], received=[0, 1, 0]))
    with pytest.raises(RuleError) as err:
        validate_position(state)
    assert "seat 0 made 1 picks" in err.value.message


def test_a_finished_position_gets_its_breakdown_derived(profile):
    game = table(profile, 3)
    state = dict(game.state, over=True, pending=[], result={"total": [99, 0, 0]})
    clean = validate_position(state)
    assert clean["result"]["total"] == [0, 0, 0]
