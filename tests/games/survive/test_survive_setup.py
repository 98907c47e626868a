"""Preparação do Jogo: the setup checks and the eight steps walked one at a time."""

import pytest

from companion.games.survive import RuleError, apply, expected, new_state, start

from .conftest import keys, play, setup_of


@pytest.mark.parametrize("players", [1, 5])
def test_survive_is_for_two_to_four_players(profile, players):
    setup = setup_of(profile, 4)
    setup["players"] = [f"P{i}" for i in range(players)]
    with pytest.raises(RuleError) as err:
        new_state(setup)
    assert err.value.key == "setup_players"


def test_two_players_play_two_colours_each_and_bring_their_boats(profile):
    state = new_state(setup_of(profile, 2))
    assert state["colours"] == [["red", "blue"], ["green", "yellow"]]
    assert state["boats"] == {"board": 8, "supply": 4, "gone": 0}                  # S1
    assert all(e == {"in_play": 10, "saved": 0, "lost": 0} for e in state["explorers"].values())


def test_two_players_may_play_one_colour_each(profile):
    """Partida de Dois Jogadores: "cada jogador poderá jogar com duas cores": may, not must (S1)."""
    state, events = start(new_state(setup_of(profile, 2, colours_each=1)))
    assert state["colours"] == [["red"], ["blue"]]
    assert set(state["explorers"]) == {"red", "blue"}
    assert state["boats"] == {"board": 4, "supply": 8, "gone": 0}          # Cada jogador pega 2 peões de Barco
    state, events = play(state, *({"type": "setup", "step": n} for n in range(1, 9)))
    said = {e["key"]: e for e in events}
    assert said["setup.boats_taken"]["params"] == {"each": 2, "boats": 4}
    assert said["setup.place_explorers"]["params"]["explorers"] == 20
    assert said["turn.begin"]["rule"] == "Visão da Partida"               # not S1's shared turn
    chosen = new_state(setup_of(profile, 2, colours=[["green"], ["red"]]))  # one colour each, given
    assert chosen["colours"] == [["green"], ["red"]]
    assert new_state(setup_of(profile, 2))["colours"] == [["red", "blue"], ["green", "yellow"]]   # the default


@pytest.mark.parametrize("players, each, colours", [(3, 2, None), (2, 3, None), (2, "1", None),
                                                    (2, 1, [["red", "blue"], ["green", "yellow"]])])
def test_colours_each_is_one_or_two_with_two_players_only(profile, players, each, colours):
    more = {"colours_each": each} if colours is None else {"colours_each": each, "colours": colours}
    with pytest.raises(RuleError) as err:
        new_state(setup_of(profile, players, **more))
    assert err.value.key == ("setup_colours" if colours else "setup_colours_each")


def test_three_players_leave_six_boats_aside(profile):
    state = new_state(setup_of(profile, 3))
    assert state["boats"] == {"board": 6, "supply": 6, "gone": 0}
    assert set(state["explorers"]) == {"red", "blue", "green"}


def test_the_pieces_at_setup_are_the_rulebooks(profile):
    state = new_state(setup_of(profile, 4))
    assert state["terrain"] == {"beach": 16, "forest": 16, "mountain": 8}
    assert state["creatures"] == {"serpent": {"board": 5, "supply": 0, "gone": 0},
                                  "shark": {"board": 0, "supply": 6, "gone": 0},
                                  "whale": {"board": 0, "supply": 5, "gone": 0}}
    assert state["boats"] == {"board": 8, "supply": 4, "gone": 0}


@pytest.mark.parametrize("colours, why", [
    ([["red"], ["red"], ["blue"]], "a colour twice"),
    ([["red"], ["blue"]], "a player without one"),
    ([["red", "blue"], ["green"], ["yellow"]], "two colours with three players"),
    ([["red"], ["blue"], ["pink"]], "not a colour of the box"),
])
def test_chosen_colours_are_checked(profile, colours, why):
    with pytest.raises(RuleError) as err:
        new_state(setup_of(profile, 3, colours=colours))
    assert err.value.key == "setup_colours", why


def test_chosen_colours_are_kept(profile):
    state = new_state(setup_of(profile, 2, colours=[["yellow", "red"], ["blue", "green"]]))
    assert state["colours"] == [["yellow", "red"], ["blue", "green"]]


