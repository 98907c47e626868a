import random

import pytest

from companion.game_profiles import load_profile
from companion.record import Record
from companion.games.atlandice.simulate import random_input, random_setup
from companion.game import Game


@pytest.fixture(scope="session")
def profile():
    return load_profile()


def random_record(profile, seed: int, names=("Ana", "Bruno", "Eric"), stop_after: int | None = None,
                  sources=("camera",)) -> Record:
    """A random Atlandice game by `names`, each roll with a source drawn from `sources`."""
    rng = random.Random(seed)
    setup = dict(random_setup(rng, len(names), profile), players=list(names))
    game = Game.new(setup)
    while game.expected()["kind"] != "over" and (stop_after is None or game.version < stop_after):
        inp = random_input(rng, game.expected())
        if inp["type"] in ("gate_roll", "roll"):
            inp = dict(inp, source=rng.choice(sources))
        game.apply(inp)
    return game.record


def summary(players, scores, winners, over=True, game="atlandice", gid=1, extra=None):
    """A game's summary as companion.history.summary makes it (for the players' records)."""
    return {"id": gid, "game": game, "players": list(players), "over": over, "scores": scores,
            "winners": list(winners), "error": None, "extra": extra, "faces": [], "rolls": {},
            "readings": {}, "inputs": 100, "created": f"2026-01-{gid:02d}T20:00:00+00:00"}
