"""The public table: counts anyone at the table may see, never the kind of a held tile."""

import json

from companion.games.survive import view

from .conftest import fresh, play


def test_the_view_shows_counts_and_odds_but_not_what_a_hand_holds(profile):
    state, _ = play(fresh(profile, 3), {"type": "done"}, {"type": "remove", "terrain": "beach"},
                    {"type": "reveal", "back": "red"})
    table = view(state)
    assert table["hands"] == [1, 0, 0]
    assert table["terrain_left"] == {"beach": 15, "forest": 16, "mountain": 8}
    assert table["volcano_under_one_of"] == 8
    assert table["boats"] == {"board": 6, "supply": 6, "gone": 0}
    assert table["creatures"]["serpent"] == {"board": 5, "supply": 0, "gone": 0}
    assert table["profile_confirmed"] is False
    assert "revealed" not in table and "dolphin" not in json.dumps(table["hands"])
    assert json.loads(json.dumps(table)) == table          # plain data
