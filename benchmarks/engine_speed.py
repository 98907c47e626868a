"""Rules engine speed: random complete 4-player games per second on one core,
and the time to replay a 500-input record (done on every undo).

    python benchmarks/engine_speed.py [--games N] [--seconds S]

Targets on the development machine (a Raspberry Pi 4 is about four times
slower): at least 100 games/s, replay of 500 inputs under 25 ms.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.game_profiles import load_profile  # noqa: E402
from companion.game import Game  # noqa: E402
from companion.games.atlandice.engine import apply_in_place, expected, start  # noqa: E402
from companion.games.atlandice.simulate import random_input, random_setup  # noqa: E402
from companion.games.atlandice.state import new_state  # noqa: E402
from companion.record import Record  # noqa: E402


def play_one(rng, profile) -> int:
    state, _ = start(new_state(random_setup(rng, 4, profile)))
    n = 0
    while True:
        prompt = expected(state)
        if prompt["kind"] == "over":
            return n
        apply_in_place(state, random_input(rng, prompt))
        n += 1


def record_of(length: int, profile) -> Record:
    """A record of exactly `length` inputs, cut from random 4-player games."""
    seed = 0
    while True:
        rng = random.Random(seed)
        game = Game.new(random_setup(rng, 4, profile))
        while game.expected()["kind"] != "over" and game.version < length:
            game.apply(random_input(rng, game.expected()))
        if game.version == length:
            return game.record
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play random games")
    parser.add_argument("--replays", type=int, default=100)
    args = parser.parse_args()
    profile = load_profile()

    rng = random.Random(1)
    games = inputs = 0
    began, cpu_began = time.perf_counter(), time.process_time()
    while time.perf_counter() - began < args.seconds:
        inputs += play_one(rng, profile)
        games += 1
    spent, cpu = time.perf_counter() - began, time.process_time() - cpu_began
    # CPU seconds too: on a busy machine they say what one free core would do.
    print(f"random 4-player games: {games / spent:.1f} games/s wall-clock, {games / cpu:.1f} per CPU second "
          f"({games} games, {inputs / games:.0f} inputs each on average, one core)")

    # Games on the default board run about 230 inputs; a record of 500 inputs comes from a
    # longer clock track (a board profile may have up to 60 spaces), so replay measures 500 real inputs.
    long_profile = dict(profile, track=["start"] + [""] * 50 + ["end"])
    record = record_of(500, long_profile)
    times, cpu_times = [], []
    for _ in range(args.replays):
        t, c = time.perf_counter(), time.process_time()
        Game(record)
        times.append((time.perf_counter() - t) * 1000)
        cpu_times.append((time.process_time() - c) * 1000)
    print(f"replay of a {len(record.inputs)}-input record: median {statistics.median(times):.1f} ms, "
          f"95th percentile {sorted(times)[int(0.95 * len(times)) - 1]:.1f} ms, "
          f"median CPU {statistics.median(cpu_times):.1f} ms over {args.replays} replays")

if __name__ == "__main__":
    main()
