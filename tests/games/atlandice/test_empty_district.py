"""Empty District payouts: first, second, ties, R7, the refill, reveal and depletion (R6, R8, R13)."""

import pytest

from companion.games.atlandice.empty_district import payout, payout_by_name, tokens

from .conftest import find, keys, pick, play, table, take


@pytest.mark.parametrize("counts,first,second,tied,unclaimed", [
    ([3, 3, 1, 0], [0, 1], [], True, False),      # the book: tie for first, no second place
    ([4, 2, 2, 0], [0], [1, 2], False, False),    # tie for second: all tied take 1
    ([5, 1, 0], [0], [1], False, False),
    ([2, 0, 0], [0], [], False, False),           # R7: zero is not second place
    ([0, 0, 0, 0], [], [], False, True),          # R7: nobody holds any
    ([1, 1, 1], [0, 1, 2], [], True, False),
    ([0, 3], [1], [], False, False),
])
def test_payout_places(counts, first, second, tied, unclaimed):
    result = payout(counts)
    assert (result["first"], result["second"], result["tied"], result["unclaimed"]) == (first, second, tied, unclaimed)


def test_tokens_for_a_tie_for_first_go_to_the_others():
    result = payout([3, 3, 3, 1])
    assert tokens(result, 1) == {0: 3, 2: 3}
    assert tokens(payout([4, 2, 2, 0]), 0) == {1: 1, 2: 1}
    assert tokens(payout([0, 0]), None) == {}


def test_payout_by_name_for_the_check_page():
    out = payout_by_name({"Anna": 3, "Bruno": 3, "Eric": 1, "Lola": 0}, taker="Bruno")
    assert out["tile"] == "Bruno" and out["tokens"] == {"Anna": 3}
    with pytest.raises(ValueError):
        payout_by_name({"Anna": 3, "Eric": 1}, taker="Eric")
    assert payout_by_name({"A": 0, "B": 0})["rule"] == "R7"


def library_emptying(profile, players=3, **kw):
    """The Library holds one Book; seat 0 takes it (the L-second tile does nothing on a first die)."""
    kw.setdefault("tops", {"library": "L-second"})
    districts = {"library": {"book": 1}, **kw.pop("districts", {})}
    dice = kw.pop("dice", [2, 3, 4, 5, 6, 6, 1] if players < 4 else [2, 3, 4, 5, 6, 6, 1, 1, 3])
    return table(profile, players, dice=dice, districts=districts, submarine="market", **kw)


def test_single_first_takes_tile_and_seconds_take_one_each(profile):
    game = library_emptying(profile, 4, stocks={0: {"book": 3}, 1: {"book": 2}, 2: {"book": 2}})
    events = play(game, pick("library"), take("book"))
    assert game.state["tiles"][0] == ["L-second"]
    assert game.state["tokens"] == [0, 1, 1, 0]
    assert game.expected()["kind"] == "reveal"
    assert [e["params"]["place"] for e in find(events, "empty.tokens")] == ["second", "second"]


def test_nobody_holds_any_tile_set_aside_and_it_counts_towards_depletion(profile):
    # R7: seat 0 takes the last Book but... here the Library empties by L-market moving it away.
    game = table(profile, 3, dice=[2, 3, 4, 5, 6, 6, 1], tops={"library": "L-market"}, submarine="market",
                 districts={"library": {"gem": 1, "book": 1}})
    events = play(game, pick("library"), take("gem"), {"type": "move", "resource": "book", "to": "market"})
    assert find(events, "empty.unclaimed")[0]["rule"] == "R7"
    assert game.state["set_aside"] == ["L-market"] and game.state["tokens"] == [0, 0, 0]
    assert all(not t for t in game.state["tiles"])


def test_refill_fills_the_black_market_to_three_first(profile):
    game = library_emptying(profile, 3, stocks={0: {"book": 2}, 1: {"book": 1}},
                            market={"gem": 3, "book": 0, "provision": 3, "tool": 3, "weapon": 3},
                            districts={"inn": {"provision": 7, "book": 6}})
    play(game, pick("library"), take("book"), {"type": "reveal", "tile": "L-high"})
    # 4 Books come back (seat 0 had 2 + the one taken, seat 1 had 1): 3 to the market, 1 on the tile.
    assert game.state["market"]["book"] == 3
    assert game.state["districts"]["library"]["resources"]["book"] == 1
    assert game.state["districts"]["inn"]["resources"]["book"] == 6


