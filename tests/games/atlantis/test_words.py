"""The package's own words (words.py and the catalogs): citizens from 1, tiles by their face,
a crossing split gap by gap, no line for a settlement that costs nothing, each refusal
citing the rule that decides it."""

import json
from pathlib import Path

import pytest

from companion.games.atlantis import RuleError, apply, expected
from companion.games.atlantis import words as atl
from companion.games.atlantis.path import MAINLAND

from .conftest import COLOURS, drown, give, hand, laid, place

I18N = Path(__file__).resolve().parents[3] / "companion" / "games" / "atlantis" / "i18n"
EN, PT = (json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "pt-BR"))
NAMES = ["Ana", "Bia"]
BLUE = COLOURS[0]


def said(events, catalog=EN):
    return [atl.render(e, catalog, NAMES) for e in events]


def three_gaps():
    """Ana on 20, blue goes to 29 over 22 (21: 7 | 23: 2 -> 2), 24 (Bia's bridge: 0) and the middle
    water 27 (26: 5 | 28: 7 -> 5): 7 = 2 + 0 + 5."""
    state = laid()
    place(state, 0, 0, 20)
    drown(state, 22)
    drown(state, 24, bridge=1)
    hand(state, 0, 4)
    give(state, 0, 5, 3)
    return state


def test_a_crossing_of_several_gaps_is_said_gap_by_gap():
    state, events = apply(three_gaps(), {"type": "move", "citizen": 0, "cards": [BLUE], "bridge": None})
    owed = events[-1]
    assert owed["key"] == "atlantis.owed/gaps" and owed["params"]["split"] == [2, 0, 5]
    assert said([owed])[-1] == "Ana owes 7 for crossing the water, gap by gap: 7 = 2 + 0 + 5. (water)"
    assert said([owed], PT)[-1] == "Ana deve 7 pelas travessias da água, trecho a trecho: 7 = 2 + 0 + 5. (água)"


def test_a_payment_says_the_tiles_colour_and_value_not_their_ids():
    state, _ = apply(three_gaps(), {"type": "move", "citizen": 0, "cards": [BLUE], "bridge": None})
    state, events = apply(state, {"type": "pay", "tiles": list(state["held"][0]), "cards": 0})
    text = said(events)[0]
    assert text == f"Ana pays 8 for 7 owed, with {BLUE} 5 and {BLUE} 3: 1 lost. (ruling A8)"
    assert said(events, PT)[0] == "Ana paga 8 por 7 devidos, com azul 5 e azul 3: sobra 1, que se perde. (decisão A8)"
    assert not any(t in text for t in state["spent"])
    take = next(e for e in events if e["key"] == "atlantis.take")
    assert said([take])[0].startswith("Ana takes the tile ") and take["params"]["tile"] not in said([take])[0]


def test_a_tile_given_back_is_said_by_its_face():
    state = laid()
    tid = give(state, 0, 6)[0]
    _, events = apply(state, {"type": "buy", "tile": tid})
    assert said(events)[0] == f"Ana gives back a tile ({BLUE} 6) for 3 cards. (buying cards)"


def test_a_settlement_that_costs_nothing_is_said_so_and_is_no_payment():
    state = laid()
    for c in (1, 2):
        place(state, 0, c, MAINLAND)
        place(state, 1, c, MAINLAND)
    place(state, 0, 0, 50)
    place(state, 1, 0, 49)            # nothing to cross from 49
    gone = next(c for c in COLOURS if all(state["tiles"][f"{p}.1"]["colour"] != c for p in (51, 52, 53)))
    state, events = apply(state, {"type": "move", "citizen": 0, "cards": [gone], "bridge": None})
    free = next(e for e in events if e["key"].startswith("atlantis.settle"))
    assert free["key"] == "atlantis.settle/free" and free["params"]["cost"] == 0
    assert said([free])[0] == "Citizen 1 of Bia goes from space 49 to the mainland: nothing to pay. (ruling A16)"
    while expected(state)["kind"] == "cards_left":
        state, _ = apply(state, expected(state)["options"][0])
    assert state["result"]["scores"][1]["settlement"] == [] and state["result"]["scores"][1]["payments"] == 0
    assert len(state["settlement"]) == 1                      # the state still keeps where it came from


