"""Random legal games, for tests and benchmarks only: a real game takes its shuffle
order and card colours from the table. The random source is passed in (a seeded
random.Random), so every game is reproducible from its seed.
"""

import random as _random

from .engine import apply, expected, options as all_options, start
from .path import HALVES, half_size
from .reach import points
from .setup import new_state


def random_setup(rng: _random.Random, players: int, profile: dict, path: str = "shuffle") -> dict:
    return {"game": "atlantis", "players": [f"P{i + 1}" for i in range(players)],
            "first_player": rng.randrange(players), "path": path, "profile": profile}


def random_payment(rng: _random.Random, state: dict, owed: int) -> dict:
    """Tiles and cards, picked at random until they reach what is owed (sometimes more)."""
    seat = state["seat"]
    tiles = list(state["held"][seat])
    rng.shuffle(tiles)
    hand = state["cards"][seat]["hand"]
    paid, chosen, cards = 0, [], 0
    while paid < owed:
        if cards < hand and (not tiles or rng.random() < 0.5):
            cards += 1
            paid += 1
        else:
            tile = tiles.pop()
            chosen.append(tile)
            paid += state["tiles"][tile]["value"]
    return {"type": "pay", "tiles": chosen, "cards": cards}


def random_input(rng: _random.Random, state: dict) -> dict:
    prompt = expected(state)
    kind = prompt["kind"]
    if kind == "shuffle":
        order = {}
        for half in HALVES:
            order[half] = list(range(half_size(half)))
            rng.shuffle(order[half])
        return {"type": "shuffle", "order": order}
    if kind == "pay":
        return random_payment(rng, state, prompt["context"]["owed"])
    if kind == "cards_left":
        return prompt["options"][0]   # the companion's count: the driver's cards are the companion's
    # a turn's prompt lists no moves: the whole list, as the prompt listed it before (the same
    # seeds play the same games)
    options = all_options(state) if kind == "turn" else prompt["options"]
    if kind == "turn":
        moves = [o for o in options if o["type"] == "move"]
        buys = [o for o in options if o["type"] == "buy"]
        if buys and rng.random() < 0.05:
            return rng.choice(buys)
        if moves and rng.random() < 0.95:
            return rng.choice(moves)
    return rng.choice(options)


def play_random(rng: _random.Random, setup: dict, max_inputs: int = 3000):
    """Yield (state, input, events) for a whole random game."""
    state, _ = start(new_state(setup))
    for _ in range(max_inputs):
        if state["step"]["t"] == "over":
            return
        inp = random_input(rng, state)
        state, events = apply(state, inp)
        yield state, inp, events
    raise RuntimeError(f"the game did not end within {max_inputs} inputs")


__all__ = ["random_setup", "random_input", "play_random", "points"]
