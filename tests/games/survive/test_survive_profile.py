"""The default game profile (S3-S5): the split of the tile backs per terrain (S4)."""

from companion.games.survive.names import BOAT_TOKENS, BOATS_PER_COLOUR, CREATURE_TOKENS, TERRAIN_TILES
from companion.games.survive.profile import back_total

from .conftest import PACKAGE

# The split of a public implementation of the game whose totals match the box, as quoted in
# the issue (S4): unconfirmed until checked against a box.
CITED = {
    "beach": {"whale": 3, "shark": 3, "boat": 1, "dolphin": 3, "wind": 2, "move_serpent": 1, "move_shark": 1,
              "move_whale": 1, "repel_shark": 1},
    "forest": {"whale": 2, "shark": 2, "boat": 3, "whirlpool": 2, "dolphin": 1, "move_serpent": 1, "move_shark": 1,
               "move_whale": 1, "repel_shark": 1, "repel_whale": 2},
    "mountain": {"shark": 1, "whirlpool": 4, "volcano": 1, "repel_shark": 1, "repel_whale": 1},
}


def test_the_default_backs_are_the_cited_split(profile):
    for terrain, backs in profile["backs"].items():
        assert {k: n for k, n in backs.items() if n} == CITED[terrain], terrain
        assert sum(backs.values()) == TERRAIN_TILES[terrain]
    assert profile["confirmed"] is False
    text = (PACKAGE / "default_profile.toml").read_text(encoding="utf-8")
    assert "public implementation" in text and "Unconfirmed" in text


def test_the_default_backs_match_the_pieces_of_the_box(profile):
    """6 sharks and 5 whales aside at setup; 4 boats aside with four colours (Conteúdo)."""
    assert back_total(profile, "shark") == CREATURE_TOKENS["shark"] == 6
    assert back_total(profile, "whale") == CREATURE_TOKENS["whale"] == 5
    assert back_total(profile, "boat") == BOAT_TOKENS - 4 * BOATS_PER_COLOUR == 4
    assert back_total(profile, "volcano") == 1
