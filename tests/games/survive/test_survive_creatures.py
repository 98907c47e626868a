"""Usando o Resultado do Dado: the creature die, what each creature may do, and nothing
happening when the rolled creature has none on the board."""

import pytest

from companion.games.survive import RuleError, apply, expected

from .conftest import fresh, play


def at_roll(profile) -> dict:
    state = fresh(profile, 3)
    state, _ = play(state, {"type": "done"}, {"type": "remove", "terrain": "beach"}, {"type": "reveal", "back": "red"})
    return state


@pytest.mark.parametrize("face", ["shark", "whale"])
def test_a_creature_with_none_on_the_board_does_nothing(profile, face):
    state, events = play(at_roll(profile), {"type": "creature_roll", "face": face})
    assert events[0] == {"key": "creature.nothing", "params": {"face": face}, "rule": "Usando o Resultado do Dado"}
    assert events[1]["key"] == "turn.begin" and expected(state)["seat"] == 1


@pytest.mark.parametrize("face, count, reach", [("serpent", 5, [1, 1]), ("shark", 2, [1, 2]), ("whale", 1, [1, 3])])
def test_each_creature_moves_its_own_reach(profile, face, count, reach):
    state = at_roll(profile)
    state["creatures"]["shark"] = {"board": 2, "supply": 4, "gone": 0}
    state["creatures"]["whale"] = {"board": 1, "supply": 4, "gone": 0}
    state, events = play(state, {"type": "creature_roll", "face": face})
    assert events[0]["params"] == {"variant": face, "face": face, "on_board": count, "low": reach[0], "high": reach[1]}
    prompt = expected(state)
    assert prompt["kind"] == "creature" and prompt["context"]["reach"] == reach
    assert prompt["seat"] == 0 and prompt["options"][0] == {"type": "done"}


def test_what_a_creature_takes_is_tapped_then_the_turn_ends(profile):
    state, _ = play(at_roll(profile), {"type": "creature_roll", "face": "serpent"})
    state, events = play(state, {"type": "boat_lost"}, {"type": "lost", "colour": "green"},
                         {"type": "lost", "colour": "green"}, {"type": "done"})
    assert state["boats"] == {"board": 5, "supply": 6, "gone": 1}
    assert state["explorers"]["green"] == {"in_play": 8, "saved": 0, "lost": 2}
    assert [e["rule"] for e in events[:3]] == ["Usando o Resultado do Dado"] * 3
    assert [e["key"] for e in events[-2:]] == ["turn.begin", "tile.first_turn"]


def test_the_serpents_do_not_leave_the_board_by_the_die(profile):
    state, _ = play(at_roll(profile), {"type": "creature_roll", "face": "serpent"})
    assert not any(o["type"] == "defend" for o in expected(state)["options"])
    assert state["creatures"]["serpent"]["board"] == 5


def test_a_shark_does_not_take_a_boat(profile):
    """Tubarão: "Se este espaço de mar contiver um Barco, o Tubarão não o afetará" (S14)."""
    state = at_roll(profile)
    state["creatures"]["shark"] = {"board": 1, "supply": 5, "gone": 0}
    state, _ = play(state, {"type": "creature_roll", "face": "shark"})
    options = expected(state)["options"]
    assert {"type": "boat_lost"} not in options
    assert {"type": "lost", "colour": "green"} in options          # swimmers it stops at are taken
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "boat_lost"})
    assert (err.value.key, err.value.rule) == ("shark_spares_boats", "Usando o Resultado do Dado")
    assert state["boats"]["board"] == 6


@pytest.mark.parametrize("face", ["serpent", "whale"])
def test_a_serpent_or_a_whale_may_take_a_boat(profile, face):
    state = at_roll(profile)
    state["creatures"]["whale"] = {"board": 1, "supply": 4, "gone": 0}
    state, _ = play(state, {"type": "creature_roll", "face": face})
    assert {"type": "boat_lost"} in expected(state)["options"]
    state, events = play(state, {"type": "boat_lost"})
    assert events[0]["rule"] == "Usando o Resultado do Dado" and state["boats"]["board"] == 5
