"""Fim do Jogo and the challenges' ends; the tally of the saved explorers' values."""

import pytest

from companion.games.survive import RuleError, apply, expected
from companion.games.survive.scoring import holds, value_choices

from .conftest import fresh, keys, play


def erupt(state: dict) -> tuple[dict, list]:
    """From step 2: the last mountain goes, and it hides the volcano."""
    state["terrain"] = {"beach": 0, "forest": 0, "mountain": 1}
    return play(state, {"type": "done"}, {"type": "remove", "terrain": "mountain"},
                {"type": "reveal", "back": "volcano"})


def with_saved(profile, players: int, saved: dict, challenges=()) -> dict:
    state = fresh(profile, players, challenges)
    for colour, n in saved.items():
        state["explorers"][colour] = {"in_play": 10 - n, "saved": n, "lost": 0}
    return state


def test_the_values_offered_are_every_set_a_colour_can_show(profile):
    assert len(value_choices(profile["values"], 2)) == 18          # 15 pairs of different values + 1-1, 2-2, 3-3
    assert value_choices(profile["values"], 10) == [[1, 1, 1, 2, 2, 3, 3, 4, 5, 6]]
    assert value_choices(profile["values"], 0) == [[]]
    assert holds(profile["values"], [1, 1, 1]) and not holds(profile["values"], [6, 6])


def test_the_highest_total_wins_not_the_most_explorers(profile):
    state, events = erupt(with_saved(profile, 3, {"red": 2, "blue": 4}))
    assert "end.game" in keys(events) and state["to_value"] == ["red", "blue"]
    prompt = expected(state)
    assert (prompt["kind"], prompt["seat"]) == ("values", 0)
    # one tap per explorer: each number red holds, once (six buttons, not every pair)
    assert prompt["options"] == [{"type": "value", "colour": "red", "value": v} for v in range(1, 7)]
    state, _ = play(state, {"type": "values", "colour": "red", "values": [6, 5]})
    assert state["values"]["red"] == [5, 6] and expected(state)["seat"] == 1
    state, events = play(state, {"type": "values", "colour": "blue", "values": [1, 2, 1, 1]})
    assert state["over"] and expected(state)["kind"] == "over"
    result = state["result"]
    assert [s["total"] for s in result["seats"]] == [11, 5, 0]
    assert result["winners"] == [0] and not result["shared"] and result["counted"] == "values"
    assert result["seats"][1]["colours"] == [{"colour": "blue", "saved": 4, "lost": 6, "values": [1, 1, 1, 2],
                                              "points": 5}]
    assert events[-1] == {"key": "final.winners", "params": {"variant": None, "seats": [0], "total": 11},
                          "rule": "Objetivo"}


def test_values_a_colour_does_not_hold_are_refused(profile):
    state, _ = erupt(with_saved(profile, 3, {"red": 2}))
    for values, key, rule in (([6, 6], "values_not_held", "S3"), ([6], "values_count", "Objetivo")):
        with pytest.raises(RuleError) as err:
            apply(state, {"type": "values", "colour": "red", "values": values})
        assert (err.value.key, err.value.rule) == (key, rule)
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "values", "colour": "blue", "values": []})
    assert err.value.key == "values_other_colour"


def test_a_tie_is_a_shared_win(profile):
    state, _ = erupt(with_saved(profile, 3, {"red": 1, "green": 1}))
    state, events = play(state, {"type": "values", "colour": "red", "values": [4]},
                         {"type": "values", "colour": "green", "values": [4]})
    assert state["result"]["winners"] == [0, 2] and state["result"]["shared"]
    assert events[-1]["params"]["variant"] == "shared" and events[-1]["rule"] == "S2"


def test_no_explorer_saved_is_a_tie_at_zero_with_nothing_to_enter(profile):
    state, events = erupt(fresh(profile, 3))
    assert state["over"] and state["result"]["winners"] == [0, 1, 2]


def test_two_players_add_their_two_colours(profile):
    state, _ = erupt(with_saved(profile, 2, {"red": 1, "blue": 1, "green": 2}))
    state, _ = play(state, {"type": "values", "colour": "red", "values": [6]},
                    {"type": "values", "colour": "blue", "values": [5]},
                    {"type": "values", "colour": "green", "values": [4, 5]})
    assert [s["total"] for s in state["result"]["seats"]] == [11, 9]
    assert state["result"]["winners"] == [0]


