"""All 15 tiles' effects, each when it works, when its roll fails, and when it cannot be done (R3)."""

import pytest

from .conftest import find, keys, pick, play, roll, table, take

GATES = [1, 2, 3, 4, 5, 6, 6]


def visit(profile, tile, area, **kw):
    district = {"J": "jeweller", "L": "library", "I": "inn", "E": "works", "B": "blacksmith"}[tile[0]]
    tops = {district: tile, **kw.pop("tops", {})}
    return table(profile, 3, dice=kw.pop("dice", GATES), tops=tops, **kw)


@pytest.mark.parametrize("value,extra", [(1, 1), (3, 1), (5, 1), (2, 0), (4, 0), (6, 0)])
def test_j_odd_takes_one_more_gem_on_odd(profile, value, extra):
    game = visit(profile, "J-odd", "jeweller")
    play(game, pick("jeweller"), take("gem"), roll(value))
    if extra:
        assert game.expected()["kind"] == "resource"
        play(game, take("gem"))
    assert game.state["stocks"][0]["gem"] == 1 + extra
    assert game.expected()["kind"] == "pick"


def test_j_swap_options_include_like_for_like_not_market_or_depleted(profile):
    # R17: "one resource of any kind" allows a Gem for a Gem.
    game = visit(profile, "J-swap", "jeweller", depleted=["tool"], districts={"jeweller": {"gem": 7, "book": 1}})
    play(game, pick("jeweller"), take("gem"))
    options = game.expected()["options"]
    assert {o["district"] for o in options} == {"library", "inn", "blacksmith"}  # not works (depleted), not market
    assert {"type": "swap", "give": "book", "district": "library", "take": "book"} in options
    assert {"type": "swap", "give": "gem", "district": "library", "take": "book"} in options


def test_a_like_for_like_swap_leaves_the_table_as_it_is(profile):
    game = visit(profile, "J-swap", "jeweller", districts={"jeweller": {"gem": 7, "book": 1}})
    play(game, pick("jeweller"), take("gem"))
    before = {d: dict(x["resources"]) for d, x in game.state["districts"].items()}
    events = play(game, {"type": "swap", "give": "book", "district": "library", "take": "book"})
    assert find(events, "effect.swap")[0]["params"] == {"give": "book", "district": "library", "take": "book"}
    assert {d: x["resources"] for d, x in game.state["districts"].items()} == before


def test_j_visit_roll_not_six_does_nothing(profile):
    game = visit(profile, "J-visit", "jeweller")
    events = play(game, pick("jeweller"), take("gem"), roll(5))
    assert find(events, "effect.roll")[0]["params"]["success"] is False
    assert game.expected()["kind"] == "pick"


def test_j_visit_chain_visits_a_district_with_its_effect_and_submarine(profile):
    # R4: the second roll sends the player for a full visit (resource, Submarine, effect), no die needed.
    game = visit(profile, "J-visit", "jeweller", submarine="blacksmith",
                 tops={"jeweller": "J-visit", "blacksmith": "B-six"})
    play(game, pick("jeweller"), take("gem"), roll(6), roll(5))
    assert game.expected()["context"] == {"area": "blacksmith", "reason": "chained", "tile": "B-six"}
    play(game, take("weapon"))
    assert game.expected()["context"]["reason"] == "submarine"
    play(game, take("weapon"), roll(6))
    assert game.expected()["context"]["area"] == "market"
    play(game, take("tool"))
    assert game.state["stocks"][0] == {"gem": 1, "book": 0, "provision": 0, "tool": 1, "weapon": 2}
    assert sorted(game.state["dice"]) == [2, 3, 4, 5, 6, 6]  # the chained visit took no die


def test_j_visit_to_a_depleted_district_goes_to_the_black_market(profile):
    game = visit(profile, "J-visit", "jeweller", depleted=["book"])
    play(game, pick("jeweller"), take("gem"), roll(6), roll(2))
    assert game.expected()["context"]["area"] == "market"


def test_j_visit_can_chain_into_j_visit_again(profile):
    game = visit(profile, "J-visit", "jeweller")
    play(game, pick("jeweller"), take("gem"), roll(6), roll(1), take("gem"), roll(6), roll(6), take("book"))
    assert game.state["stocks"][0] == {"gem": 2, "book": 1, "provision": 0, "tool": 0, "weapon": 0}
    assert game.expected()["kind"] == "pick"


