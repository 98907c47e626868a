"""The rest of a turn: the tile behind, buying cards, the lost turn, drawing."""

import copy

import pytest

from companion.games.atlantis import RuleError, apply, expected, normalize, options
from companion.games.atlantis.path import MAINLAND, space
from companion.games.atlantis.reach import good_sets, stuck_hand, sure_to_move

from .conftest import COLOURS, drown, give, hand, laid, place

BLUE, GREY, BROWN, PINK = COLOURS[:4]


def test_the_first_free_tile_behind_skips_water_bridges_and_occupied_tiles():
    state = laid()
    place(state, 0, 0, 11)
    place(state, 1, 0, 17)
    drown(state, 15, 16, bridge=1)
    # from 11 pink goes to 18; behind it 17 is occupied, 16 and 15 are a bridge: 14
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [PINK], "bridge": None})
    assert new["citizens"][0][0] == 18
    take = next(e for e in events if e["key"] == "atlantis.take")
    assert take["params"]["position"] == 14


def test_behind_the_mainland_is_the_last_space():
    state = laid()
    place(state, 0, 0, 50)
    gone = next(c for c in COLOURS if all(space(state, p)["tiles"] and
                                          state["tiles"][space(state, p)["tiles"][0]]["colour"] != c
                                          for p in (51, 52, 53)))
    place(state, 1, 0, 53)
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [gone], "bridge": None})
    assert new["citizens"][0][0] == MAINLAND
    assert next(e for e in events if e["key"] == "atlantis.take")["params"]["position"] == 52


def test_nothing_to_take():
    state = laid()
    drown(state, 1, 2, 3)
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [PINK], "bridge": None})
    assert "atlantis.take/none" in [e["key"] for e in events]
    assert expected(new)["kind"] == "turn" and new["seat"] == 1


def test_a_single_tile_taken_leaves_water():
    state = laid()
    place(state, 0, 0, 12)
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [COLOURS[5]], "bridge": None})  # to 13
    assert space(new, 12)["tiles"] == [] and "atlantis.flooded" in [e["key"] for e in events]


def test_the_lower_tile_is_entered_when_revealed_then_the_turn_ends():
    state = laid()
    new, _ = apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None})   # to 2, takes 1.1
    assert new["held"][0] == ["1.1"]
    prompt = expected(new)
    assert prompt["kind"] == "reveal" and prompt["context"] == {"position": 1}
    with pytest.raises(RuleError) as refused:
        apply(new, {"type": "reveal", "colour": "purple", "value": 3})
    assert refused.value.key == "atlantis.unknown_colour"
    new, events = apply(new, {"type": "reveal", "colour": BROWN, "value": 6})
    assert new["tiles"]["1.2"] == {"colour": BROWN, "value": 6}
    assert [e["key"] for e in events] == ["atlantis.revealed", "atlantis.draw", "atlantis.turn"]


def test_the_tile_behind_may_be_left_on_the_path():
    """"puede tomar": the table may leave it (taking it could open water before its own citizens)."""
    state = laid()
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None, "take": False})
    assert new["citizens"][0][0] == 2 and new["held"][0] == [] and space(new, 1)["tiles"] == ["1.1", None]
    keys = [e["key"] for e in events]
    assert keys == ["atlantis.move", "atlantis.take/declined", "atlantis.draw", "atlantis.turn"]
    assert events[1]["params"] == {"seat": 0, "position": 1, "colour": BLUE, "value": 1}
    assert expected(new)["kind"] == "turn" and new["seat"] == 1     # no tile to enter: the turn ends


def test_leaving_the_tile_after_paying_a_crossing():
    state = laid()
    place(state, 0, 0, 9)
    drown(state, 11)
    give(state, 0, 6)
    state, _ = apply(state, {"type": "move", "citizen": 0, "cards": [COLOURS[6]], "bridge": None, "take": False})
    assert expected(state)["kind"] == "pay"
    state, events = apply(state, {"type": "pay", "tiles": [], "cards": 3})     # 10 (3) | 11 | 12 (5): 3
    assert [e["key"] for e in events][:2] == ["atlantis.pay", "atlantis.take/declined"]
    assert space(state, 13)["tiles"] == ["13.1"] and len(state["held"][0]) == 1


def test_take_must_be_true_or_false_and_a_record_without_it_takes():
    state = laid()
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None, "take": "no"})
    assert refused.value.key == "atlantis.malformed"
    assert normalize({"type": "move", "citizen": 0, "cards": [GREY], "take": True}) == \
        {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None}
    assert normalize({"type": "move", "citizen": 0, "cards": [GREY], "take": False})["take"] is False
    new, _ = apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None})
    assert new["held"][0] == ["1.1"]


# Buying cards

def test_a_tile_buys_half_its_value_in_cards_rounded_down():
    state = laid()
    seven, one = give(state, 0, 7, 1)
    before = state["cards"][0]["hand"]
    new, events = apply(state, {"type": "buy", "tile": seven})
    assert new["cards"][0]["hand"] == before + 3 and new["cards"][0]["bought"] == 3
    assert new["sold"] == [seven] and events[0]["params"]["cards"] == 3
    assert expected(new)["kind"] == "turn"           # buying again, or moving, is still to come
    new, events = apply(new, {"type": "buy", "tile": one})
    assert events[0]["params"]["cards"] == 0 and events[0]["rule"] == "A12"


