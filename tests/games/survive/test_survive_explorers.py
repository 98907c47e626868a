"""Explorers per colour: saved (a move each, in step 2, one's own: S8), lost (any step), boats gone."""

import pytest

from companion.games.survive import RuleError, apply, expected

from .conftest import finish_turn, fresh, play


def test_saving_costs_a_move_so_three_a_turn_at_most(profile):
    state = fresh(profile, 3)
    state, events = play(state, *[{"type": "saved", "colour": "red"}] * 3)
    assert state["explorers"]["red"] == {"in_play": 7, "saved": 3, "lost": 0}
    assert [e["params"]["moves_left"] for e in events] == [2, 1, 0]
    assert expected(state)["context"]["moves_left"] == 0
    assert not any(o["type"] == "saved" for o in expected(state)["options"])
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "saved", "colour": "red"})
    assert (err.value.key, err.value.rule) == ("no_moves_left", "S8")


def test_only_the_player_whose_turn_it_is_saves_their_own(profile):
    state = fresh(profile, 3)
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "saved", "colour": "blue"})
    assert err.value.key == "not_your_colour"
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "saved", "colour": "yellow"})      # no one plays yellow with three
    assert err.value.key == "colour_not_playing"


def test_saving_happens_only_in_step_two(profile):
    state, _ = play(fresh(profile, 3), {"type": "done"})
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "saved", "colour": "red"})
    assert (err.value.key, err.value.rule) == ("saved_not_moving", "S8")


def test_the_save_count_starts_again_each_turn(profile):
    state, _ = play(fresh(profile, 2), *[{"type": "saved", "colour": "blue"}] * 3)
    state, _ = finish_turn(state, back="whale")
    state, _ = finish_turn(state, back="boat")
    assert (expected(state)["kind"], expected(state)["seat"]) == ("moves", 0)
    assert expected(state)["context"]["moves_left"] == 3


def test_losses_of_any_colour_are_tapped(profile):
    state, events = play(fresh(profile, 3), {"type": "lost", "colour": "green"}, {"type": "boat_lost"})
    assert state["explorers"]["green"] == {"in_play": 9, "saved": 0, "lost": 1}
    assert events[0]["params"] == {"colour": "green", "seat": 2, "in_play": 9, "lost": 1}
    assert state["boats"] == {"board": 5, "supply": 6, "gone": 1}


def test_nothing_can_be_lost_that_is_not_on_the_board(profile):
    state = fresh(profile, 3)
    state["explorers"]["green"] = {"in_play": 0, "saved": 6, "lost": 4}
    state["boats"] = {"board": 0, "supply": 6, "gone": 6}
    assert not any(o["type"] in ("boat_lost",) or o.get("colour") == "green" for o in expected(state)["options"])
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "lost", "colour": "green"})
    assert err.value.key == "no_explorer_in_play"
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "boat_lost"})
    assert err.value.key == "no_boat_on_board"
