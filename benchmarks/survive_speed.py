"""Survive rules engine speed: random complete games per second on one core, and the time
to replay the example record (done on every undo).

    python benchmarks/survive_speed.py [--seconds S] [--players N] [--replays R]

Every input is drawn from the engine's own options (companion.games.survive.simulate).
"""

import argparse
import random
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.survive import validate_profile  # noqa: E402
from companion.games.survive.simulate import play_random, random_setup  # noqa: E402
from companion.games.survive.replay import replay_jsonl  # noqa: E402

PROFILE_PATH = ROOT / "companion" / "games" / "survive" / "default_profile.toml"
RECORD = ROOT / "docs" / "examples" / "survive-2p-volcano.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play random games")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--replays", type=int, default=100)
    args = parser.parse_args()
    profile = validate_profile(tomllib.loads(PROFILE_PATH.read_text(encoding="utf-8")))

    rng = random.Random(1)
    games = inputs = 0
    began, cpu_began = time.perf_counter(), time.process_time()
    while time.perf_counter() - began < args.seconds:
        inputs += sum(1 for _ in play_random(rng, random_setup(rng, args.players, profile)))
        games += 1
    spent, cpu = time.perf_counter() - began, time.process_time() - cpu_began
    # CPU seconds too: on a busy machine they say what one free core would do.
    print(f"random {args.players}-player Survive games: {games / spent:.1f} games/s wall-clock, "
          f"{games / cpu:.1f} per CPU second ({games} games, {inputs / games:.0f} inputs each on average, one core)")

    text = RECORD.read_text(encoding="utf-8")
    lines = len(text.strip().splitlines()) - 1
    times, cpu_times = [], []
    for _ in range(args.replays):
        t, c = time.perf_counter(), time.process_time()
        replay_jsonl(text)
        times.append((time.perf_counter() - t) * 1000)
        cpu_times.append((time.process_time() - c) * 1000)
    print(f"replay of {RECORD.name} ({lines} inputs): median {statistics.median(times):.1f} ms, "
          f"95th percentile {sorted(times)[int(0.95 * len(times)) - 1]:.1f} ms, "
          f"median CPU {statistics.median(cpu_times):.1f} ms over {args.replays} replays")


if __name__ == "__main__":
    main()