def test_challenge_three_counts_explorers_and_asks_no_values(profile):
    state, events = erupt(with_saved(profile, 3, {"red": 2, "blue": 4}, challenges=(3,)))
    assert state["over"] and "values" not in [e["key"] for e in events]
    assert [s["total"] for s in state["result"]["seats"]] == [2, 4, 0]
    assert state["result"]["winners"] == [1] and state["result"]["counted"] == "explorers"
    assert [e["params"]["variant"] for e in events if e["key"] == "final.score"] == ["explorers"] * 3


def test_challenge_two_ends_when_the_last_explorer_leaves_the_board(profile):
    state = with_saved(profile, 3, {"red": 9, "blue": 10, "green": 10}, challenges=(2,))
    state, events = play(state, {"type": "saved", "colour": "red"})
    assert keys(events)[:2] == ["explorer.saved", "end.game"]
    assert events[1]["params"]["variant"] == "last_explorer" and events[1]["rule"] == "Desafio 2"
    assert expected(state)["kind"] == "values"


def test_challenge_two_goes_on_without_land_tiles(profile):
    state = fresh(profile, 3, challenges=(2,))
    state["terrain"] = {"beach": 0, "forest": 0, "mountain": 0}
    state, events = play(state, {"type": "done"})
    assert events[0] == {"key": "remove.none_left", "params": {"seat": 0}, "rule": "S12"}
    assert expected(state)["kind"] == "roll"


def test_challenge_four_ends_as_the_last_tile_leaves(profile):
    state = fresh(profile, 3, challenges=(4,))
    state["terrain"] = {"beach": 0, "forest": 0, "mountain": 1}
    state["explorers"]["red"] = {"in_play": 2, "saved": 8, "lost": 0}
    state, events = play(state, {"type": "done"}, {"type": "remove", "terrain": "mountain"})
    assert keys(events)[:2] == ["remove.tile", "end.game"] and events[1]["rule"] == "S11"
    assert "reveal" not in [e["key"].split(".")[0] for e in events]
    assert state["explorers"]["red"] == {"in_play": 0, "saved": 8, "lost": 2}
    assert expected(state)["kind"] == "values"


def test_challenge_four_does_not_end_while_tiles_remain(profile):
    state = fresh(profile, 3, challenges=(4,))
    state, _ = play(state, {"type": "done"}, {"type": "remove", "terrain": "beach"})
    assert not state["over"] and expected(state)["kind"] == "reveal"


def test_nothing_is_accepted_once_the_game_is_over(profile):
    state, _ = erupt(fresh(profile, 3))
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "done"})
    assert err.value.key == "game_over"


def test_the_values_are_entered_one_tap_per_explorer(profile):
    state, _ = erupt(with_saved(profile, 3, {"red": 3, "blue": 1}))
    state, events = play(state, {"type": "value", "colour": "red", "value": 1})
    assert keys(events) == ["values.shown"] and events[0]["params"]["left"] == 2
    prompt = expected(state)
    assert prompt["context"]["shown"] == [1] and prompt["context"]["left"] == 2
    assert len(prompt["options"]) == 6                             # 1 still held twice more
    state, _ = play(state, {"type": "value", "colour": "red", "value": 6})
    assert {"type": "value", "colour": "red", "value": 6} not in expected(state)["options"]   # one 6 only
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "value", "colour": "red", "value": 6})
    assert err.value.key == "value_not_held"
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "values", "colour": "red", "values": [1, 1, 6]})   # a whole set after taps
    assert err.value.key == "values_one_by_one"
    state, events = play(state, {"type": "value", "colour": "red", "value": 1})
    assert keys(events) == ["values.entered"] and state["values"]["red"] == [1, 1, 6]
    assert expected(state)["context"]["colour"] == "blue" and state["shown"] == []


def test_a_whole_set_as_older_records_enter_it_still_counts_the_same(profile):
    state, _ = erupt(with_saved(profile, 3, {"red": 2, "blue": 1}))
    whole, _ = play(state, {"type": "values", "colour": "red", "values": [6, 5]})
    taps, _ = play(state, {"type": "value", "colour": "red", "value": 6}, {"type": "value", "colour": "red", "value": 5})
    assert whole == taps
