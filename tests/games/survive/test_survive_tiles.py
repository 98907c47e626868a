"""Usando a Informação de uma Peça de Terreno: every back revealed, every red tile played."""

import pytest

from companion.games.survive import RuleError, apply, expected

from .conftest import finish_turn, fresh, keys, play


def at_reveal(profile, terrain="beach", players=3, challenges=()) -> dict:
    state = fresh(profile, players, challenges)
    left = {"beach": 16, "forest": 16, "mountain": 8}
    if terrain != "beach":
        left["beach"] = 0
    if terrain == "mountain":
        left["forest"] = 0
    state["terrain"] = left
    state, _ = play(state, {"type": "done"}, {"type": "remove", "terrain": terrain})
    return state


def test_the_backs_offered_are_those_the_terrain_can_hide(profile):
    backs = [o["back"] for o in expected(at_reveal(profile, "beach"))["options"]]
    assert backs == ["shark", "whale", "boat", "red"]      # no volcano nor whirlpool under a beach (S4)
    assert "volcano" in [o["back"] for o in expected(at_reveal(profile, "mountain"))["options"]]
    with pytest.raises(RuleError) as err:
        apply(at_reveal(profile, "forest"), {"type": "reveal", "back": "volcano"})
    assert (err.value.key, err.value.rule) == ("back_not_left", "S4")


def test_a_back_used_up_under_a_terrain_is_no_longer_offered(profile):
    state = at_reveal(profile, "beach")
    state["revealed"]["beach"]["shark"] = profile["backs"]["beach"]["shark"]
    assert "shark" not in [o["back"] for o in expected(state)["options"]]


@pytest.mark.parametrize("back, creature", [("shark", "shark"), ("whale", "whale")])
def test_a_shark_or_whale_comes_from_the_supply(profile, back, creature):
    state, events = play(at_reveal(profile), {"type": "reveal", "back": back})
    assert state["creatures"][creature] == {"board": 1, "supply": {"shark": 5, "whale": 4}[creature], "gone": 0}
    assert events[0]["key"] == "reveal.placed" and events[0]["params"]["variant"] == back
    assert expected(state)["kind"] == "roll"


def test_a_boat_comes_from_the_supply(profile):
    state, events = play(at_reveal(profile), {"type": "reveal", "back": "boat"})
    assert state["boats"] == {"board": 7, "supply": 5, "gone": 0}
    assert events[0]["params"]["capacity"] == 3


def test_an_empty_supply_places_nothing(profile):
    state = at_reveal(profile)
    state["creatures"]["shark"] = {"board": 2, "supply": 0, "gone": 4}
    state, events = play(state, {"type": "reveal", "back": "shark"})
    assert events[0] == {"key": "reveal.supply_empty", "params": {"back": "shark"}, "rule": "S6"}
    assert state["creatures"]["shark"] == {"board": 2, "supply": 0, "gone": 4}


def test_a_red_tile_goes_to_the_hand_as_a_count(profile):
    state, events = play(at_reveal(profile), {"type": "reveal", "back": "red"})
    assert state["hands"] == [1, 0, 0]
    assert events[0]["params"] == {"seat": 0, "hand": 1} and "tile" not in events[0]["params"]


def test_the_whirlpool_asks_what_it_took(profile):
    state, events = play(at_reveal(profile, "forest"), {"type": "reveal", "back": "whirlpool"})
    prompt = expected(state)
    assert prompt["kind"] == "whirlpool"
    assert {"type": "taken", "creature": "serpent"} in prompt["options"]
    assert {"type": "taken", "creature": "shark"} not in prompt["options"]      # none on the board
    state, events = play(state, {"type": "taken", "creature": "serpent"}, {"type": "lost", "colour": "blue"},
                         {"type": "boat_lost"}, {"type": "done"})
    assert state["creatures"]["serpent"] == {"board": 4, "supply": 0, "gone": 1}
    assert state["explorers"]["blue"] == {"in_play": 9, "saved": 0, "lost": 1}
    assert state["boats"]["gone"] == 1
    assert keys(events) == ["whirlpool.took", "explorer.lost", "boat.lost"]
    assert events[1]["rule"] == "Redemoinho"
    assert expected(state)["kind"] == "roll"


