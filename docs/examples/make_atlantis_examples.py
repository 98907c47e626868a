"""Write the Atlantis example records (docs/examples/atlantis-*.jsonl) from seeded random games.

    PYTHONPATH=. python docs/examples/make_atlantis_examples.py   # from the repository root

Each seed was picked because its game shows a bridge, an overpayment, a sale of a
tile, a lost turn and crossings settled at the end; tests/games/atlantis/test_examples.py
replays every record through the engine. Each file is a companion record
(docs/record-format.md): `companion replay FILE --score` reads it.
"""

import random
from pathlib import Path

from companion.games.atlantis import default_profile
from companion.games.atlantis.simulate import play_random, random_setup
from companion.record import Record

HERE = Path(__file__).resolve().parent
EXAMPLES = {"atlantis-table-3p.jsonl": (3, "table"), "atlantis-shuffled-2p.jsonl": (2, "shuffle")}
WANTED = {"atlantis.bridge", "atlantis.pay/over", "atlantis.buy", "atlantis.no_move", "atlantis.settle"}


def record(seed: int, players: int, path: str) -> tuple[dict, list, set]:
    rng = random.Random(seed)
    setup = random_setup(rng, players, default_profile(), path)
    inputs, keys = [], set()
    for _, inp, events in play_random(rng, setup):
        inputs.append(inp)
        # a settlement that costs something, over one gap or several (settle/free costs nothing)
        keys |= {"atlantis.settle" if e["key"] in ("atlantis.settle", "atlantis.settle/gaps") else e["key"]
                 for e in events}
    return setup, inputs, keys


def main() -> None:
    for name, (players, path) in EXAMPLES.items():
        seed = next(s for s in range(1000) if WANTED <= record(s, players, path)[2])
        setup, inputs, _ = record(seed, players, path)
        game = Record.new(setup=setup, meta={"note": f"seeded random game {seed}"}, game="atlantis")
        game.inputs = inputs
        (HERE / name).write_text(game.to_jsonl(), encoding="utf-8")
        print(name, "seed", seed, len(inputs), "inputs")


if __name__ == "__main__":
    main()