def test_buying_is_only_at_the_start_of_the_turn():
    state = laid()
    place(state, 0, 0, 9)
    drown(state, 11)
    ids = give(state, 0, 6)
    state, _ = apply(state, {"type": "move", "citizen": 0, "cards": [COLOURS[6]], "bridge": None})  # to 14, owes
    assert expected(state)["kind"] == "pay"
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "buy", "tile": ids[0]})
    assert refused.value.key == "atlantis.wrong_kind"


def test_a_tile_not_held_cannot_be_sold():
    state = laid()
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "buy", "tile": "1.1"})
    assert refused.value.key == "atlantis.not_your_tile"


# The lost turn

def test_no_legal_move_loses_the_turn_and_draws_two():
    state = laid()
    hand(state, 0, 0)
    prompt = expected(state)
    assert options(state) == [{"type": "no_move"}]
    assert prompt["options"] is None and prompt["context"]["movable"] == []
    assert prompt["context"]["listed"] == [{"type": "no_move"}]
    new, events = apply(state, {"type": "no_move"})
    assert new["cards"][0]["hand"] == 2 and new["seat"] == 1
    assert [e["key"] for e in events] == ["atlantis.no_move", "atlantis.draw", "atlantis.turn"]


def test_no_move_is_refused_when_any_card_would_move():
    state = laid()
    assert sure_to_move(state, 0)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "no_move"})
    assert refused.value.key == "atlantis.has_move" and state == before


def test_no_move_is_offered_when_some_colour_would_not_move():
    state = laid()
    hand(state, 0, 1)
    place(state, 1, 0, 1)             # blue from Atlantis lands on Bia's citizen: one blue card cannot move
    for c in range(3):
        place(state, 0, c, 0)
    assert {"type": "no_move"} in expected(state)["context"]["listed"]


def test_no_move_is_refused_when_every_hand_of_that_size_moves():
    """Blue alone cannot move (Bia stands on 1), but blue, blue reaches 8; any other colour moves alone:
    one card may be stuck, two cards never are."""
    state = laid()
    place(state, 1, 0, 1)
    hand(state, 0, 1)
    assert stuck_hand(state, 0) == {BLUE: 1} and {"type": "no_move"} in expected(state)["context"]["listed"]
    hand(state, 0, 2)
    assert stuck_hand(state, 0) is None and {"type": "no_move"} not in expected(state)["context"]["listed"]
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "no_move"})
    assert refused.value.key == "atlantis.has_move" and refused.value.params == {"hand": 2}


def test_a_stuck_hand_holds_no_more_of_a_colour_than_the_box():
    """Bia on 1 and 8: blue, blue lands on her again; blue x3 reaches 15. Two blue cards are stuck,
    unless the box had only one blue card: then any two cards move."""
    state = laid()
    place(state, 1, 0, 1)
    place(state, 1, 1, 8)
    hand(state, 0, 2)
    assert stuck_hand(state, 0) == {BLUE: 2}
    hand(state, 0, 3)
    assert stuck_hand(state, 0) is None
    hand(state, 0, 2)
    state["profile"]["cards_per_colour"] = 1
    assert stuck_hand(state, 0) is None


def test_a_move_the_hand_cannot_pay_does_not_count():
    """From 20 every colour moves alone, but blue (to 29) and yellow (to 34) cross two gaps,
    22 (21: 7 | 23: 2 -> 2) and the middle water 27 (5): the bridge saves one, the rest is not
    paid with no card left. A single blue or yellow card is stuck."""
    state = laid()
    for c in range(3):
        place(state, 0, c, 20 if c == 0 else MAINLAND)
    drown(state, 22)
    hand(state, 0, 1)
    assert stuck_hand(state, 0) == {BLUE: 1}
    assert sorted(g.index(1) for g in good_sets(state, 0)) == [1, 2, 3, 4, 6]   # all but blue and yellow
    give(state, 0, 5)
    assert stuck_hand(state, 0) is None                     # a tile of 5 pays what the bridge leaves


def test_buy_then_lose_the_turn():
    state = laid()
    hand(state, 0, 0)
    ids = give(state, 0, 2)
    state, _ = apply(state, {"type": "buy", "tile": ids[0]})
    assert state["cards"][0]["hand"] == 1
    assert expected(state)["kind"] == "turn"


# Drawing

@pytest.mark.parametrize("home,cards", [(0, 1), (1, 2), (2, 3)])
def test_the_end_of_turn_draw_grows_with_citizens_on_the_mainland(home, cards):
    state = laid()
    for c in range(home):
        place(state, 0, c + 1, MAINLAND)
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None})
    new, events = apply(new, {"type": "reveal", "colour": BLUE, "value": 1})
    assert next(e for e in events if e["key"] == "atlantis.draw")["params"]["cards"] == cards


def test_an_empty_draw_pile_takes_the_discards():
    state = laid()
    state["discard"], state["draw_pile"] = state["draw_pile"], 0
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None})
    new, events = apply(new, {"type": "reveal", "colour": BLUE, "value": 1})
    keys = [e["key"] for e in events]
    assert keys.index("atlantis.reshuffle") < keys.index("atlantis.draw")
    assert new["discard"] == 0


def test_no_cards_left_anywhere_draws_what_there_is():
    state = laid()
    state["discard"] = state["draw_pile"] = 0
    place(state, 0, 1, MAINLAND)      # two cards due, only the card just played to draw
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [GREY], "bridge": None})
    new, events = apply(new, {"type": "reveal", "colour": BLUE, "value": 1})
    short = next(e for e in events if e["key"] == "atlantis.draw/short")
    assert short["params"] == {"seat": 0, "cards": 1, "due": 2}
