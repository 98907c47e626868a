"""The end: the third citizen home, four cards, the others' crossings paid from points, the score."""

import pytest

from companion.games.atlantis import RuleError, apply, expected
from companion.games.atlantis.path import MAINLAND

from .conftest import COLOURS, drown, give, hand, laid, place


def last_move(state):
    """Seat 0's third citizen goes from 50 to the mainland with a colour not seen again."""
    for c in (1, 2):
        place(state, 0, c, MAINLAND)
    place(state, 0, 0, 50)
    gone = next(c for c in COLOURS if all(state["tiles"][f"{p}.1"]["colour"] != c for p in (51, 52, 53)))
    state, events = apply(state, {"type": "move", "citizen": 0, "cards": [gone], "bridge": None})
    more = []
    if expected(state)["kind"] == "reveal":
        state, more = apply(state, {"type": "reveal", "colour": COLOURS[0], "value": 4})
    return state, events + more


def confirm_all(state):
    events = []
    while expected(state)["kind"] == "cards_left":
        state, more = apply(state, expected(state)["options"][0])
        events += more
    return state, events


def test_the_third_citizen_home_ends_the_game_with_four_cards_and_settles_the_others():
    state = laid()
    place(state, 1, 0, 20)            # Bia: one citizen on 20, two still on Atlantis
    drown(state, 30)                  # 29 (value 1) | 30 | 31 (value 3): 1
    hand(state, 0, 1)
    state, events = last_move(state)
    keys = [e["key"] for e in events]
    assert keys[keys.index("atlantis.end") + 1] == "atlantis.draw"
    assert events[keys.index("atlantis.end") + 1]["params"]["cards"] == 4
    settled = [e for e in events if e["key"].startswith("atlantis.settle")]
    assert {e["key"] for e in settled} == {"atlantis.settle/gaps"}
    # from 20: the middle water (26: 5 | 28: 7 -> 5) and 30 (1); from Atlantis the same
    assert [(s["citizen"], s["position"], s["cost"], s["split"]) for s in (e["params"] for e in settled)] == \
        [(0, 20, 6, [5, 1]), (1, 0, 6, [5, 1]), (2, 0, 6, [5, 1])]
    assert state["citizens"][1] == [MAINLAND] * 3
    assert expected(state) == {"kind": "cards_left", "seat": 0, "options": expected(state)["options"],
                               "context": {"counted": 4}}
    state, events = confirm_all(state)
    bia = state["result"]["scores"][1]
    assert bia["payments"] == 18 and bia["total"] == bia["tile_points"] + bia["cards"] - 18 < 0
    assert [p["cost"] for p in bia["settlement"]] == [6, 6, 6]
    assert state["over"] and expected(state)["kind"] == "over"
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "no_move"})
    assert refused.value.key == "atlantis.game_over"


def test_the_score_is_tiles_plus_cards_and_a_tie_shares_the_win():
    state = laid()
    for c in range(3):
        place(state, 1, c, MAINLAND if c else 49)   # Bia: one citizen left, on 49: nothing to cross
    state, _ = last_move(state)
    # Ana took a tile on the way; give Bia the same points in hand
    ana_tiles = sum(state["tiles"][t]["value"] for t in state["held"][0])
    ana_cards = state["cards"][0]["hand"]
    give(state, 1, ana_tiles + ana_cards - state["cards"][1]["hand"])
    state, events = confirm_all(state)
    result = state["result"]
    assert result["winners"] == [0, 1] and result["scores"][0]["total"] == result["scores"][1]["total"]
    assert events[-1]["key"] == "atlantis.winners" and events[-1]["params"]["seats"] == [0, 1]


def test_a_confirmed_count_other_than_the_companions_scores_and_is_reported():
    state = laid()
    state, _ = last_move(state)
    counted = state["cards"][0]["hand"]
    state, events = apply(state, {"type": "cards_left", "count": counted + 2})
    assert events[0]["key"] == "atlantis.cards_left/differs"
    assert events[0]["params"] == {"seat": 0, "count": counted + 2, "counted": counted}
    state, _ = confirm_all(state)
    assert state["result"]["scores"][0]["cards"] == counted + 2


def test_a_count_beyond_the_game_s_cards_is_refused():
    state = laid()
    state, _ = last_move(state)
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "cards_left", "count": 106})
    assert refused.value.key == "atlantis.bad_count"


def test_the_breakdown_lists_tiles_cards_and_payments():
    state = laid()
    place(state, 1, 0, 20)
    state, _ = last_move(state)
    state, _ = confirm_all(state)
    line = state["result"]["scores"][0]
    assert set(line) == {"seat", "tiles", "tile_points", "cards", "settlement", "payments", "total"}
    assert line["tile_points"] == sum(t["value"] for t in line["tiles"]) and line["settlement"] == []


def test_the_game_ending_move_takes_no_tile():
    """"La partida termina inmediatamente": the tile would be taken after the move ("a continuación")."""
    state = laid()
    state, events = last_move(state)
    keys = [e["key"] for e in events]
    assert "atlantis.take" not in keys and "atlantis.take/none" not in keys and "atlantis.revealed" not in keys
    assert keys[:2] == ["atlantis.move/mainland", "atlantis.end"]
    assert state["held"][0] == [] and state["spaces"][52]["tiles"][0] == "53.1"   # 53's tile stays on the path
    assert expected(state)["kind"] == "cards_left"


def test_the_game_ending_move_pays_its_crossing_then_ends_without_a_tile():
    state = laid()
    for c in (1, 2):
        place(state, 0, c, MAINLAND)
    place(state, 0, 0, 48)
    drown(state, 50)                  # 49 (value 7) | 50 | 51 (value 2): 2
    hand(state, 0, 3)
    gone = next(c for c in COLOURS if all(state["tiles"][f"{p}.1"]["colour"] != c for p in (49, 51, 52, 53)))
    state, events = apply(state, {"type": "move", "citizen": 0, "cards": [gone], "bridge": None})
    assert expected(state)["kind"] == "pay" and expected(state)["context"]["owed"] == 2
    state, events = apply(state, {"type": "pay", "tiles": [], "cards": 2})
    keys = [e["key"] for e in events]
    assert keys[:3] == ["atlantis.pay", "atlantis.end", "atlantis.draw"] and "atlantis.take" not in keys
    assert state["cards"][0]["hand"] == 0 + 4 and state["held"][0] == []
