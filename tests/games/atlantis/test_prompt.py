"""A turn's prompt lists no moves (issue 44 item 2): it says which citizens can move and lists
the rest (the tiles to give back, no_move); a move is asked step by step (`reach.next_step`)
and checked on its own (`legal_move`). All of it must agree with the whole list of moves the
prompt used to carry (`options`), which the engine still computes for the tests."""

import copy
import random

import pytest

from companion.games.atlantis import RuleError, apply, default_profile, expected, options, preferred, validate_position
from companion.games.atlantis.position import to_position
from companion.games.atlantis.reach import legal_move, next_step
from companion.games.atlantis.simulate import play_random, random_setup
from companion.games.atlantis.turn import bridge_space

from .conftest import COLOURS, PROFILE, hand, laid, place


def turns(seeds, every=3):
    for seed in seeds:
        rng = random.Random(seed)
        for i, (state, _, _) in enumerate(play_random(rng, random_setup(rng, 2 + seed % 3, PROFILE, "shuffle"))):
            if state["step"]["t"] == "turn" and i % every == 0:
                yield rng, state


def walked(state: dict, seat: int, citizen: int) -> list[dict]:
    """Every move the page's steps lead to, tapping every card offered."""
    out = []

    def go(cards):
        found = next_step(state, seat, citizen, cards)
        assert found is not None, cards
        if found["route"] is not None:
            out.extend({"type": "move", "citizen": citizen, "cards": cards, "bridge": b} for b in found["bridges"])
            return
        for step in found["next"]:
            go(cards + [step["colour"]])

    go([])
    return out


@pytest.mark.parametrize("seeds", [range(0, 4), range(4, 8)])
def test_the_prompt_says_what_the_whole_list_said(seeds):
    checked = 0
    for _, state in turns(seeds):
        prompt = expected(state)
        listed = options(state)
        moves = [o for o in listed if o["type"] == "move"]
        assert prompt["options"] is None
        assert prompt["context"]["movable"] == sorted({o["citizen"] for o in moves})
        assert prompt["context"]["listed"] == [o for o in listed if o["type"] != "move"]
        checked += 1
    assert checked > 30


def test_the_steps_lead_to_exactly_the_legal_moves():
    checked = 0
    for _, state in turns(range(3), every=5):
        seat = state["seat"]
        moves = [o for o in options(state) if o["type"] == "move"]
        for citizen in expected(state)["context"]["movable"]:
            mine = [o for o in moves if o["citizen"] == citizen]
            got = walked(state, seat, citizen)
            assert sorted(map(repr, got)) == sorted(map(repr, mine))
            checked += 1
        for citizen in set(range(3)) - set(expected(state)["context"]["movable"]):
            assert next_step(state, seat, citizen, []) is None
    assert checked > 20


def _variants(rng: random.Random, state: dict, moves: list[dict]) -> list[dict]:
    """Moves legal or not: each listed one, and junk near them (a card changed, added or
    dropped, another bridge, an unknown colour, a citizen that is not there)."""
    out = []
    for move in rng.sample(moves, min(len(moves), 12)):
        out.append(dict(move))
        cards = list(move["cards"])
        i = rng.randrange(len(cards))
        out.append(dict(move, cards=cards[:i] + [rng.choice(COLOURS + ["purple"])] + cards[i + 1:]))
        out.append(dict(move, cards=cards + [rng.choice(COLOURS)]))
        if len(cards) > 1:
            out.append(dict(move, cards=cards[:-1]))
        out.append(dict(move, bridge=rng.choice([None, rng.randint(1, 53)])))
        out.append(dict(move, citizen=rng.choice([0, 1, 2, 3, 7])))
        out.append(dict(move, take=False))
    return out


def test_a_move_is_legal_exactly_when_the_whole_list_holds_it_and_refused_as_before():
    accepted = refused = 0
    for rng, state in turns(range(8, 12), every=2):
        moves = [o for o in options(state) if o["type"] == "move"]
        for move in _variants(rng, state, moves):
            inp = dict(move, bridge=bridge_space(state, move["bridge"]))
            listed = {k: v for k, v in inp.items() if k != "take"} in moves
            assert legal_move(state, inp) == listed, move
            before = copy.deepcopy(state)
            try:
                apply(state, move)
                accepted += 1
                assert listed
            except RuleError as error:
                refused += 1
                assert not listed and error.key.startswith("atlantis."), move
            assert state == before
    assert accepted > 50 and refused > 50


