"""Atlantis rules engine speed: what one tap costs (the turn's prompt, `expected`; since issue 44
it lists no moves, only which citizens can move: the moves legal are counted apart, with
`options`) and random complete games per second, on one core.

    python benchmarks/atlantis_speed.py [--games N] [--players N]

Every input is drawn from the engine's own options (companion.games.atlantis.simulate); the
times are of `expected` and `apply` alone, not of drawing the random input.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.atlantis import apply, expected, new_state, options as all_options, start  # noqa: E402
from companion.games.atlantis.profile import default_profile  # noqa: E402
from companion.games.atlantis.simulate import random_input, random_setup  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()
    rng = random.Random(1)
    prompts, applies, options = [], [], []
    for _ in range(args.games):
        state, _ = start(new_state(random_setup(rng, args.players, default_profile())))
        while state["step"]["t"] != "over":
            t0 = time.process_time()
            prompt = expected(state)
            prompts.append(time.process_time() - t0)
            options.append(len(all_options(state) or ()) if prompt["kind"] == "turn" else len(prompt["options"] or ()))
            inp = random_input(rng, state)
            t0 = time.process_time()
            state, _ = apply(state, inp)
            applies.append(time.process_time() - t0)
    ms = lambda xs: f"median {1000 * statistics.median(xs):.2f} ms, p95 {1000 * sorted(xs)[int(.95 * len(xs))]:.2f} ms, max {1000 * max(xs):.1f} ms"  # noqa: E731
    print(f"{args.games} random {args.players}-player Atlantis games, {len(applies)} inputs")
    print(f"expected (the prompt): {ms(prompts)}; legal inputs: median {statistics.median(options):.0f}, max {max(options)}")
    print(f"apply: {ms(applies)}")
    print(f"engine CPU per game (expected + apply): {(sum(prompts) + sum(applies)) / args.games * 1000:.0f} ms")


if __name__ == "__main__":
    main()
