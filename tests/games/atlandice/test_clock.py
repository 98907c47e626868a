"""The clock: moves, Survey, Donation, the Inn at the end (R9), and the end of the game."""

import pytest

from companion.games.atlandice.survey import survey_counts, survey_winners

from .conftest import find, keys, pick, play, table, take


def last_pick(profile, remaining, clock, players=3, **kw):
    """One pick left in the round: the picker takes the market 6, `remaining` stays."""
    order_len = 6 if players == 3 else (8 if players == 4 else 6)
    return table(profile, players, dice=sorted([6, remaining]), picks_done=order_len - 1, clock=clock,
                 submarine=kw.pop("submarine", "inn"), **kw)


def test_clock_moves_by_the_icons_of_the_last_die_area(profile):
    game = last_pick(profile, 2, clock=0, tops={"library": "L-high"})
    events = play(game, pick("market"), take("gem"))
    assert game.state["clock"] == profile["icons"]["L-high"]
    assert find(events, "clock.move")[0]["params"]["tile"] == "L-high"
    assert game.expected()["kind"] == "gate_roll"
    assert game.state["round"] == 2 and game.state["first"] == 1


def test_last_die_at_the_market_uses_the_market_icons(profile):
    game = table(profile, 3, dice=[6, 6], picks_done=5, submarine="inn")
    play(game, pick("market"), take("gem"))
    assert game.state["clock"] == profile["icons"]["market"]


def test_survey_of_one_resource_ties_all_score(profile):
    # Space 3 is a Survey of Gems in the default profile.
    assert profile["track"][3] == "survey:gem"
    game = last_pick(profile, 2, clock=3 - profile["icons"]["L-high"], tops={"library": "L-high"},
                     stocks={0: {"gem": 1}, 1: {"gem": 2}, 2: {"gem": 2}}, districts={"jeweller": {"gem": 3}})
    events = play(game, pick("market"), take("book"))
    survey = find(events, "survey.result")[0]["params"]
    assert survey["winners"] == [1, 2] and game.state["tokens"] == [0, 1, 1]
    # Stocks are kept after a Survey.
    assert game.state["stocks"][1]["gem"] == 2


def test_survey_nobody_holding_any_scores_nobody(profile):
    game = last_pick(profile, 2, clock=3 - profile["icons"]["L-high"], tops={"library": "L-high"})
    events = play(game, pick("market"), take("book"))
    assert find(events, "survey.result")[0]["rule"] == "R7" and game.state["tokens"] == [0, 0, 0]


def test_survey_total_and_counts():
    stocks = [{"gem": 1, "book": 2, "provision": 0, "tool": 0, "weapon": 0},
              {"gem": 3, "book": 0, "provision": 0, "tool": 0, "weapon": 0}]
    assert survey_counts(stocks, "total", []) == [3, 3]
    assert survey_winners(survey_counts(stocks, "total", [])) == [0, 1]
    assert survey_counts(stocks, "total", ["gem"]) == [2, 0]
    assert survey_counts(stocks, "gem", ["gem"]) == [0, 0]


def test_survey_of_a_depleted_resource_scores_nothing(profile):
    game = last_pick(profile, 2, clock=3 - profile["icons"]["L-high"], tops={"library": "L-high"},
                     depleted=["gem"])
    events = play(game, pick("market"), take("book"))
    assert "survey.depleted" in keys(events) and game.state["tokens"] == [0, 0, 0]


def test_donation_pairs_in_turn_order_and_back_to_their_districts(profile):
    game = last_pick(profile, 2, clock=5 - profile["icons"]["L-high"], tops={"library": "L-high"}, first=1,
                     stocks={0: {"gem": 1, "tool": 1}, 1: {"book": 3}, 2: {"weapon": 1}})
    play(game, pick("market"), take("gem"))   # seat 0 picks last (order 1,2,0,1,2,0)
    prompt = game.expected()
    assert prompt["kind"] == "donate" and prompt["seat"] == 1
    assert {"type": "donate", "pair": ["book", "book"]} in prompt["options"]
    before_library = game.state["districts"]["library"]["resources"]["book"]
    events = play(game, {"type": "donate", "pair": ["book", "book"]})
    # Bruno holds one Book now: no pair left, his turn ends; Eric holds one Weapon: skipped too.
    assert [e["params"]["seat"] for e in find(events, "donation.cannot")] == [1, 2]
    assert game.state["tokens"][1] == 1
    assert game.state["districts"]["library"]["resources"]["book"] == before_library + 2
    prompt = game.expected()
    assert prompt["kind"] == "donate" and prompt["seat"] == 0
    assert {"type": "donate", "pair": None} in prompt["options"]
    jeweller = game.state["districts"]["jeweller"]["resources"]["gem"]
    play(game, {"type": "donate", "pair": ["gem", "tool"]})
    assert game.state["districts"]["jeweller"]["resources"]["gem"] == jeweller + 1
    assert game.state["tokens"][0] == 1 and game.expected()["kind"] == "gate_roll"


