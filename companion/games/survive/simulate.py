"""Random legal games, for tests and benchmarks only: a real game never invents a roll.

The random source is passed in (a seeded random.Random), so every game is
reproducible from its seed. Every input is drawn from `expected()`'s options.
"""

import random as _random

from .engine import apply_in_place, expected, start
from .state import new_state


def random_setup(rng: _random.Random, players: int, profile: dict) -> dict:
    pool = [c for c in (1, 2, 3, 4) if rng.random() < 0.3]
    if 2 in pool and 4 in pool:
        pool.remove(rng.choice((2, 4)))
    return {"game": "survive", "players": [f"P{i + 1}" for i in range(players)],
            "first_player": rng.randrange(players), "challenges": pool, "profile": profile}


# Taps that take a piece off the board: drawn less often, so that games run long enough
# to meet the volcano, the supplies running out and stranded explorers.
LOSSES = ("lost", "boat_lost")


def random_input(rng: _random.Random, prompt: dict, loss_share: float = 0.15) -> dict:
    options = prompt["options"]
    calm = [o for o in options if o["type"] not in LOSSES]
    if calm and len(calm) < len(options) and rng.random() >= loss_share:
        return rng.choice(calm)
    return rng.choice(options)


def play_random(rng: _random.Random, setup: dict, max_inputs: int = 20000):
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