def test_challenges_two_and_four_do_not_combine(profile):
    with pytest.raises(RuleError) as err:
        new_state(setup_of(profile, 3, challenges=(2, 4)))
    assert (err.value.key, err.value.rule) == ("setup_challenges_conflict", "S10")
    with pytest.raises(RuleError) as err:
        new_state(setup_of(profile, 3, challenges=(5,)))
    assert err.value.key == "setup_challenges"
    assert new_state(setup_of(profile, 3, challenges=(3, 1, 2)))["challenges"] == [1, 2, 3]


def test_a_setup_for_another_game_is_refused(profile):
    with pytest.raises(RuleError) as err:
        new_state(dict(setup_of(profile), game="atlandice"))
    assert err.value.key == "setup_game"


def test_a_profile_that_breaks_the_rulebook_is_refused(profile):
    bad = dict(profile, backs=dict(profile["backs"], beach=dict(profile["backs"]["beach"], volcano=1, shark=2)))
    with pytest.raises(RuleError) as err:
        new_state(setup_of(bad))
    assert err.value.key == "profile" and "volcano" in err.value.message
    short = dict(profile, backs=dict(profile["backs"], forest=dict(profile["backs"]["forest"], shark=1)))
    with pytest.raises(RuleError) as err:
        new_state(setup_of(short))
    assert "16" in err.value.message


def test_the_setup_is_walked_step_by_step(profile):
    state, events = start(new_state(setup_of(profile, 3, challenges=(1,), first=2)))
    assert keys(events) == ["setup.profile_unconfirmed", "setup.challenge_1", "setup.serpents"]
    said = []
    for step in range(1, 9):
        prompt = expected(state)
        assert prompt["kind"] == "setup" and prompt["options"] == [{"type": "setup", "step": step}]
        state, events = apply(state, {"type": "setup", "step": step})
        said += keys(events)
    assert said == ["setup.island", "setup.explorers_taken", "setup.colour_of", "setup.colour_of",
                    "setup.colour_of", "setup.boats_taken", "setup.supply", "setup.first_player",
                    "setup.place_explorers", "setup.place_boats", "setup.done", "turn.begin", "tile.first_turn"]
    assert expected(state)["kind"] == "moves" and expected(state)["seat"] == 2


def test_overpopulation_changes_what_step_seven_says(profile):
    state, _ = start(new_state(setup_of(profile, 3, challenges=(1,))))
    state, events = play(state, *({"type": "setup", "step": n} for n in range(1, 7)))
    assert events[-1]["key"] == "setup.place_explorers" and events[-1]["params"]["variant"] == "overpopulation"
    plain, _ = start(new_state(setup_of(profile, 3)))
    plain, events = play(plain, *({"type": "setup", "step": n} for n in range(1, 7)))
    assert events[-1]["params"]["variant"] is None and events[-1]["params"]["explorers"] == 30


def test_a_setup_step_out_of_order_is_refused(profile):
    state, _ = start(new_state(setup_of(profile)))
    with pytest.raises(RuleError) as err:
        apply(state, {"type": "setup", "step": 2})
    assert err.value.key == "setup_step" and err.value.params == {"step": 1, "given": 2}


def test_a_setup_with_a_key_it_does_not_know_is_refused(profile):
    new_state(setup_of(profile, players=2))
    with pytest.raises(RuleError) as err:
        new_state(setup_of(profile, players=2, junk="x" * 1000))
    assert err.value.key == "setup_unknown" and "junk" in str(err.value)


def test_the_setup_prompt_says_what_to_do_now(profile):
    from companion.games.survive.words import prompt

    from .conftest import load_catalog
    state, _ = start(new_state(setup_of(profile, 3)))
    assert [e["key"] for e in expected(state)["context"]["now"]] == ["setup.serpents"]
    en, pt = load_catalog("en"), load_catalog("pt-BR")
    names = ["Ana", "Bruno", "Caio"]
    assert prompt(expected(state), en, names) == (
        "Setup 1: put the 5 sea serpents on the spaces with the sea serpent icon. Tap it done when the table has done it.")
    state, _ = play(state, {"type": "setup", "step": 1}, {"type": "setup", "step": 2})
    said = prompt(expected(state), pt, names)
    assert said.startswith("Preparação 3: cada cor pega seus 10 Exploradores. Ana joga com vermelho.") and "{" not in said