def test_donation_of_a_depleted_resource_leaves_the_game(profile):
    # R10 can only bite through a position typed in mid-donation; the resource is then simply removed.
    from companion.games.atlandice.clock import resolve_donate
    state = {"stocks": [{"gem": 2, "book": 0, "provision": 0, "tool": 0, "weapon": 0}], "depleted": ["gem"],
             "districts": {"jeweller": {"resources": {"gem": 0}}}, "tokens": [0], "pending": []}
    resolve_donate(state, {"t": "donate", "seat": 0}, {"pair": ["gem", "gem"]}, [])
    assert state["stocks"][0]["gem"] == 0 and state["districts"]["jeweller"]["resources"]["gem"] == 0
    assert state["tokens"] == [1]


def test_neutral_player_does_not_donate(profile):
    # R15
    game = table(profile, 2, dice=[2, 6], picks_done=5, clock=5 - profile["icons"]["L-high"],
                 tops={"library": "L-high"}, submarine="inn", given=[True, True],
                 stocks={0: {"gem": 2}, 1: {"gem": 2}, 2: {"book": 4}},
                 districts={"jeweller": {"gem": 3}, "library": {"book": 3}})
    play(game, pick("market"), take("gem"))
    seats = []
    while game.expected()["kind"] == "donate":
        seats.append(game.expected()["seat"])
        play(game, {"type": "donate", "pair": None})
    assert seats == [0, 1]


def test_reaching_the_end_space_ends_the_game(profile):
    end = len(profile["track"]) - 1
    game = last_pick(profile, 2, clock=end - 1, tops={"library": "L-high"}, stocks={0: {"gem": 1}})
    events = play(game, pick("market"), take("gem"))
    assert game.state["clock"] == end and game.state["over"]
    assert game.expected()["kind"] == "over"
    assert "final.winners" in keys(events)


def test_inn_reaching_the_end_finishes_the_visits_then_ends(profile):
    # R9: the round goes on to the end of step 2; step 3 is skipped.
    end = len(profile["track"]) - 1
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], clock=end - 1, tops={"inn": "I-clock"}, submarine="market")
    events = play(game, pick("inn"), take("provision"), {"type": "roll", "value": 2})
    assert game.state["clock"] == end and not game.state["over"]
    assert "clock.end_after_visits" in keys(events)
    play(game, pick("jeweller"), take("gem"), {"type": "roll", "value": 2})  # Bruno: J-odd fails
    for _ in range(4):
        prompt = game.expected()
        assert prompt["kind"] == "pick"
        game.apply(prompt["options"][0])
        while game.expected()["kind"] not in ("pick", "over"):
            p = game.expected()
            game.apply(p["options"][0] if p["options"] else {"type": "roll", "value": 2})
    assert game.expected()["kind"] == "over"
    assert "clock.skipped" in [e["key"] for h in game.history for e in h["events"]]
    assert game.state["clock"] == end


@pytest.mark.parametrize("players,stocks,winners", [
    (2, {0: {"gem": 2}, 2: {"gem": 2}}, [0, 2]),            # the neutral player ties too (R19)
    (3, {0: {"gem": 1}, 1: {"gem": 1}, 2: {"gem": 1}}, [0, 1, 2]),
    (4, {1: {"gem": 3}, 3: {"gem": 3}, 0: {"gem": 1}}, [1, 3]),
])
def test_survey_ties_with_two_three_and_four_players(profile, players, stocks, winners):
    order_len = 8 if players == 4 else 6
    icons = profile["icons"]["L-high"]
    game = table(profile, players, dice=[2, 6], picks_done=order_len - 1, clock=3 - icons,
                 tops={"library": "L-high"}, submarine="inn", stocks=stocks, districts={"jeweller": {"gem": 2}},
                 given=[True, True] if players == 2 else None)
    play(game, pick("market"), take("book"))
    tokens = game.state["tokens"]
    assert [s for s, n in enumerate(tokens) if n] == winners
