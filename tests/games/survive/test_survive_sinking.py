"""Remova uma peça de Terreno: beaches, then forests, then mountains; the surrounded tile (S7)."""

import pytest

from companion.games.survive import RuleError, apply, expected

from .conftest import fresh, play


def at_remove(profile, terrain: dict) -> dict:
    state = fresh(profile, 3)
    state, _ = play(state, {"type": "done"})
    state["terrain"] = dict(terrain)
    return state


def test_a_forest_is_refused_while_a_beach_remains(profile):
    state = at_remove(profile, {"beach": 1, "forest": 16, "mountain": 8})
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "remove", "terrain": "forest"})
    assert err.value.key == "sinking_order"
    assert err.value.params == {"terrain": "forest", "first": "beach", "left": 1}
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "remove", "terrain": "mountain"})
    assert err.value.key == "sinking_order"


def test_a_mountain_is_refused_while_a_forest_remains(profile):
    state = at_remove(profile, {"beach": 0, "forest": 2, "mountain": 8})
    assert expected(state)["context"]["terrain"] == "forest"
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "remove", "terrain": "mountain"})
    assert err.value.params == {"terrain": "mountain", "first": "forest", "left": 2}
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "remove", "terrain": "beach"})
    assert err.value.key == "terrain_none_left"


def test_the_counts_follow_each_removal(profile):
    state = at_remove(profile, {"beach": 1, "forest": 16, "mountain": 8})
    state, events = play(state, {"type": "remove", "terrain": "beach"})
    assert state["terrain"] == {"beach": 0, "forest": 16, "mountain": 8}
    assert events[0]["params"] == {"variant": None, "seat": 0, "terrain": "beach", "left": 0}
    state, _ = play(state, {"type": "reveal", "back": "red"}, {"type": "creature_roll", "face": "shark"})
    state, _ = play(state, {"type": "done"})     # no shark on the board: Bruno plays; moves done
    assert expected(state)["context"]["terrain"] == "forest"


def test_a_surrounded_beach_is_declared_as_the_last_beach_and_still_goes_before_the_forests(profile):
    state = at_remove(profile, {"beach": 1, "forest": 4, "mountain": 2})
    assert {"type": "remove", "terrain": "beach", "surrounded": True} in expected(state)["options"]
    state, events = play(state, {"type": "remove", "terrain": "beach", "surrounded": True})
    assert events[0]["rule"] == "S7" and events[0]["params"]["variant"] == "surrounded"
    assert state["terrain"]["beach"] == 0


def test_a_surrounded_tile_goes_only_as_the_last_of_its_terrain(profile):
    """"remova-a como a última peça de Praia" (S7): not while another beach is left."""
    state = at_remove(profile, {"beach": 16, "forest": 16, "mountain": 8})      # the first tile of the game
    assert all(not o.get("surrounded") for o in expected(state)["options"])
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "remove", "terrain": "beach", "surrounded": True})
    assert (err.value.key, err.value.rule, err.value.params) == (
        "surrounded_not_last", "S7", {"terrain": "beach", "left": 16})
    forests = at_remove(profile, {"beach": 0, "forest": 2, "mountain": 8})
    assert all(not o.get("surrounded") for o in expected(forests)["options"])
    with pytest.raises(RuleError) as err:
        apply(forests, {"type": "remove", "terrain": "forest", "surrounded": True})
    assert err.value.key == "surrounded_not_last"
    state, _ = play(forests, {"type": "remove", "terrain": "forest"}, {"type": "reveal", "back": "red"},
                    {"type": "creature_roll", "face": "shark"}, {"type": "done"})
    assert {"type": "remove", "terrain": "forest", "surrounded": True} in expected(state)["options"]


def test_a_surrounded_tile_needs_six_higher_tiles_around_it(profile):
    state = at_remove(profile, {"beach": 1, "forest": 3, "mountain": 2})
    assert all(not o.get("surrounded") for o in expected(state)["options"])
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "remove", "terrain": "beach", "surrounded": True})
    assert (err.value.key, err.value.rule) == ("surrounded_impossible", "S7")
    forests = at_remove(profile, {"beach": 0, "forest": 1, "mountain": 6})
    assert {"type": "remove", "terrain": "forest", "surrounded": True} in expected(forests)["options"]
    mountains = at_remove(profile, {"beach": 0, "forest": 0, "mountain": 8})
    with pytest.raises(RuleError) as err:
        apply(mountains, {"type": "remove", "terrain": "mountain", "surrounded": True})
    assert err.value.key == "surrounded_impossible"


def test_the_public_odds_of_the_volcano(profile):
    state = at_remove(profile, {"beach": 0, "forest": 0, "mountain": 5})
    assert expected(state)["context"]["volcano_under_one_of"] == 5
    state, events = play(state, {"type": "remove", "terrain": "mountain"}, {"type": "reveal", "back": "whirlpool"})
    odds = [e for e in events if e["key"] == "odds.volcano"]
    assert odds == [{"key": "odds.volcano", "params": {"mountains": 4}, "rule": "Fim do Jogo"}]