@pytest.mark.parametrize("value", [5, 6])
def test_l_high_takes_from_another_district_on_five_or_six(profile, value):
    game = visit(profile, "L-high", "library")
    play(game, pick("library"), take("book"), roll(value))
    options = game.expected()["options"]
    assert {o["area"] for o in options} == {"jeweller", "inn", "works", "blacksmith"}
    play(game, {"type": "take_from", "area": "inn", "resource": "provision"})
    assert game.state["stocks"][0]["provision"] == 1


def test_l_high_low_roll_does_nothing(profile):
    game = visit(profile, "L-high", "library")
    play(game, pick("library"), take("book"), roll(4))
    assert game.expected()["kind"] == "pick"


def test_l_market_moves_one_from_the_library_to_the_black_market(profile):
    game = visit(profile, "L-market", "library")
    play(game, pick("library"), take("book"))
    assert game.expected()["options"] == [{"type": "move", "resource": "book", "to": "market"}]
    play(game, {"type": "move", "resource": "book", "to": "market"})
    assert game.state["districts"]["library"]["resources"]["book"] == 5
    assert game.state["market"]["book"] == 4


def test_l_second_only_on_the_second_die_of_the_round(profile):
    # R5: counted per recipient. Seat 0's first die: nothing; its second die: one more Book.
    game = visit(profile, "L-second", "library", dice=[2, 2, 3, 4, 5, 6, 6], submarine="market")
    events = play(game, pick("library"), take("book"))
    assert find(events, "effect.not_second")[0]["rule"] == "R5"
    play(game, pick("inn"), take("provision"), roll(6))  # Bruno, I-clock fails
    play(game, pick("works"), take("tool"), {"type": "submarine", "area": "inn"})  # Eric
    events = play(game, pick("library"), take("book"))
    assert game.expected()["context"]["reason"] == "L-second"
    play(game, take("book"))
    assert game.state["stocks"][0]["book"] == 3


@pytest.mark.parametrize("value,moves", [(1, 1), (4, 1), (5, 0), (6, 0)])
def test_i_clock_moves_the_hand_without_event(profile, value, moves):
    # R9: the space reached by the Inn triggers nothing, even a Survey (space 3 here).
    game = visit(profile, "I-clock", "inn", clock=2)
    events = play(game, pick("inn"), take("provision"), roll(value))
    assert game.state["clock"] == 2 + moves
    assert not find(events, "survey.result")
    assert game.state["tokens"] == [0, 0, 0]


def test_i_supply_moves_from_the_black_market_to_another_district_not_the_inn(profile):
    game = visit(profile, "I-supply", "inn")
    play(game, pick("inn"), take("provision"))
    options = game.expected()["options"]
    assert {o["to"] for o in options} == {"jeweller", "library", "works", "blacksmith"}
    play(game, {"type": "move", "resource": "gem", "to": "blacksmith"})
    assert game.state["market"]["gem"] == 2
    assert game.state["districts"]["blacksmith"]["resources"]["gem"] == 1


def test_i_change_changes_a_die_and_moves_it(profile):
    game = visit(profile, "I-change", "inn")
    play(game, pick("inn"), take("provision"))
    options = game.expected()["options"]
    assert {"type": "change_die", "from": 6, "to": 2} in options
    assert all(o["from"] != o["to"] for o in options) and all(o["from"] != 3 for o in options)
    events = play(game, {"type": "change_die", "from": 6, "to": 2})
    assert sorted(game.state["dice"]) == [1, 2, 2, 4, 5, 6]
    params = find(events, "effect.change_die")[0]["params"]
    assert (params["source"], params["to"]) == ("market", "library")


@pytest.mark.parametrize("tile", ["E1", "E2", "E3"])
def test_engineering_works_moves_the_submarine_away(profile, tile):
    game = visit(profile, tile, "works", submarine="inn")
    play(game, pick("works"), take("tool"))
    assert game.expected()["kind"] == "submarine"
    areas = {o["area"] for o in game.expected()["options"]}
    assert "inn" not in areas and len(areas) == 5


def test_submarine_moved_to_the_visited_area_gives_nothing_more(profile):
    game = visit(profile, "E1", "works", submarine="market")
    events = play(game, pick("works"), take("tool"), {"type": "submarine", "area": "works"})
    assert game.state["stocks"][0]["tool"] == 1
    assert game.expected()["kind"] == "pick"


