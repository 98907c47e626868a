"""Properties over thousands of random legal games (hypothesis chooses the seeds).

Each game checks, after every input: resources conserved, no negative count,
VP never decrease; and at the end: the game ended, the breakdown adds up,
replaying the record gives the same state, undo then redo gives the same state.
"""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.game import Game
from companion.games.atlandice import validate_position
from companion.games.atlandice.names import RESOURCES
from companion.games.atlandice.engine import apply_in_place, expected, start
from companion.games.atlandice.simulate import random_input, random_setup
from companion.games.atlandice.state import new_state
from companion.games.atlandice.state import vp  # noqa: E402



def resource_counts(state):
    counts = {}
    for r in RESOURCES:
        counts[r] = (state["market"][r] + sum(s[r] for s in state["stocks"])
                     + sum(x["resources"][r] for x in state["districts"].values()))
    return counts


def no_negative(state):
    values = list(state["market"].values()) + [n for s in state["stocks"] for n in s.values()]
    values += [n for x in state["districts"].values() for n in x["resources"].values()]
    values += state["tokens"] + state["dice"]
    return all(v >= 0 for v in values)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_games_keep_every_invariant(profile, seed, players):
    """2000 games straight on the engine: conservation, no negative count, VP never fall, the end adds up."""
    rng = random.Random(seed)
    state, _ = start(new_state(random_setup(rng, players, profile)))
    last_vp = vp(state)
    for _ in range(3000):
        prompt = expected(state)
        if prompt["kind"] == "over":
            break
        apply_in_place(state, random_input(rng, prompt))
        counts = resource_counts(state)
        for r in RESOURCES:
            assert counts[r] == (0 if r in state["depleted"] else state["in_play"]), r
        assert no_negative(state)
        now = vp(state)
        assert all(b >= a for a, b in zip(last_vp, now))
        last_vp = now
    assert state["over"], "every game ends"
    result = state["result"]
    for seat in range(len(state["stocks"])):
        assert result["total"][seat] == (sum(line["points"][seat] for line in result["resources"].values())
                                         + 3 * len(state["tiles"][seat]) + state["tokens"][seat])
    assert result["winners"] and all(s < players for s in result["winners"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), back=st.integers(1, 12))
def test_replay_and_undo_redo_give_the_same_state(profile, seed, players, back):
    rng = random.Random(seed)
    game = Game.new(random_setup(rng, players, profile))
    while game.expected()["kind"] != "over":
        game.apply(random_input(rng, game.expected()))
    state = game.state
    assert Game.from_jsonl(game.record.to_jsonl()).state == state
    for _ in range(back):
        game.undo()
    assert game.version == len(game.record.inputs)
    for _ in range(back):
        game.redo()
    assert game.state == state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), cut=st.integers(1, 150))
def test_every_position_reached_is_a_valid_position(profile, seed, players, cut):
    rng = random.Random(seed)
    game = Game.new(random_setup(rng, players, profile))
    while game.version < cut and game.expected()["kind"] != "over":
        game.apply(random_input(rng, game.expected()))
    assert validate_position(game.state) == game.state
