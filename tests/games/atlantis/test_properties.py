"""Random games (a seeded driver choosing legal inputs): every game ends, tiles and cards
are conserved, refusals change nothing, every event reads in both catalogs."""

import copy
import itertools
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from companion.games.atlantis import RuleError, apply, expected, new_state, normalize, start
from companion.games.atlantis.path import MAINLAND, half_size, tiles_on_path
from companion.games.atlantis.profile import cards_total
from companion.games.atlantis.reach import affordable, reach, stuck_hand
from companion.games.atlantis.simulate import play_random, random_setup
from companion.games.atlantis.words import render

from .conftest import PROFILE

I18N = Path(__file__).resolve().parents[3] / "companion" / "games" / "atlantis" / "i18n"
CATALOGS = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "pt-BR")}
TILES = 84
GAMES = [(seed, 2 + seed % 3, "shuffle" if seed % 2 else "table") for seed in range(16)]


@pytest.mark.parametrize("seed,players,path", GAMES)
def test_every_random_game_ends_with_tiles_and_cards_conserved(seed, players, path):
    rng = random.Random(seed)
    state = None
    for state, _, events in play_random(rng, random_setup(rng, players, PROFILE, path)):
        if state["step"]["t"] in ("lay", "shuffle"):
            continue
        kept = tiles_on_path(state) + sum(map(len, state["held"])) + len(state["spent"]) + len(state["sold"])
        assert kept == TILES
        assert sum(c["hand"] for c in state["cards"]) + state["draw_pile"] + state["discard"] == cards_total(PROFILE)
        assert all(c["hand"] >= 0 for c in state["cards"])
        for event in events:
            for lang, catalog in CATALOGS.items():
                text = render(event, catalog, state["players"])
                assert "{" not in text and "}" not in text, (lang, text)
    assert state["over"]
    result = state["result"]
    assert result["winners"] and all(result["scores"][s]["total"] == result["best"] for s in result["winners"])
    assert all(p == [MAINLAND] * 3 for p in state["citizens"])


def _payable_moves(state: dict, seat: int) -> list[Counter]:
    """Brute force: the cards of every legal move the hand's size allows that can be paid."""
    return [Counter(r["cards"]) for c in range(3) for r in reach(state, seat, c)
            if any(affordable(state, seat, r, b) for b in [None] + r["bridges"])]


@pytest.mark.parametrize("most", [15, 2, 1])
def test_a_stuck_hand_exists_exactly_when_brute_force_finds_one(most):
    """A11: the declaration is refused exactly when every hand of that size makes a move."""
    rng = random.Random(40 + most)
    checked = stuck = 0
    for players in (2, 3):
        for state, _, _ in play_random(rng, random_setup(rng, players, PROFILE, "shuffle")):
            if state["step"]["t"] != "turn" or rng.random() < 0.8:
                continue
            state = copy.deepcopy(state)
            seat = state["seat"]
            state["profile"]["cards_per_colour"] = most
            for n in range(0, 5):
                state["cards"][seat]["hand"] = n
                hands = [Counter(h) for h in itertools.combinations_with_replacement(PROFILE["colours"], n)
                         if max(Counter(h).values(), default=0) <= most]
                moves = _payable_moves(state, seat)
                brute = [h for h in hands if not any(not m - h for m in moves)]
                found = stuck_hand(state, seat)
                assert (found is not None) == bool(brute), (n, found, brute[:3])
                if found is not None:
                    stuck += 1
                    assert sum(found.values()) == n and Counter(found) in brute
                checked += 1
                assert ({"type": "no_move"} in expected(state)["context"]["listed"]) == bool(brute)
    assert checked > 25 and 0 < stuck < checked


