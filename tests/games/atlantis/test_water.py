"""Water: a gap costs the lower tile beside it, gaps add up, bridges are free and grow.

The pattern path: space p shows colour (p-1) % 7 and value (p-1) % 7 + 1, so
10 is 3, 12 is 5, 13 is 6, 14 is green 7.
"""

import copy

import pytest

from companion.games.atlantis import RuleError, apply, expected, options
from companion.games.atlantis.path import space
from companion.games.atlantis.water import crossing_cost, flood, gaps

from .conftest import COLOURS, drown, give, hand, laid, place

GREEN, YELLOW = COLOURS[6], COLOURS[5]
TO_14 = {"type": "move", "citizen": 0, "cards": [GREEN], "bridge": None}   # from 9: green is at 14


def at_nine(*water, bridge=None):
    state = laid()
    place(state, 0, 0, 9)
    drown(state, *water)
    if bridge is not None:
        drown(state, bridge[0], bridge=bridge[1])
    return state


def test_a_gap_costs_the_lower_of_the_two_tiles_beside_it():
    state = at_nine(11, 12)           # between 10 (3) and 13 (6)
    assert [(g["first"], g["last"], g["cost"]) for g in gaps(state)][0] == (11, 12, 3)
    new, events = apply(state, TO_14)
    assert new["step"] == {"t": "pay", "owed": 3, "citizen": 0}
    assert events[-1] == {"key": "atlantis.owed", "params": {"seat": 0, "owed": 3, "split": [3]},
                          "rule": "Water"}
    assert expected(new)["context"]["owed"] == 3


def test_several_gaps_in_one_move_add_up():
    state = at_nine(11, 13)           # 10|11|12: 3 and 5 -> 3; 12|13|14: 5 and 7 -> 5
    assert crossing_cost(state, 9, 14) == 8


def test_a_bridged_gap_is_free_for_everybody():
    state = at_nine(11, bridge=(13, 1))   # Bia's bridge on 13
    assert crossing_cost(state, 9, 14) == 3


def test_water_joined_to_atlantis_or_the_mainland_costs_nothing():
    state = laid()
    drown(state, 1, 2, 52, 53)
    # only the water tile laid in the middle is a gap: 26 (5) | 27 | 28 (7)
    assert [(g["first"], g["last"], g["cost"]) for g in gaps(state)] == [(27, 27, 5)]
    assert crossing_cost(state, 0, 54) == 5


def test_a_bridge_goes_on_a_gap_the_move_crosses_and_saves_its_cost():
    state = at_nine(11, 13)
    assert [o["bridge"] for o in options(state)
            if o["type"] == "move" and o["cards"] == [GREEN] and o["citizen"] == 0] == [13]   # 3 cards left
    give(state, 0, 7)
    moves = [o for o in options(state) if o["type"] == "move" and o["cards"] == [GREEN]
             and o["citizen"] == 0]
    assert [o["bridge"] for o in moves] == [None, 11, 13]
    new, events = apply(state, dict(TO_14, bridge=13))
    assert new["bridge_built"][0] and space(new, 13)["bridge"] == 0
    assert new["step"]["owed"] == 3
    assert events[0]["key"] == "atlantis.bridge" and events[0]["params"]["saved"] == 5


def test_any_water_space_of_the_gap_names_it():
    state = at_nine(11, 12)
    new, _ = apply(state, dict(TO_14, bridge=12))
    assert space(new, 11)["bridge"] == space(new, 12)["bridge"] == 0
    assert new["step"]["t"] != "pay"


def test_one_bridge_per_player():
    state = at_nine(11)
    state["bridge_built"][0] = True
    with pytest.raises(RuleError) as refused:
        apply(state, dict(TO_14, bridge=11))
    assert refused.value.key == "atlantis.no_bridge_left"


def test_no_bridge_on_a_gap_the_move_does_not_cross():
    state = at_nine(11, 20)
    with pytest.raises(RuleError) as refused:
        apply(state, dict(TO_14, bridge=20))
    assert refused.value.key == "atlantis.bridge_not_crossed"


def test_a_bridge_lengthens_over_a_space_flooded_beside_it_and_joins_the_next_gap():
    state = laid()
    drown(state, 11, bridge=1)
    drown(state, 13)
    space(state, 12)["tiles"] = []
    events = []
    flood(state, 12, events)
    assert [space(state, p)["bridge"] for p in (11, 12, 13)] == [1, 1, 1]
    assert [e["key"] for e in events] == ["atlantis.flooded", "atlantis.bridge_longer"]
    assert gaps(state)[0]["cost"] == 0


def test_taking_the_tile_beside_a_bridge_lengthens_it():
    state = laid()
    place(state, 0, 0, 10)
    drown(state, 11, bridge=1)
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [YELLOW], "bridge": None})
    assert new["citizens"][0][0] == 13
    assert "12.1" in new["held"][0]
    assert space(new, 12)["tiles"] == [] and space(new, 12)["bridge"] == 1
    assert "atlantis.bridge_longer" in [e["key"] for e in events]


def test_a_move_the_player_cannot_pay_for_is_not_offered():
    state = at_nine(11, 13)           # 8 to pay
    hand(state, 0, 3)                 # 2 cards left after the move, no tiles
    assert TO_14 not in options(state)
    with pytest.raises(RuleError) as refused:
        apply(state, TO_14)
    assert refused.value.key == "atlantis.cannot_afford"
    give(state, 0, 6)
    assert TO_14 in options(state)


# Paying

def owing(owed_gaps=(11,), tiles=(), cards=4):
    state = at_nine(*owed_gaps)
    ids = give(state, 0, *tiles)
    hand(state, 0, cards)
    state, _ = apply(state, TO_14)
    return state, ids


def test_pay_with_tiles_and_cards():
    state, ids = owing((11, 13), tiles=(5, 1))           # owes 8
    new, events = apply(state, {"type": "pay", "tiles": ids, "cards": 2})
    assert events[0]["key"] == "atlantis.pay" and events[0]["params"]["paid"] == 8
    assert new["spent"][-2:] == ids and new["cards"][0]["paid"] == 2
    assert all(t not in new["held"][0] for t in ids)


def test_overpaying_is_allowed_and_reported():
    state, ids = owing((11,), tiles=(6,))               # owes 3, holds only a 6
    new, events = apply(state, {"type": "pay", "tiles": ids})
    assert events[0]["key"] == "atlantis.pay/over"
    assert events[0]["params"] == {"seat": 0, "tiles": ids, "faces": [{"colour": COLOURS[0], "value": 6}], "cards": 0,
                                   "paid": 6, "owed": 3, "over": 3}


@pytest.mark.parametrize("payment,key", [
    ({"tiles": [], "cards": 2}, "atlantis.pay_short"),
    ({"tiles": ["1.1"], "cards": 3}, "atlantis.not_your_tile"),
    ({"tiles": [], "cards": 9}, "atlantis.pay_cards"),
])
def test_a_bad_payment_is_refused_and_changes_nothing(payment, key):
    state, _ = owing((11,), cards=4)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as refused:
        apply(state, dict(payment, type="pay"))
    assert refused.value.key == key
    assert state == before


def test_the_same_tile_cannot_pay_twice():
    state, ids = owing((11,), tiles=(2,))
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "pay", "tiles": ids * 2})
    assert refused.value.key == "atlantis.pay_repeat"
