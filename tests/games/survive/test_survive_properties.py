"""Random whole games, every input drawn from expected(): the counts are conserved after
every input, every game ends, every offered option is accepted and every refused input
leaves the state as it was."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.survive import RuleError, apply_in_place, copy_state, expected
from companion.games.survive.inputs import normalize
from companion.games.survive.names import (BOAT_TOKENS, CREATURE_TOKENS, EXPLORERS_PER_COLOUR, GREEN, RED,
                                           TERRAIN_TILES, TERRAINS)
from companion.games.survive.profile import back_total
from companion.games.survive.simulate import play_random, random_setup

from .conftest import load_profile

PROFILE = load_profile()


def check_conservation(state: dict) -> None:
    backs = state["profile"]["backs"]
    for t in TERRAINS:
        removed = TERRAIN_TILES[t] - state["terrain"][t]
        seen = sum(state["revealed"][t].values())
        unseen = removed - seen
        waiting = state["step"] == "reveal" and state["turn"]["removed"] == t
        last_tile = state["ended_by"] == "last_tile" and state["turn"]["removed"] == t
        assert state["terrain"][t] >= 0 and unseen == (1 if waiting or last_tile else 0), (t, removed, seen)
        for k in GREEN:
            assert state["revealed"][t][k] <= backs[t][k]
        assert state["revealed"][t]["red"] <= sum(backs[t][k] for k in RED)
    for c, n in CREATURE_TOKENS.items():
        pieces = state["creatures"][c]
        assert min(pieces.values()) >= 0 and sum(pieces.values()) == n, c
    assert min(state["boats"].values()) >= 0 and sum(state["boats"].values()) == BOAT_TOKENS
    for colour, e in state["explorers"].items():
        assert min(e.values()) >= 0 and sum(e.values()) == EXPLORERS_PER_COLOUR, colour
    drawn = sum(state["revealed"][t]["red"] for t in TERRAINS)
    played = sum(state["played"][k] for k in RED)
    assert min(state["hands"]) >= 0 and sum(state["hands"]) + played == drawn
    assert all(state["played"][k] <= back_total(state["profile"], k) for k in RED)
    assert state["turn"]["saved"] <= 3


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games_conserve_every_piece_and_end(seed, players):
    rng = random.Random(seed)
    setup = random_setup(rng, players, PROFILE)
    state = None
    for state, _, _ in play_random(rng, setup):
        check_conservation(state)
    assert state["over"] and state["step"] == "over"
    result = state["result"]
    assert result["winners"] and all(s["total"] == max(x["total"] for x in result["seats"])
                                     for s in result["seats"] if s["seat"] in result["winners"])
    if 3 not in state["challenges"]:
        assert set(state["values"]) == {c for c, e in state["explorers"].items() if e["saved"]}
    assert sum(e["in_play"] for e in state["explorers"].values()) == 0
    if 2 not in state["challenges"] and 4 not in state["challenges"]:
        assert state["ended_by"] == "volcano"


def well_formed(rng: random.Random) -> dict:
    """An input a tablet could send, legal now or not."""
    colour = rng.choice(["red", "blue", "green", "yellow"])
    return rng.choice([
        {"type": "setup", "step": rng.randint(1, 8)}, {"type": "done"}, {"type": "boat_lost"},
        {"type": "play", "tile": rng.choice(["dolphin", "wind", "move_serpent", "move_shark", "move_whale"])},
        {"type": "saved", "colour": colour}, {"type": "lost", "colour": colour},
        {"type": "remove", "terrain": rng.choice(TERRAINS), "surrounded": rng.random() < 0.3},
        {"type": "reveal", "back": rng.choice(list(GREEN) + ["red"])},
        {"type": "taken", "creature": rng.choice(["serpent", "shark", "whale"])},
        {"type": "creature_roll", "face": rng.choice(["serpent", "shark", "whale"])},
        {"type": "defend", "seat": rng.randint(0, 3), "tile": rng.choice(["repel_shark", "repel_whale"])},
        {"type": "values", "colour": colour, "values": [rng.randint(1, 6) for _ in range(rng.randint(0, 4))]},
    ])


def test_offered_inputs_are_accepted_and_refused_ones_change_nothing():
    refused = accepted = 0
    for seed in range(15):
        rng = random.Random(seed)
        for state, _, _ in play_random(rng, random_setup(rng, 2 + seed % 3, PROFILE)):
            prompt = expected(state)
            for option in prompt["options"][:6]:
                apply_in_place(copy_state(state), option)
                accepted += 1
            for _ in range(3):
                inp = well_formed(rng)
                before = copy_state(state)
                try:
                    apply_in_place(state, inp)
                except RuleError as err:
                    assert state == before, inp
                    assert err.key, inp                     # every refusal says why, as a catalog key
                    refused += 1
                else:
                    state.clear()
                    state.update(before)                    # keep the random game on its own path
                    assert normalize(inp) in prompt["options"], inp      # accepted only when offered
    assert refused > 500 and accepted > 500