def test_submarine_cannot_go_to_a_depleted_district(profile):
    # R13
    game = visit(profile, "E1", "works", depleted=["gem"], submarine="market")
    play(game, pick("works"), take("tool"))
    assert "jeweller" not in {o["area"] for o in game.expected()["options"]}


@pytest.mark.parametrize("value,extra", [(2, 1), (4, 1), (6, 1), (1, 0), (3, 0), (5, 0)])
def test_b_even(profile, value, extra):
    game = visit(profile, "B-even", "blacksmith")
    play(game, pick("blacksmith"), take("weapon"), roll(value))
    if extra:
        play(game, take("weapon"))
    assert game.state["stocks"][0]["weapon"] == 1 + extra


def test_b_move_to_another_district(profile):
    game = visit(profile, "B-move", "blacksmith")
    play(game, pick("blacksmith"), take("weapon"))
    assert {o["to"] for o in game.expected()["options"]} == {"jeweller", "library", "inn", "works"}
    play(game, {"type": "move", "resource": "weapon", "to": "inn"})
    assert game.state["districts"]["inn"]["resources"]["weapon"] == 1


@pytest.mark.parametrize("value,extra", [(6, 1), (5, 0)])
def test_b_six_takes_from_the_black_market(profile, value, extra):
    game = visit(profile, "B-six", "blacksmith")
    play(game, pick("blacksmith"), take("weapon"), roll(value))
    if extra:
        assert game.expected()["context"]["area"] == "market"
        play(game, take("book"))
    assert game.state["stocks"][0]["book"] == extra


def test_black_market_has_no_effect_and_submarine_bonus_there(profile):
    game = visit(profile, "J-odd", "jeweller", submarine="market")
    events = play(game, pick("market"), take("gem"), take("book"))
    assert "effect.market" in keys(events)
    assert game.state["stocks"][0]["gem"] == 1 and game.state["stocks"][0]["book"] == 1


def test_submarine_bonus_skipped_when_nothing_is_left(profile):
    game = visit(profile, "L-second", "library", submarine="library", districts={"library": {"book": 1}})
    events = play(game, pick("library"), take("book"))
    skipped = find(events, "visit.nothing_to_take")
    assert skipped and skipped[0]["params"]["reason"] == "submarine"


def test_effect_that_cannot_be_carried_out_is_skipped_with_reason(profile):
    # R3: B-move with nothing left on the Blacksmith after the visit.
    game = visit(profile, "B-move", "blacksmith", districts={"blacksmith": {"weapon": 1}})
    events = play(game, pick("blacksmith"), take("weapon"))
    skipped = find(events, "effect.skipped")
    assert skipped and skipped[0]["rule"] == "R3"


def test_effect_that_can_be_carried_out_must_be(profile):
    # R3: no "pass" option is offered for an effect that can be done.
    game = visit(profile, "B-move", "blacksmith")
    play(game, pick("blacksmith"), take("weapon"))
    assert all(o["type"] == "move" for o in game.expected()["options"])


def test_i_change_must_move_the_die_to_another_area(profile):
    # R17: with Books depleted, a 6 turned into a 2 would stay at the Black Market.
    game = visit(profile, "I-change", "inn", depleted=["book"], submarine="market")
    play(game, pick("inn"), take("provision"))
    options = game.expected()["options"]
    assert {"type": "change_die", "from": 6, "to": 2} not in options
    assert {"type": "change_die", "from": 6, "to": 1} in options


def test_same_kind_only_swap_is_skipped_naming_r17(profile):
    game = visit(profile, "J-swap", "jeweller", submarine="market",
                 districts={"jeweller": {"gem": 3}, "library": {"gem": 4}, "inn": {}, "works": {},
                            "blacksmith": {}},
                 market={"gem": 3, "book": 10, "provision": 10, "tool": 10, "weapon": 10})
    events = play(game, pick("jeweller"), take("gem"))
    skipped = find(events, "effect.skipped")
    assert skipped and skipped[0]["rule"] == "R17"


def test_inn_at_the_end_does_not_claim_to_move(profile):
    end = len(profile["track"]) - 1
    game = visit(profile, "I-clock", "inn", dice=[3, 3, 1, 2, 4, 5, 6], submarine="market", clock=end - 1)
    play(game, pick("inn"), take("provision"), roll(1))
    events = play(game, pick("inn"), take("provision"), roll(2))
    assert keys(events).count("clock.inn") == 0 and "clock.inn_at_end" in keys(events)
    assert game.state["clock"] == end
