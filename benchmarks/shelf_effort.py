"""What a table presses to play Survive (and Atlantis) through the session: taps and CONFIRMs per turn.

Seeded games are played through `companion.session.Session` as a table would: at each prompt
the table means an input (a seeded random legal choice: `simulate.random_input`, with a held
tile played one time in five); when the session proposes one (CONFIRM: `Session.proposal`,
a prompt's `default` among them) and the table means it, it presses CONFIRM, else it taps
the option on the tablet (a later step's input where the prompt offers it early: what the
land tile removed shows, tapped at step 1 or 2). Inputs the session enters by itself (source "auto") cost nothing.

Counted per turn (from one `turn.begin` to the next): every tap and every CONFIRM. A turn
"with no event" is one in which nothing was saved, lost, played or defended and the tile
showed no whirlpool or volcano (the inputs are only done, remove, reveal, creature_roll).
Survive's target: at most 3 presses for such a turn (median).

Atlantis: inputs the table entered per turn, all turns (no target; for comparison; a move asked
tap by tap on the page's /step counts as one input here, so its taps are undercounted).

    python benchmarks/shelf_effort.py [--games 12] [--seed 1]
"""

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.game_profiles import load_profile  # noqa: E402
from companion.session import AUTO, Session  # noqa: E402
from companion.store import GameStore  # noqa: E402

CALM = {"done", "remove", "reveal", "creature_roll"}
EVENTFUL_BACKS = {"whirlpool", "volcano"}
TURN_BEGINS = ("turn.begin", "atlantis.turn")


def _survive_choice(rng: random.Random, prompt: dict, state: dict) -> dict:
    """What the table means now: a held tile played one time in five; explorers saved or lost
    now and then; else straight on to what the land tile removed shows, where the prompt offers
    it early (no tile, no move: one tap); a removal the plain way; a creature that took nobody."""
    from companion.games.survive.simulate import random_input
    options = prompt["options"]
    kind = prompt["kind"]
    if kind == "tile":
        plays = [o for o in options if o["type"] == "play"]
        if plays and rng.random() < 0.2:
            return rng.choice(plays)
    if kind in ("tile", "moves"):
        own = [o for o in options if o["type"] in ("saved", "lost")]
        if own and rng.random() < 0.3:
            return rng.choice(own)
        early = [o for o in options if o["type"] == "reveal"]
        return rng.choice(early) if early else {"type": "done"}
    if kind == "remove":
        return options[0]
    if kind == "creature" and rng.random() < 0.6:
        return {"type": "done"}
    return random_input(rng, prompt)


def _atlantis_choice(rng: random.Random, prompt: dict, state: dict) -> dict:
    from companion.games.atlantis.simulate import random_input
    return random_input(rng, state)


def play(game: str, setup: dict, seed: int, choose) -> list[dict]:
    """One game: per turn, its presses (taps, confirms) and the input types the table entered."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        sess = Session(GameStore(Path(tmp) / "g.sqlite3"), load_profile())
        try:
            sess.new_game(setup, game=game)
            turns: list[dict] = []
            turn = None
            for _ in range(5000):
                prompt = sess.game.expected()
                if prompt["kind"] == "over":
                    break
                meant = choose(rng, prompt, sess.game.state)
                proposal = sess.proposal()
                before = sess.game.version
                if proposal is not None and proposal["input"] == meant:
                    sess.confirm()
                    press = "confirm"
                else:
                    sess.submit(meant, sess.game.version)
                    press = "tap"
                for entry in sess.game.history[before:]:
                    began = any(ev["key"] in TURN_BEGINS for ev in entry["events"])
                    if turn is not None and entry["input"].get("source") != AUTO:
                        turn[press] += 1
                        turn["inputs"].append(entry["input"])
                        press = None           # one press per table input; the rest were auto
                    if began:
                        turn = {"tap": 0, "confirm": 0, "inputs": []}
                        turns.append(turn)
            return turns[:-1]                  # the last turn is cut by the end
        finally:
            sess.close()


def calm(turn: dict) -> bool:
    return all(i["type"] in CALM and i.get("back") not in EVENTFUL_BACKS for i in turn["inputs"])


def presses(turn: dict) -> int:
    return turn["tap"] + turn["confirm"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from companion.shelf import default_profile
    turns = []
    for g in range(args.games):
        players = 2 + g % 3
        setup = {"game": "survive", "players": [f"P{i + 1}" for i in range(players)], "first_player": 0,
                 "challenges": [], "profile": default_profile("survive")}
        turns += play("survive", setup, args.seed * 1000 + g, _survive_choice)
    quiet = [t for t in turns if calm(t)]
    print(f"Survive: {args.games} games, {len(turns)} turns, {len(quiet)} with no event")
    if quiet:
        counts = [presses(t) for t in quiet]
        print(f"  presses per turn with no event: median {statistics.median(counts)}, max {max(counts)} "
              f"(taps {statistics.median(t['tap'] for t in quiet)}, CONFIRMs "
              f"{statistics.median(t['confirm'] for t in quiet)}); target at most 3")
    print(f"  presses per turn, all turns: median {statistics.median(presses(t) for t in turns)}")

    try:
        import companion.games.atlantis.simulate  # noqa: F401
    except ImportError:
        return 0
    turns = []
    for g in range(max(2, args.games // 3)):
        players = 2 + g % 3
        from companion.games.atlantis.simulate import random_setup
        setup = random_setup(random.Random(g), players, default_profile("atlantis"))
        try:
            turns += play("atlantis", setup, args.seed * 1000 + g, _atlantis_choice)
        except Exception as exc:          # Atlantis's setup or turn shape differs: said, not hidden
            print(f"Atlantis: not measured ({type(exc).__name__}: {exc})")
            return 0
    if turns:
        print(f"Atlantis: {len(turns)} turns, inputs per turn (a /step move counts one): median {statistics.median(presses(t) for t in turns)}, "
              f"max {max(presses(t) for t in turns)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
