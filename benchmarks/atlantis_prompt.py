"""What an Atlantis turn's prompt costs (issue 44 item 2), and the taps a move takes (issue 42).

1. The prompt of a crowded 4-player turn (a seeded random game's path after 11 inputs,
   every other citizen packed on spaces 1-16, the mover's three on Atlantis, 9 cards in
   each hand: 8,925 legal moves): the time `expected` takes (median of --repeat runs,
   one core), its JSON size, and what a page receives at each change: one state read
   (the session's snapshot, which GET /api/state sends) and one live message
   (web/stream.message, without the drawn page); and one step of a move as GET /step
   computes it (the prompt, then `table.step` for a citizen's first card).
2. --taps: seeded random 2- to 4-player games; each move the simulator makes is tapped
   as the page taps it (citizen, each card, then a finishing button, `table.step`), and
   the taps are counted: median and max per move, and per one-card move.

    python benchmarks/atlantis_prompt.py [--repeat 20] [--taps 6]

Works on any commit since the prompt existed: it only calls `expected`, the session and
the step the page asks (when the prompt lists its moves, it counts them too).
"""

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.atlantis import default_profile, expected, new_state, start, validate_position  # noqa: E402
from companion.games.atlantis.position import to_position  # noqa: E402
from companion.games.atlantis.simulate import play_random, random_setup  # noqa: E402

CROWD = [[0, 0, 0], [9, 4, 3], [1, 14, 10], [16, 2, 15]]


def crowded_position() -> dict:
    rng = random.Random(0)
    setup = random_setup(rng, 4, default_profile(), "shuffle")
    for i, (state, _, _) in enumerate(play_random(rng, setup)):
        if i >= 11 and state["step"]["t"] == "turn":
            break
    position = dict(to_position(state), citizens=CROWD, hands=[9, 9, 9, 9], turn=0)
    position.pop("draw_pile", None)
    return position


def prompt_cost(repeat: int) -> None:
    position = crowded_position()
    state = validate_position(position)
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        prompt = expected(state)
        times.append(time.process_time() - t0)
    size = len(json.dumps(prompt, separators=(",", ":")))
    listed = prompt["options"]
    moves = (sum(o["type"] == "move" for o in listed) if listed is not None else None)
    print(f"crowded 4-player turn: expected {1000 * statistics.median(times):.1f} ms (median of {repeat}, "
          f"max {1000 * max(times):.1f}); prompt JSON {size:,} bytes; "
          f"moves listed: {moves if moves is not None else 'none (asked step by step)'}")

    from companion.games.atlantis import table
    from companion.shelf import words_for
    words = words_for("atlantis", "en")
    steps = []
    for _ in range(max(1, repeat // 4)):
        for citizen in range(3):
            t0 = time.process_time()
            table.step(state, expected(state), {"citizen": str(citizen), "cards": ""}, words)   # as GET /step does
            steps.append(time.process_time() - t0)
    print(f"one step of a move (GET /step's work: the prompt, then table.step, first card of each citizen): "
          f"median {1000 * statistics.median(steps):.1f} ms, max {1000 * max(steps):.1f} ms")

    from companion.game_profiles import load_profile
    from companion.record import Record
    from companion.session import Session
    from companion.store import GameStore
    from web.stream import message

    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "g.sqlite3")
        sess = Session(store, load_profile())
        sess.load_record(Record.new(position=position, game="atlantis").to_jsonl())
        t0 = time.perf_counter()
        snap = sess.snapshot()
        read = json.dumps(snap, separators=(",", ":"), ensure_ascii=False)
        read_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        live = message(sess.snapshot(), None, "en")
        live_s = time.perf_counter() - t0
        print(f"one state read (the session's snapshot, as GET /api/state sends it): {len(read.encode()):,} bytes "
              f"({1000 * read_s:.0f} ms); one live message: {len(live.encode()):,} bytes ({1000 * live_s:.0f} ms)")
        store.close()


def taps(games: int) -> None:
    """Each move of seeded random games, tapped through table.step as the page does."""
    from companion.games.atlantis import table
    from companion.shelf import words_for

    words = words_for("atlantis", "en")
    per_move, per_basic = [], []
    for seed in range(games):
        rng = random.Random(seed)
        setup = random_setup(rng, 2 + seed % 3, default_profile(), "shuffle")
        state, _ = start(new_state(setup))
        for after, inp, _ in play_random(rng, setup):
            if inp["type"] == "move":
                n = walk(table, state, inp, words)
                per_move.append(n)
                if len(inp["cards"]) == 1:
                    per_basic.append(n)
            state = after
    print(f"taps per move, {games} seeded games, {len(per_move)} moves: median {statistics.median(per_move)}, "
          f"max {max(per_move)}; one-card moves ({len(per_basic)}): median {statistics.median(per_basic)}, "
          f"max {max(per_basic)}")


def walk(table, state: dict, move: dict, words) -> int:
    """The taps that enter `move` on the page: the citizen, each card, then the button whose
    input is the move (a finishing button). Fails when the page does not offer the move."""
    prompt = expected(state)
    cards: list[str] = []
    tapped = 1                                          # the citizen
    while True:
        m = table.step(state, prompt, {"citizen": str(move["citizen"]), "cards": ",".join(cards)}, words)
        assert m is not None, (move, cards)
        if m["finish"]:
            offered = [json.loads(f["input"]) for f in m["finish"]]
            assert move in offered, (move, offered)
            return tapped + 1
        colour = move["cards"][len(cards)]
        assert colour in [c["colour"] for c in m["next"]], (move, cards)
        cards.append(colour)
        tapped += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--taps", type=int, default=0, help="seeded games whose moves are tapped (0: none)")
    args = parser.parse_args()
    prompt_cost(args.repeat)
    if args.taps:
        taps(args.taps)


if __name__ == "__main__":
    main()