def test_a_last_card_of_no_colour_of_the_game_is_refused_in_words():
    """Until the move was checked on its own, a last card of an unknown colour went to the
    mainland and the refusal's explanation stopped (a 500 at the page)."""
    state = laid()
    with pytest.raises(RuleError) as refused:
        apply(state, {"type": "move", "citizen": 0, "cards": ["purple"], "bridge": None})
    assert refused.value.key == "atlantis.unknown_colour" and refused.value.params == {"colour": "purple"}


def test_confirm_still_proposes_no_move_when_it_is_the_only_input():
    state = laid()
    hand(state, 0, 0)
    assert preferred(expected(state)) == {"type": "no_move"}
    hand(state, 0, 3)
    assert preferred(expected(state)) is None
    place(state, 1, 0, 1)
    assert expected(state)["context"]["listed"] == []          # sure to move: nothing listed


def test_a_crowded_position_is_prompted_small_and_fast():
    """The benchmark's position (benchmarks/atlantis_prompt.py): 8,925 legal moves."""
    rng = random.Random(0)
    setup = random_setup(rng, 4, default_profile(), "shuffle")
    for i, (state, _, _) in enumerate(play_random(rng, setup)):
        if i >= 11 and state["step"]["t"] == "turn":
            break
    position = dict(to_position(state), citizens=[[0, 0, 0], [9, 4, 3], [1, 14, 10], [16, 2, 15]],
                    hands=[9, 9, 9, 9], turn=0)
    position.pop("draw_pile")
    state = validate_position(position)
    prompt = expected(state)
    assert len(repr(prompt)) < 2_000 and prompt["context"]["movable"] == [0, 1, 2]
    assert sum(o["type"] == "move" for o in options(state)) == 8925


# The step that finishes a move: take the tile behind or leave it (A9)

def finishing(state: dict, citizen: int, cards: list[str]) -> list[dict]:
    import json

    from companion.games.atlantis import table
    from companion.shelf import words_for

    m = table.step(state, expected(state), {"citizen": str(citizen), "cards": ",".join(cards)},
                   words_for("atlantis", "en"))
    return [dict(f, input=json.loads(f["input"])) for f in m["finish"]]


def test_the_last_step_offers_to_take_the_tile_behind_or_leave_it():
    state = laid()
    grey = COLOURS[1]
    finish = finishing(state, 0, [grey])                       # to 2: the tile behind is blue 1 at 1
    move = {"type": "move", "citizen": 0, "cards": [grey], "bridge": None}
    assert [f["input"] for f in finish] == [move, dict(move, take=False)]
    assert finish[0]["text"] == "Move · crossing costs 0 · then take blue 1 from space 1"
    assert finish[1]["text"] == "Move · crossing costs 0 · then leave blue 1 on the path" and finish[1]["leave"]
    new, events = apply(state, finish[1]["input"])
    assert new["held"][0] == [] and "atlantis.take/declined" in [e["key"] for e in events]


def test_no_choice_where_nothing_would_be_taken():
    from companion.games.atlantis.path import MAINLAND
    from .conftest import drown
    state = laid()
    drown(state, 1)                                            # nothing behind space 2
    assert [f["input"].get("take", True) for f in finishing(state, 0, [COLOURS[1]])] == [True]
    state = laid()
    place(state, 0, 1, MAINLAND)
    place(state, 0, 2, MAINLAND)
    place(state, 0, 0, 50)
    gone = next(c for c in COLOURS if all(state["tiles"][f"{p}.1"]["colour"] != c for p in (51, 52, 53)))
    finish = finishing(state, 0, [gone])                       # the third citizen home: the game ends (A15)
    assert len(finish) == 1 and "take" not in finish[0]["input"]


def test_a_one_card_move_takes_three_taps():
    """Citizen, card, finish (issue 42): each move of seeded games tapped through table.step."""
    import json

    from companion.games.atlantis import new_state, start, table
    from companion.shelf import words_for

    words = words_for("atlantis", "en")
    taps = {}
    for seed in range(3):
        rng = random.Random(seed)
        setup = random_setup(rng, 2 + seed, PROFILE, "shuffle")
        state, _ = start(new_state(setup))
        for after, inp, _ in play_random(rng, setup):
            if inp["type"] == "move":
                prompt, cards, n = expected(state), [], 1
                while True:
                    m = table.step(state, prompt, {"citizen": str(inp["citizen"]), "cards": ",".join(cards)}, words)
                    if m["finish"]:
                        assert inp in [json.loads(f["input"]) for f in m["finish"]]
                        break
                    cards.append(inp["cards"][len(cards)])
                    n += 1
                taps.setdefault(len(inp["cards"]), []).append(n + 1)
            state = after
    assert set(taps[1]) == {3} and len(taps[1]) > 50
    assert all(set(t) == {k + 2} for k, t in taps.items())
