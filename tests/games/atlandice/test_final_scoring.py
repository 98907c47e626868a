"""Final scoring: majorities per resource with ties, tiles, tokens, winners (R7, R11)."""

from companion.games.atlandice.final_scoring import final_scoring

R = ("gem", "book", "provision", "tool", "weapon")


def stocks(*rows):
    return [dict(zip(R, row)) for row in rows]


def test_most_three_second_one_and_totals():
    result = final_scoring(stocks((3, 0, 0, 0, 0), (1, 0, 0, 0, 0), (0, 0, 0, 0, 0)), [1, 0, 0], [2, 0, 5], 3)
    gem = result["resources"]["gem"]
    assert gem["first"] == [0] and gem["second"] == [1] and gem["points"] == [3, 1, 0]
    assert result["tile_points"] == [3, 0, 0]
    assert result["total"] == [3 + 3 + 2, 1, 5]
    assert result["winners"] == [0]


def test_tie_for_first_all_take_three_and_no_second():
    result = final_scoring(stocks((2, 0, 0, 0, 0), (2, 0, 0, 0, 0), (1, 0, 0, 0, 0), (0, 0, 0, 0, 0)),
                           [0] * 4, [0] * 4, 4)
    gem = result["resources"]["gem"]
    assert gem["points"] == [3, 3, 0, 0] and gem["second"] == [] and gem["tied"]


def test_tie_for_second_all_take_one():
    result = final_scoring(stocks((0, 5, 0, 0, 0), (0, 2, 0, 0, 0), (0, 2, 0, 0, 0)), [0] * 3, [0] * 3, 3)
    assert result["resources"]["book"]["points"] == [3, 1, 1]


def test_zero_is_not_a_majority():
    # R7: nobody holds Tools: nobody scores them; one holder of Weapons: no second place from zeros.
    result = final_scoring(stocks((0, 0, 0, 0, 1), (0, 0, 0, 0, 0)), [0, 0], [0, 0], 2)
    assert result["resources"]["tool"]["points"] == [0, 0]
    assert result["resources"]["weapon"]["points"] == [3, 0]


def test_depleted_resources_score_nothing():
    result = final_scoring(stocks((4, 0, 0, 0, 0), (1, 0, 0, 0, 0)), [0, 0], [0, 0], 2, depleted=["gem"])
    assert result["resources"]["gem"]["depleted"] and result["total"] == [0, 0]


def test_tied_winners_share_the_win():
    result = final_scoring(stocks((1, 0, 0, 0, 0), (1, 0, 0, 0, 0), (0, 0, 0, 0, 0)), [0, 0, 1], [0, 0, 0], 3)
    assert result["total"] == [3, 3, 3] and result["winners"] == [0, 1, 2]


def test_neutral_player_counts_in_majorities_but_never_wins():
    # R11: seat 2 is the neutral player (2 humans).
    result = final_scoring(stocks((1, 0, 0, 0, 0), (0, 0, 0, 0, 0), (5, 5, 5, 5, 5)), [0, 0, 3], [1, 0, 9], 2)
    assert result["resources"]["gem"]["points"] == [1, 0, 3]
    assert result["total"][2] > result["total"][0]
    assert result["winners"] == [0]


def test_breakdown_adds_up():
    result = final_scoring(stocks((2, 1, 0, 3, 1), (2, 0, 4, 1, 1), (0, 3, 1, 0, 2), (1, 1, 1, 1, 1)),
                           [1, 2, 0, 1], [4, 0, 2, 3], 4)
    for seat in range(4):
        per_resource = sum(line["points"][seat] for line in result["resources"].values())
        assert per_resource == result["majority"][seat]
        assert result["total"][seat] == per_resource + result["tile_points"][seat] + result["tokens"][seat]
