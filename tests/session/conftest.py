import random

import pytest

from companion.game_profiles import load_profile
from companion.game import Game
from companion.games.atlandice.simulate import random_input, random_setup


@pytest.fixture(scope="session")
def profile():
    return load_profile()


def random_game(profile, seed: int, players: int = 3, stop_after: int | None = None) -> Game:
    rng = random.Random(seed)
    game = Game.new(random_setup(rng, players, profile))
    while game.expected()["kind"] != "over" and (stop_after is None or game.version < stop_after):
        game.apply(random_input(rng, game.expected()))
    return game