def test_citizens_are_one_to_three_in_refusals_and_in_notation():
    state = laid()
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 3, "cards": [BLUE], "bridge": None})
    assert atl.refusal(refused.value, EN, NAMES) == "There is no citizen 4: a player's citizens are 1 to 3."
    assert atl.refusal(refused.value, PT, NAMES) == "Não existe o cidadão 4: os cidadãos de cada jogador são de 1 a 3."
    assert "1 to 3" in refused.value.message
    assert atl.notation({"type": "move", "citizen": 2, "cards": ["blue", "grey"], "bridge": None}) == \
        "move 3 blue,grey"
    assert atl.notation({"type": "move", "citizen": 0, "cards": ["pink"], "bridge": 27, "take": False,
                         "source": "hand"}) == "move 1 pink bridge:27 leave"
    assert atl.notation({"type": "pay", "tiles": ["10.1"], "cards": 2}) == "pay 10.1 2"


def test_a_bridge_over_water_beside_atlantis_is_refused_citing_a6():
    state = laid()
    drown(state, 1, 2)                # water joined to Atlantis: no gap (A6)
    hand(state, 0, 4)
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 0, "cards": [COLOURS[2]], "bridge": 1})
    assert refused.value.key == "atlantis.bridge_at_an_end" and refused.value.rule == "A6"
    assert atl.refusal(refused.value, EN, NAMES).startswith("Water touching Atlantis or the mainland is no gap")


def test_a_declined_tile_is_said_in_the_moves_words():
    option = {"type": "move", "citizen": 1, "cards": ["blue"], "bridge": None, "take": False}
    assert atl.label(option, "turn", EN, NAMES) == "Citizen 2: blue, leaving the tile behind on the path"
    assert atl.label(option, "turn", PT, NAMES) == "Cidadão 2: azul, deixando no caminho a peça de trás"


@pytest.mark.parametrize("faces,cards,en", [([], 2, "2 cards"), ([], 1, "1 card"), ([{"colour": "grey", "value": 5}], 0, "grey 5"),
                                            ([{"colour": "grey", "value": 5}, {"colour": "blue", "value": 3}], 1,
                                             "grey 5, blue 3 and 1 card")])
def test_what_a_payment_gave(faces, cards, en):
    assert atl.paid_with(faces, cards, EN) == en


def test_a_tile_given_back_or_paid_is_said_by_its_face_given_the_state():
    tiles = {"tiles": {"10.1": {"colour": "grey", "value": 5}, "h1.2": {"colour": "blue", "value": 3}}}   # a state
    buy = {"type": "buy", "tile": "10.1"}
    pay = {"type": "pay", "tiles": ["10.1", "h1.2"], "cards": 2}
    assert atl.label(buy, "turn", EN, NAMES, tiles) == "Give back grey 5 for cards"
    assert atl.label(buy, "turn", PT, NAMES, tiles) == "Devolver cinza 5 por cartas"
    assert atl.label(pay, "pay", EN, NAMES, tiles) == "Pay: grey 5, blue 3 and 2 cards"
    assert atl.label(dict(pay, tiles=[]), "pay", EN, NAMES, tiles) == "Pay: 2 cards"
    for option in (buy, pay):
        assert "10.1" not in atl.label(option, "turn", PT, NAMES, tiles)
    # without the tiles (a caller that has no state), or an id the game never had: as before
    assert atl.label(buy, "turn", EN, NAMES) == "Give back tile 10.1 for cards"
    assert atl.label({"type": "buy", "tile": "99.9"}, "turn", EN, NAMES, tiles) == "Give back tile 99.9 for cards"
