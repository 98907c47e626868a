"""Random legal games, for tests and benchmarks only (R1: a real game never invents a roll).

The random source is passed in (a seeded random.Random), so every game is
reproducible from its seed.
"""

import random as _random

from .engine import apply_in_place, expected, start
from .state import new_state



def random_setup(rng: _random.Random, humans: int, profile: dict) -> dict:
    from .names import STACKS
    return {"players": [f"P{i + 1}" for i in range(humans)], "first_player": rng.randrange(humans),
            "profile": profile, "tops": {d: rng.choice(tiles) for d, tiles in STACKS.items()}}


def random_input(rng: _random.Random, prompt: dict) -> dict:
    if prompt["kind"] == "gate_roll":
        return {"type": "gate_roll", "dice": [rng.randint(1, 6) for _ in range(prompt["count"])]}
    return rng.choice(prompt["options"])


def play_random(rng: _random.Random, setup: dict, max_inputs: int = 5000):
    """Yield (state, input, events) for a whole random game; the state is shared and mutated."""
    state, _ = start(new_state(setup))
    for _ in range(max_inputs):
        prompt = expected(state)
        if prompt["kind"] == "over":
            return
        inp = random_input(rng, prompt)
        events = apply_in_place(state, inp)
        yield state, inp, events
    raise RuntimeError(f"the game did not end within {max_inputs} inputs")
