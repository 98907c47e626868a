"""The games page with a full store: 1,000 generated games (random legal Atlandice games,
one in ten unfinished), then the time the page takes to answer.

    python benchmarks/history_page.py [--games N] [--requests R]

Prints the time to fill the store, the first requests (the games page summarizes only the
records it shows; the players page every record, once), then the median and 95th
percentile of the following requests to /games, and the same for /players and /dice; then
the first /players and /dice requests after a restart (the store opened again by a new
companion, whose summaries are read back instead of replaying every record). Target on the
development machine: the games page under 200 ms.
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.game_profiles import load_profile  # noqa: E402
from companion.record import Record  # noqa: E402
from companion.games.atlandice.simulate import play_random, random_setup  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameStore  # noqa: E402
from web import create_app  # noqa: E402

NAMES = ("Ana", "Bruno", "Eric", "Dani", "Fábio", "Gabi", "anna", "Helena")
SOURCES = ("camera", "camera", "camera", "corrected", "hand")


def fill(store: GameStore, games: int, profile: dict, seed: int = 1) -> int:
    """`games` random games, each stored in one transaction; returns the number of inputs."""
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        humans = rng.choice((2, 3, 3, 4))
        setup = dict(random_setup(rng, humans, profile), players=rng.sample(NAMES, humans))
        stop = rng.randrange(20, 150) if rng.random() < 0.1 else None
        inputs = []
        for _, inp, _ in play_random(rng, setup):
            if inp["type"] in ("gate_roll", "roll"):
                inp = dict(inp, source=rng.choice(SOURCES))
            inputs.append(inp)
            if stop and len(inputs) == stop:
                break
        store.create(Record.new(setup=setup).header, inputs, over=stop is None)
        total += len(inputs)
    return total


def timed(client, url: str) -> float:
    t = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - t
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    profile = load_profile()
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "games.sqlite3")
        t = time.perf_counter()
        inputs = fill(store, args.games, profile)
        print(f"store: {args.games} games, {inputs} inputs, filled in {time.perf_counter() - t:.1f} s")
        app = create_app({"TESTING": True, "INSTANCE_PATH": Path(tmp) / "instance"},
                         session=Session(store, profile))
        client = app.test_client()
        print(f"/games first request (its 50 records summarized): {timed(client, '/games') * 1000:.0f} ms")
        print(f"/players first request (every record summarized): {timed(client, '/players') * 1000:.0f} ms")
        for url in ("/games", "/games?page=10", "/players", "/dice"):
            times = sorted(timed(client, url) for _ in range(args.requests))
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"{url}: median {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
                  f"over {args.requests} requests")
        store.close()
        # A restart: a new companion on the same file, nothing kept in memory.
        store = GameStore(Path(tmp) / "games.sqlite3")
        app = create_app({"TESTING": True, "INSTANCE_PATH": Path(tmp) / "instance"},
                         session=Session(store, profile))
        client = app.test_client()
        print(f"/players first request after a restart: {timed(client, '/players') * 1000:.0f} ms")
        print(f"/dice first request after a restart: {timed(client, '/dice') * 1000:.0f} ms")
        store.close()


if __name__ == "__main__":
    main()