def test_the_volcano_ends_the_game_and_every_explorer_on_the_island_is_lost(profile):
    state = at_reveal(profile, "mountain")
    state["explorers"]["red"] = {"in_play": 3, "saved": 5, "lost": 2}
    state, events = play(state, {"type": "reveal", "back": "volcano"})
    assert keys(events)[:2] == ["reveal.volcano", "end.game"]
    assert [e["params"]["n"] for e in events if e["key"] == "end.stranded"] == [3, 10, 10]
    assert state["explorers"]["red"] == {"in_play": 0, "saved": 5, "lost": 5}
    assert expected(state)["kind"] == "values" and expected(state)["context"] == {"colour": "red", "count": 5,
                                                                                 "shown": [], "left": 5}


@pytest.mark.parametrize("challenge", [2, 4])
def test_in_challenges_two_and_four_the_volcano_is_a_whirlpool(profile, challenge):
    state, events = play(at_reveal(profile, "mountain", challenges=(challenge,)), {"type": "reveal", "back": "volcano"})
    assert events[0]["params"]["variant"] == "whirlpool" and events[0]["rule"] == f"Desafio {challenge}"
    assert expected(state)["kind"] == "whirlpool" and not state["over"]
    state, _ = play(state, {"type": "done"})
    assert expected(state)["kind"] == "roll"
    assert expected(state)["context"] == {} and state["volcano"]


def holding(profile, players=3) -> dict:
    """Ana holds a red tile, a shark and a whale are on the board; Ana's second turn, step 1."""
    state = fresh(profile, players)
    state, _ = finish_turn(state, back="red")
    state, _ = finish_turn(state, back="shark")
    for _ in range(players - 2):
        state, _ = finish_turn(state, back="whale")
    return state


@pytest.mark.parametrize("tile", ["dolphin", "wind", "move_serpent", "move_shark", "move_whale"])
def test_each_start_of_turn_tile_is_played_and_explained(profile, tile):
    state = holding(profile)
    assert expected(state)["kind"] == "tile"
    state, events = play(state, {"type": "play", "tile": tile})
    assert events[0]["key"] == "tile.played" and events[0]["params"]["variant"] == tile
    assert state["hands"][0] == 0 and state["played"][tile] == 1
    assert expected(state)["kind"] == "moves"


def test_a_tile_with_nothing_to_move_is_refused(profile):
    state = holding(profile)
    state["creatures"]["whale"] = {"board": 0, "supply": 4, "gone": 1}
    assert {"type": "play", "tile": "move_whale"} not in expected(state)["options"]
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "play", "tile": "move_whale"})
    assert (err.value.key, err.value.rule) == ("tile_no_target", "S13")


def test_a_kind_whose_every_tile_was_played_is_refused(profile):
    state = holding(profile)
    state["played"]["wind"] = sum(profile["backs"][t]["wind"] for t in profile["backs"])
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "play", "tile": "wind"})
    assert (err.value.key, err.value.rule) == ("tile_used_up", "S15")


def test_a_defensive_tile_is_not_played_in_step_one(profile):
    state = holding(profile)
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "play", "tile": "repel_shark"})
    assert err.value.key == "input_field"


def shark_rolled(profile) -> dict:
    """Bruno's turn, the die shows a shark; Ana holds a red tile."""
    state = fresh(profile, 3)
    state, _ = finish_turn(state, back="red")
    state, _ = play(state, {"type": "done"}, {"type": "remove", "terrain": "beach"}, {"type": "reveal", "back": "shark"},
                    {"type": "creature_roll", "face": "shark"})
    return state


def test_a_defensive_tile_removes_the_shark_in_another_players_turn(profile):
    state = shark_rolled(profile)
    prompt = expected(state)
    assert prompt["kind"] == "creature" and prompt["context"] == {"creature": "shark", "on_board": 1, "reach": [1, 2],
                                                     "variant": "shark"}
    assert {"type": "defend", "seat": 0, "tile": "repel_shark"} in prompt["options"]
    assert not any(o["type"] == "defend" and o["seat"] == 1 for o in prompt["options"])
    state, events = play(state, {"type": "defend", "seat": 0, "tile": "repel_shark"})
    assert events[0]["key"] == "tile.defended" and events[0]["rule"] == "S9"
    assert state["creatures"]["shark"] == {"board": 0, "supply": 5, "gone": 1}
    assert state["hands"] == [0, 0, 0] and state["played"]["repel_shark"] == 1
    assert (expected(state)["kind"], expected(state)["seat"]) == ("moves", 2)