def test_revealed_tile_with_nothing_is_checked_after_the_next_visit(profile):
    # R6: the one Book taken goes back to a market of 2; the new tile is empty, checked after the next visit.
    game = library_emptying(profile, 3, market={"gem": 3, "book": 2, "provision": 3, "tool": 3, "weapon": 3},
                            districts={"inn": {"provision": 7, "book": 7}})
    events = play(game, pick("library"), take("book"), {"type": "reveal", "tile": "L-high"})
    assert game.state["districts"]["library"]["resources"]["book"] == 0
    assert len(find(events, "empty.district")) == 1
    events = play(game, pick("inn"), take("provision"), {"type": "roll", "value": 6})
    # I-clock failed; after this visit the empty L-high is scored: nobody holds a Book (R7).
    assert find(events, "empty.unclaimed")
    assert game.state["set_aside"] == ["L-high"]
    assert game.state["districts"]["library"]["top"] == "L-market"  # the last tile: known, no question


def test_several_empty_districts_scored_in_order(profile):
    # R6: Jeweller (1) before Library (2). A J-visit chain empties the Library too (R14: checked once, after).
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], tops={"jeweller": "J-visit", "library": "L-second"},
                 submarine="market", districts={"jeweller": {"gem": 1}, "library": {"book": 1}},
                 stocks={1: {"gem": 1}})
    events = play(game, pick("jeweller"), take("gem"), {"type": "roll", "value": 6}, {"type": "roll", "value": 2},
                  take("book"))
    assert [e["params"]["district"] for e in find(events, "empty.district")] == ["jeweller"]
    assert game.expected()["kind"] == "tile_taker"  # Anna 1 Gem, Bruno 1 Gem: tied
    events = play(game, {"type": "tile_taker", "seat": 1}, {"type": "reveal", "tile": "J-odd"})
    assert [e["params"]["district"] for e in find(events, "empty.district")] == ["library"]
    assert game.state["tiles"][1] == ["J-visit"] and game.state["tokens"][0] == 3
    assert game.state["tiles"][0] == ["L-second"]


def test_third_tile_depletes_the_stack(profile):
    # R8: everything of that kind leaves, dice at that District go to the Black Market; R13 the Submarine stays.
    game = table(profile, 3, dice=[2, 2, 3, 4, 5, 6, 1], tops={"library": "L-second"}, below={"library": []},
                 tiles=[["L-high"], ["L-market"], []], submarine="library",
                 districts={"library": {"book": 1}, "inn": {"provision": 7, "book": 2}},
                 stocks={0: {"book": 1}, 1: {"book": 1}})
    events = play(game, pick("library"), take("book"))
    assert "empty.depleted" in keys(events)
    state = game.state
    assert state["depleted"] == ["book"] and state["districts"]["library"]["top"] is None
    assert state["market"]["book"] == 0 and state["districts"]["inn"]["resources"]["book"] == 0
    assert all(s["book"] == 0 for s in state["stocks"])
    assert state["submarine"] == "library"
    assert state["tiles"][0] == ["L-high", "L-second"]
    # The other "2" die now lies at the Black Market.
    areas = {o["area"] for o in game.expected()["options"]}
    assert "library" not in areas and "market" in areas
    assert find(events, "empty.depleted")[0]["params"]["dice_moved"] == 1


def test_gates_send_dice_of_a_depleted_district_to_the_market(profile):
    game = table(profile, 3, depleted=["book"])
    events = play(game, {"type": "gate_roll", "dice": [2, 2, 1, 3, 4, 5, 6]})
    opened = find(events, "gates.open")[0]
    assert opened["params"]["areas"]["market"] == 3 and "library" not in opened["params"]["areas"]
    assert opened["rule"] == "R8"


def test_a_tied_tile_names_r18(profile):
    game = library_emptying(profile, 3, stocks={0: {"book": 1}, 1: {"book": 2}})
    events = play(game, pick("library"), take("book"), {"type": "tile_taker", "seat": 1})
    tile = find(events, "empty.tile")[0]
    assert tile["rule"] == "R18" and tile["params"]["tied"]
