"""Players' records on known games: shared wins, merged names, unfinished games, the lines a game adds."""

import pytest

from companion.history.players import MergeError, check_merge, name_key, player_of, records

from .conftest import summary


def by_name(recs):
    return {r["name"]: r for r in recs}


def test_the_same_name_is_the_same_player_across_games():
    recs = by_name(records([summary(["Ana", "Bruno"], [20, 15], [0], gid=1),
                            summary(["Bruno", "ana "], [18, 22], [1], gid=2)]))
    assert set(recs) == {"ana", "Bruno"}          # the spelling used last, spaces trimmed
    ana = recs["ana"]
    assert ana["spellings"] == ["Ana", "ana "]
    line = ana["games"]["atlandice"]
    assert (line["played"], line["wins"], line["best"], line["average"]) == (2, 2, 22, 21.0)
    assert recs["Bruno"]["games"]["atlandice"]["wins"] == 0


def test_a_shared_win_is_a_win_counted_as_shared():
    recs = by_name(records([summary(["Ana", "Bruno", "Eric"], [20, 20, 9], [0, 1], gid=1),
                            summary(["Ana", "Bruno", "Eric"], [25, 20, 9], [0], gid=2)]))
    assert recs["Ana"]["games"]["atlandice"]["wins"] == 2
    assert recs["Ana"]["games"]["atlandice"]["shared_wins"] == 1
    assert recs["Bruno"]["games"]["atlandice"]["wins"] == 1
    assert recs["Bruno"]["games"]["atlandice"]["shared_wins"] == 1
    assert recs["Eric"]["games"]["atlandice"]["wins"] == 0


def test_unfinished_games_count_apart_and_score_nothing():
    recs = by_name(records([summary(["Ana", "Bruno"], [30, 2], [], over=False, gid=1),
                            summary(["Ana", "Bruno"], [10, 12], [1], gid=2)]))
    line = recs["Ana"]["games"]["atlandice"]
    assert (line["played"], line["unfinished"], line["best"], line["scores"]) == (1, 1, 10, [10])


def test_merged_spellings_are_one_player():
    games = [summary(["Ana", "Bruno"], [20, 15], [0], gid=1),
             summary(["Anna", "Bruno"], [12, 15], [1], gid=2),
             summary(["Annah", "Bruno"], [30, 15], [0], gid=3)]
    separate = by_name(records(games))
    assert {"Ana", "Anna", "Annah", "Bruno"} == set(separate)
    merged = by_name(records(games, {name_key("Anna"): "Ana", name_key("Annah"): "Anna"}))
    assert set(merged) == {"Ana", "Bruno"}
    line = merged["Ana"]["games"]["atlandice"]
    assert (line["played"], line["wins"], line["best"], line["scores"]) == (3, 2, 30, [20, 12, 30])
    assert merged["Ana"]["spellings"] == ["Ana", "Anna", "Annah"]


def test_a_name_merged_into_a_spelling_that_never_played_takes_that_spelling():
    recs = records([summary(["anna", "Bruno"], [20, 15], [0])], {"anna": "Ana"})
    assert by_name(recs)["Ana"]["spellings"] == ["anna"]


def test_merges_that_would_loop_or_do_nothing_are_refused():
    aliases = {"anna": "Ana"}
    with pytest.raises(MergeError) as exc:
        check_merge(aliases, "Ana", "Anna")       # already one player: Anna is Ana
    assert exc.value.key == "merge_same"
    with pytest.raises(MergeError):
        check_merge(aliases, "  ", "Ana")
    assert check_merge(aliases, "  Bia ", "Ana  Maria") == ("bia", "Ana Maria")
    assert player_of("x", {"x": "Y", "y": "X"}) in ("x", "y")     # a loop in the table ends


def test_games_of_the_shelf_are_counted_apart():
    recs = by_name(records([summary(["Ana", "Bruno"], [20, 15], [0], gid=1),
                            summary(["Ana", "Bruno"], [4, 9], [1], game="survive", gid=2)]))
    assert recs["Ana"]["games"]["atlandice"]["wins"] == 1
    assert recs["Ana"]["games"]["survive"]["wins"] == 0
    assert recs["Ana"]["games"]["survive"]["best"] == 4


def test_the_lines_a_game_adds_are_summed_over_finished_games():
    stock = {"gem": 4, "book": 0, "provision": 1, "tool": 0, "weapon": 2}
    extra = [{"stock": stock, "tiles": {"J-odd": 1, "E1": 1}}, {"stock": dict(stock, gem=0), "tiles": {}}]
    recs = by_name(records([summary(["Ana", "Bruno"], [20, 15], [0], gid=1, extra=extra),
                            summary(["Ana", "Bruno"], [20, 15], [0], gid=2,
                                    extra=[{"stock": dict(stock, gem=0), "tiles": {"J-odd": 1}}, extra[1]]),
                            summary(["Ana", "Bruno"], [20, 15], [0], gid=3, over=False,
                                    extra=[{"stock": dict(stock, gem=9), "tiles": {"E1": 1}}, extra[1]])]))
    line = recs["Ana"]["games"]["atlandice"]
    assert line["played"] == 2 and line["unfinished"] == 1       # an unfinished game adds nothing
    assert line["extra"] == {"stock": {"gem": 4, "book": 0, "provision": 2, "tool": 0, "weapon": 4},
                             "tiles": {"J-odd": 2, "E1": 1}}
    assert recs["Bruno"]["games"]["atlandice"]["extra"]["tiles"] == {}