def test_a_defensive_tile_is_refused_in_ones_own_turn_or_against_the_other_creature(profile):
    state = shark_rolled(profile)
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "defend", "seat": 1, "tile": "repel_shark"})
    assert err.value.key == "defend_own_turn"
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "defend", "seat": 0, "tile": "repel_whale"})
    assert (err.value.key, err.value.rule) == ("defend_wrong_creature", "S9")
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "defend", "seat": 2, "tile": "repel_shark"})
    assert err.value.key == "no_tile_in_hand"


def test_a_tile_is_played_in_step_one_only(profile):
    state, _ = play(holding(profile), {"type": "done"})
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "play", "tile": "dolphin"})          # step 2 has begun
    assert err.value.key == "wrong_step"
    first = fresh(profile, 3)
    with pytest.raises(RuleError) as err:
        apply(first, {"type": "play", "tile": "dolphin"})          # the first turn: nothing in hand
    assert err.value.key == "no_tile_in_hand"
    state, _ = play(first, {"type": "done"})
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "defend", "seat": 1, "tile": "repel_shark"})
    assert err.value.key == "wrong_step"


@pytest.mark.parametrize("tile", ["repel_shark"])
def test_a_repellent_needs_an_explorer_of_the_holder_in_play(profile, tile):
    """The repellents answer a creature moved at "algum de seus nadadores" / "um Barco com um
    de seus exploradores": a player with none left in play has nothing to protect (S9)."""
    state = shark_rolled(profile)
    state["explorers"]["red"] = {"in_play": 0, "saved": 4, "lost": 6}
    assert not any(o["type"] == "defend" for o in expected(state)["options"])
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "defend", "seat": 0, "tile": tile})
    assert (err.value.key, err.value.rule, err.value.params["seat"]) == ("tile_no_explorer", "S9", 0)


@pytest.mark.parametrize("tile", ["wind", "dolphin"])
def test_the_winds_and_the_dolphin_need_an_explorer_of_the_player_in_play(profile, tile):
    """Winds move "um Barco que você controla", the dolphin "um de seus nadadores" (S13)."""
    state = holding(profile)
    state["explorers"]["red"] = {"in_play": 0, "saved": 4, "lost": 6}
    plays = [o["tile"] for o in expected(state)["options"] if o["type"] == "play"]
    assert tile not in plays and "move_serpent" in plays
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "play", "tile": tile})
    assert (err.value.key, err.value.rule) == ("tile_no_explorer", "S13")


def test_after_a_shark_tile_the_roll_prompt_asks_whose_swimmers_it_took(profile):
    """"Qualquer nadador naquele espaço é removido de jogo": the table taps them, by colour."""
    from companion.games.survive.words import prompt

    from .conftest import load_catalog
    state, _ = play(at_reveal(profile), {"type": "reveal", "back": "shark"})
    asked = expected(state)
    assert asked["kind"] == "roll" and asked["context"] == {"variant": "shark"}
    assert {"type": "lost", "colour": "green"} in asked["options"]
    said = prompt(asked, load_catalog("en"), ["Ana", "Bruno", "Caio"])
    assert said.startswith("Ana: the shark the tile placed took every swimmer") and "roll the creature die" in said
    state, _ = play(state, {"type": "lost", "colour": "green"})
    assert expected(state)["context"] == {"variant": "shark"}                 # still asked until the roll
    whale, _ = play(at_reveal(profile), {"type": "reveal", "back": "whale"})  # a whale placed takes no one
    assert expected(whale)["context"] == {}
    nxt, _ = play(state, {"type": "creature_roll", "face": "serpent"}, {"type": "done"},
                  {"type": "done"}, {"type": "remove", "terrain": "beach"}, {"type": "reveal", "back": "red"})
    assert expected(nxt)["kind"] == "roll" and expected(nxt)["context"] == {}  # a new turn forgets it
