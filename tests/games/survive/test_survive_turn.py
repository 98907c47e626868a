"""Visão da Partida: the four steps in order, whose turn it is, and what each step allows."""

import pytest

from companion.games.survive import RuleError, apply, expected

from .conftest import finish_turn, fresh, keys, play


def test_the_first_turn_has_no_step_one_and_the_steps_follow_in_order(profile):
    state = fresh(profile, 3, first=1)
    assert (expected(state)["kind"], expected(state)["seat"]) == ("moves", 1)
    assert expected(state)["context"] == {"moves": 3, "moves_left": 3, "in_play": 10, "ahead": {"terrain": "beach"}}
    state, _ = play(state, {"type": "done"})
    prompt = expected(state)
    assert prompt["kind"] == "remove" and prompt["context"]["terrain"] == "beach"
    state, _ = play(state, {"type": "remove", "terrain": "beach"})
    assert expected(state)["kind"] == "reveal" and expected(state)["context"] == {"terrain": "beach"}
    state, _ = play(state, {"type": "reveal", "back": "red"})
    prompt = expected(state)
    assert prompt["kind"] == "roll" and prompt.get("chance") is True
    assert [o for o in prompt["options"] if o["type"] == "creature_roll"] == [
        {"type": "creature_roll", "face": f} for f in ("serpent", "shark", "whale")]
    state, _ = play(state, {"type": "creature_roll", "face": "serpent"})
    assert expected(state)["kind"] == "creature"
    state, events = play(state, {"type": "done"})
    assert keys(events) == ["turn.begin", "tile.first_turn"]
    assert events[0]["params"] == {"seat": 2, "number": 2, "moves": 3}
    assert (expected(state)["kind"], expected(state)["seat"]) == ("moves", 2)


def test_turns_go_clockwise_and_wrap(profile):
    state = fresh(profile, 3, first=2)
    seats = []
    for _ in range(4):
        seats.append(expected(state)["seat"])
        state, _ = finish_turn(state)
    assert seats == [2, 0, 1, 2]


def test_a_held_tile_is_offered_in_step_one_from_the_second_turn(profile):
    state = fresh(profile, 2)
    state, _ = finish_turn(state, back="red")          # Ana keeps a red tile
    state, _ = finish_turn(state, back="shark")        # Bruno: a shark comes from the supply
    prompt = expected(state)
    assert (prompt["kind"], prompt["seat"], prompt["context"]) == ("tile", 0, {"hand": 1, "ahead": {"terrain": "beach"}})
    plays = [o["tile"] for o in prompt["options"] if o["type"] == "play"]
    assert plays == ["dolphin", "wind", "move_serpent", "move_shark"]   # no whale on the board (S13)
    assert {"type": "done"} in prompt["options"]
    state, events = play(state, {"type": "done"})
    assert expected(state)["kind"] == "moves" and state["hands"][0] == 1


def test_a_player_without_tiles_starts_at_step_two(profile):
    state = fresh(profile, 2)
    state, _ = finish_turn(state, back="whale")
    state, events = finish_turn(state, back="boat")
    assert keys(events)[-1] == "turn.begin"
    assert expected(state)["kind"] == "moves"


def test_step_two_is_skipped_without_explorers(profile):
    state = fresh(profile, 3)
    state["explorers"]["red"] = {"in_play": 0, "saved": 4, "lost": 6}
    for back in ("whale", "boat"):                     # Ana's turn, then Bruno's
        state, _ = finish_turn(state, back=back)
    state, events = finish_turn(state, back="whale")   # Caio's; Ana begins with nothing to move
    assert keys(events)[-2:] == ["turn.begin", "moves.skipped"]
    assert events[-1]["rule"] == "Fim do Jogo"
    assert (expected(state)["kind"], expected(state)["seat"]) == ("remove", 0)


@pytest.mark.parametrize("inp", [
    {"type": "remove", "terrain": "beach"},
    {"type": "creature_roll", "face": "shark"},
    {"type": "taken", "creature": "shark"},
    {"type": "values", "colour": "red", "values": [1]},
])
def test_an_input_of_another_step_is_refused(profile, inp):
    state = fresh(profile, 3)
    with pytest.raises(RuleError) as err:
        apply(state, inp)
    assert err.value.key == "wrong_step" and err.value.params["expected"] == "moves"


def test_what_the_tile_shows_may_be_tapped_at_step_two_the_moves_done_and_the_tile_removed(profile):
    state = fresh(profile, 3)
    prompt = expected(state)
    assert {"type": "reveal", "back": "whale"} in prompt["options"] and prompt.get("default") is None
    stepwise, events = play(state, {"type": "done"}, {"type": "remove", "terrain": "beach", "surrounded": False},
                            {"type": "reveal", "back": "whale"})
    early, early_events = play(state, {"type": "reveal", "back": "whale"})
    assert early == stepwise and early_events == events
    assert keys(early_events)[0] == "remove.tile" and expected(early)["kind"] == "roll"


def test_a_held_tile_is_a_choice_not_a_stop_a_later_step_goes_on_without_it(profile):
    state = fresh(profile, 2)
    state, _ = finish_turn(state, back="red")          # Ana keeps a red tile
    state, _ = finish_turn(state, back="shark")
    assert expected(state)["kind"] == "tile" and expected(state)["default"] == {"type": "done"}
    saved, _ = play(state, {"type": "saved", "colour": "red"})         # no tile: step 2 at once
    assert saved["step"] == "moves" and saved["explorers"]["red"]["saved"] == 1 and saved["hands"][0] == 1
    assert saved == play(state, {"type": "done"}, {"type": "saved", "colour": "red"})[0]
    shown, _ = play(state, {"type": "reveal", "back": "boat"})       # no tile, no move: the tile removed
    assert shown == play(state, {"type": "done"}, {"type": "done"}, {"type": "remove", "terrain": "beach"},
                         {"type": "reveal", "back": "boat"})[0]
    with pytest.raises(RuleError) as err:                             # what is not legal later either
        apply(state, {"type": "reveal", "back": "volcano"})           # no volcano under a beach
    assert err.value.key == "wrong_step" and err.value.params["expected"] == "tile"


def test_two_players_have_one_turn_each_for_both_colours(profile):
    state = fresh(profile, 2)
    prompt = expected(state)
    saves = [o["colour"] for o in prompt["options"] if o["type"] == "saved"]
    assert saves == ["red", "blue"]                    # both of Ana's colours in her one turn (S1)
    state, events = finish_turn(state)
    assert events[-2]["key"] == "turn.begin" and events[-2]["rule"] == "S1" and events[-2]["params"]["seat"] == 1


def test_going_on_is_the_default_of_step_one_and_of_spent_moves(profile):
    state = fresh(profile, 2)
    assert "default" not in expected(state)                             # step 2 with moves left
    state, _ = play(state, *[{"type": "saved", "colour": "red"}] * 3)
    assert expected(state)["default"] == {"type": "done"}               # the three moves are spent
    assert expected(state)["default"] in expected(state)["options"]
    state, _ = finish_turn(state, back="red")
    state, _ = finish_turn(state, back="shark")
    prompt = expected(state)
    assert prompt["kind"] == "tile" and prompt["default"] == {"type": "done"} in prompt["options"]