def _junk(rng: random.Random, state: dict) -> dict:
    """A well-formed input of any type, legal now or not."""
    colours = PROFILE["colours"] + ["purple"]
    held = [t for tiles in state["held"] for t in tiles] + ["1.1", "99.9"]
    kind = rng.choice(["lay", "reveal", "buy", "move", "no_move", "pay", "cards_left", "shuffle"])
    if kind in ("lay", "reveal"):
        return {"type": kind, "colour": rng.choice(colours), "value": rng.randint(0, 9)}
    if kind == "buy":
        return {"type": "buy", "tile": rng.choice(held)}
    if kind == "move":
        return {"type": "move", "citizen": rng.randint(0, 3),
                "cards": [rng.choice(colours) for _ in range(rng.randint(1, 3))],
                "bridge": rng.choice([None, rng.randint(1, 53)])}
    if kind == "pay":
        return {"type": "pay", "tiles": rng.sample(held, rng.randint(0, min(2, len(held)))),
                "cards": rng.randint(0, 5)}
    if kind == "cards_left":
        return {"type": "cards_left", "count": rng.randint(0, 120)}
    if kind == "shuffle":
        return {"type": "shuffle", "order": {"A": list(range(42)), "B": list(range(41))}}
    return {"type": kind}


def test_refusals_leave_the_state_unchanged():
    refused = 0
    for seed in range(4):
        rng = random.Random(100 + seed)
        for state, _, _ in play_random(rng, random_setup(rng, 2 + seed % 3, PROFILE, "table")):
            for _ in range(3):
                before = copy.deepcopy(state)
                inp = _junk(rng, state)
                try:
                    apply(state, inp)
                except RuleError as error:
                    refused += 1
                    assert error.key and error.key.startswith("atlantis.")
                assert state == before     # apply is pure: accepted or not, its argument is untouched
    assert refused > 100


@pytest.mark.parametrize("inp", [None, [], {"type": "fly"}, {"type": ["move"]}, {"type": {"move": 1}},
                                 {"type": "move", "citizen": 0},
                                 {"type": "move", "citizen": -1, "cards": ["blue"]},
                                 {"type": "lay", "colour": 3, "value": 1}, {"type": "pay", "cards": "x"}])
def test_malformed_inputs_are_invalid(inp):
    rng = random.Random(1)
    state = next(play_random(rng, random_setup(rng, 2, PROFILE, "table")))[0]
    with pytest.raises(RuleError) as refused:
        apply(state, inp)
    assert refused.value.kind == "invalid"


@pytest.mark.parametrize("kind", [["move"], {"type": "move"}, ["no_move", "buy"]])
def test_a_type_that_is_a_list_or_an_object_is_refused_in_words(kind):
    with pytest.raises(RuleError) as refused:
        normalize({"type": kind})
    assert refused.value.kind == "invalid" and refused.value.key == "atlantis.malformed"
    assert "'type' is a name" in refused.value.message


def test_a_shuffle_with_a_half_the_path_has_not_is_refused():
    rng = random.Random(2)
    state, _ = start(new_state(random_setup(rng, 2, PROFILE, "shuffle")))
    order = {"A": list(range(half_size("A"))), "B": list(range(half_size("B")))}
    apply(state, {"type": "shuffle", "order": order})                      # the two halves: accepted
    for bad in (dict(order, C=[0]), dict(order, C=[]), {"A": order["A"]}):
        with pytest.raises(RuleError) as refused:
            apply(state, {"type": "shuffle", "order": bad})
        assert refused.value.kind == "invalid" and "nothing else" in refused.value.message
        with pytest.raises(RuleError):
            normalize({"type": "shuffle", "order": bad})                # so no record keeps it


def test_the_seeded_driver_replays_the_same_game():
    def game(seed):
        rng = random.Random(seed)
        return [inp for _, inp, _ in play_random(rng, random_setup(rng, 3, PROFILE, "shuffle"))]
    assert game(7) == game(7) and game(7) != game(8)


def test_every_rule_an_event_or_refusal_cites_is_in_the_rulings_doc():
    doc = (Path(__file__).resolve().parents[3] / "docs" / "rulings-atlantis.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"\*\*(A\d+) ", doc)) | set(re.findall(r"^\| ([A-Z][a-z]+(?: [a-z]+)?) \|", doc, re.M))
    code = "\n".join(p.read_text(encoding="utf-8") for p in (I18N.parent).glob("*.py"))
    cited = set(re.findall(r'"(A\d+)"', code))
    cited |= {r for r in re.findall(r'\b(?:event|refuse|malformed)\([^)]*?"[a-z_./]+", "([A-Z][A-Za-z ]*?)"', code)}
    rng = random.Random(3)
    for _, _, events in play_random(rng, random_setup(rng, 3, PROFILE, "table")):
        cited |= {e["rule"] for e in events if e["rule"]}
    assert cited and cited <= documented, cited - documented
