"""The public table: counts anyone at the table may see, never the kind of a held tile."""

import json

from companion.games.survive import view

from companion.games.survive import new_state, start

from .conftest import fresh, play, setup_of


def test_the_view_shows_counts_and_odds_but_not_what_a_hand_holds(profile):
    state, _ = play(fresh(profile, 3), {"type": "done"}, {"type": "remove", "terrain": "beach"},
                    {"type": "reveal", "back": "red"})
    table = view(state)
    assert table["hands"] == [1, 0, 0]
    assert table["terrain_left"] == {"beach": 15, "forest": 16, "mountain": 8}
    assert table["volcano_under_one_of"] == 8
    assert table["boats"] == {"board": 6, "supply": 6, "gone": 0, "to_place": 0}
    assert table["creatures"]["serpent"] == {"board": 5, "supply": 0, "gone": 0, "to_place": 0}
    assert table["profile_confirmed"] is False
    assert "revealed" not in table and "dolphin" not in json.dumps(table["hands"])
    assert json.loads(json.dumps(table)) == table          # plain data


def test_during_the_setup_nothing_is_on_the_board_before_its_step(profile):
    """Preparação do Jogo: serpents go on the board at step 1, boats at step 8."""
    state, _ = start(new_state(setup_of(profile, 3)))
    table = view(state)
    assert table["boats"] == {"board": 0, "supply": 6, "gone": 0, "to_place": 6}
    assert table["creatures"]["serpent"] == {"board": 0, "supply": 0, "gone": 0, "to_place": 5}
    state, _ = play(state, {"type": "setup", "step": 1})
    assert view(state)["creatures"]["serpent"]["board"] == 5 and view(state)["boats"]["board"] == 0
    state, _ = play(state, *({"type": "setup", "step": n} for n in range(2, 8)))
    assert view(state)["boats"] == {"board": 0, "supply": 6, "gone": 0, "to_place": 6}     # step 8 still to do
    state, _ = play(state, {"type": "setup", "step": 8})
    assert view(state)["boats"] == {"board": 6, "supply": 6, "gone": 0, "to_place": 0}
