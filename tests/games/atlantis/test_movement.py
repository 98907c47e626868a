"""Movement: the next tile of the card's colour, jumping on from occupied tiles, the mainland."""

import itertools

import pytest

from companion.games.atlantis import RuleError, apply, expected, options, reach
from companion.games.atlantis.movement import follow, landing
from companion.games.atlantis.path import MAINLAND

from .conftest import COLOURS, drown, hand, laid, place

BLUE, GREY, BROWN, PINK = COLOURS[:4]


def moves(state):
    return [o for o in options(state) if o["type"] == "move"]


def test_a_card_takes_the_citizen_to_the_next_tile_of_its_colour():
    state = laid()
    # pattern: space 1 blue, 2 grey, 3 brown, 4 pink ... 8 blue again
    assert landing(state, 0, BLUE) == 1
    assert landing(state, 1, BLUE) == 8
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [PINK], "bridge": None})
    assert new["citizens"][0][0] == 4
    assert events[0]["key"] == "atlantis.move" and events[0]["params"]["to"] == 4


def test_water_is_crossed_not_counted():
    state = laid()
    drown(state, 8)                    # space 8 was the next blue after 1
    assert landing(state, 1, BLUE) == 15


def test_an_occupied_tile_needs_another_card_from_there():
    state = laid()
    place(state, 1, 0, 4)              # Bia's citizen on the pink tile at 4
    options = moves(state)
    assert {"type": "move", "citizen": 0, "cards": [PINK], "bridge": None} not in options
    # from 4, grey goes to the next grey after 4: space 9
    assert {"type": "move", "citizen": 0, "cards": [PINK, GREY], "bridge": None} in options
    new, _ = apply(state, {"type": "move", "citizen": 0, "cards": [PINK, GREY], "bridge": None})
    assert new["citizens"][0][0] == 9
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 0, "cards": [PINK], "bridge": None})
    assert refused.value.key == "atlantis.bad_route"


def test_own_citizens_block_too_and_chains_go_on():
    state = laid()
    place(state, 0, 1, 4)
    place(state, 1, 0, 9)
    assert follow(state, 0, [PINK, GREY]) == (None, [4, 9])        # 9 occupied: one more card
    assert follow(state, 0, [PINK, GREY, BLUE]) == (15, [4, 9, 15])


def test_a_second_card_after_a_free_tile_is_refused():
    state = laid()
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 0, "cards": [PINK, GREY], "bridge": None})
    assert refused.value.key == "atlantis.bad_route" and refused.value.rule == "A5"


def test_a_colour_that_does_not_come_again_goes_to_the_mainland():
    state = laid()
    place(state, 0, 0, 50)             # spaces 51..53 are 51 green? the pattern: (p-1) % 7
    missing = [c for c in COLOURS if all(landing(state, 50, c) != p for p in (51, 52, 53))]
    assert missing
    new, events = apply(state, {"type": "move", "citizen": 0, "cards": [missing[0]], "bridge": None})
    assert new["citizens"][0][0] == MAINLAND
    assert events[0]["key"] == "atlantis.move/mainland"


def test_no_card_is_played_after_the_mainland():
    state = laid()
    place(state, 0, 0, 50)
    gone = next(c for c in COLOURS if landing(state, 50, c) == MAINLAND)
    assert follow(state, 50, [gone, BLUE])[0] is None


def test_a_citizen_on_the_mainland_does_not_move():
    state = laid()
    place(state, 0, 2, MAINLAND)
    assert all(o["citizen"] != 2 for o in moves(state))
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 2, "cards": [BLUE], "bridge": None})
    assert refused.value.key == "atlantis.citizen_home"


def test_every_card_order_is_offered_and_each_lands_where_follow_says():
    state = laid()
    for p, seat, c in ((1, 1, 0), (2, 1, 1), (4, 1, 2), (3, 0, 1)):
        place(state, seat, c, p)
    hand(state, 0, 3)
    offered = {tuple(r["cards"]): r["to"] for r in reach(state, 0, 0)}
    for n in (1, 2, 3):
        for cards in itertools.product(COLOURS, repeat=n):
            to, _ = follow(state, 0, list(cards))
            assert offered.get(cards) == to, cards
    # spaces 1 to 4 are occupied: chains of two and three cards, none longer than the hand
    white = COLOURS[4]
    assert offered[(BLUE, white)] == 5 and offered[(BLUE, GREY, white)] == 5
    assert (BLUE, GREY) not in offered and (BLUE, GREY, PINK) not in offered


def test_the_hand_size_limits_the_chain():
    state = laid()
    place(state, 1, 0, 4)
    hand(state, 0, 1)
    assert all(len(o["cards"]) == 1 for o in moves(state))
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 0, "cards": [PINK, GREY], "bridge": None})
    assert refused.value.key == "atlantis.too_many_cards"


def test_a_move_plays_its_cards_from_the_hand():
    state = laid()
    place(state, 1, 0, 4)
    before = state["cards"][0]["hand"]
    new, _ = apply(state, {"type": "move", "citizen": 0, "cards": [PINK, GREY], "bridge": None})
    assert new["cards"][0]["played"] == 2 and new["cards"][0]["hand"] == before - 2
    # the tile taken behind (space 8, a stack) uncovered one: the table enters it, then the draw
    assert expected(new)["kind"] == "reveal"
    new, _ = apply(new, {"type": "reveal", "colour": PINK, "value": 3})
    assert new["cards"][0]["hand"] == before - 2 + 1 and new["cards"][0]["drawn"] == 1
