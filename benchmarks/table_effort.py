"""What a table does to play a game, and how fast still dice are proposed (headless Chromium).

1. A whole 3-player game through the page, played as a table plays it, twice:
   with a camera that settles (the dice proposed by themselves once still, as the
   settle watcher does: no READ) and with READ pressed for every roll (the demo
   camera before it proposed by itself). Each roll is entered with CONFIRM (the
   camera reads right), but with the settling camera a single die (an effect's
   roll) is entered once still, as the table loop does (Session.enter_settled:
   no touch; "entered when still"), a proposal with CONFIRM, a tap only where the game needs
   a decision (a random legal choice the page shows). Every touch is counted per
   round (tablet taps, panel presses): decisions, CONFIRMs and READs apart. Prints
   the touches per round (median, max), the page's height, and whether every
   input entered is what the screen showed (the proposal, or the option tapped).
2. A live camera that plays a roll (moving frames, then still, 5 frames a
   second, rendered by vision.render) through the camera supervisor, the device
   loop's settle watcher, the real dice reader and the page: the time from the
   first still frame to the proposal on the page (median, p95).

Targets: at most 12 touches a 3-player round (median) with a settling camera, 0
inputs that differ from the screen, at most 500 ms from still dice to the proposal.

    python benchmarks/table_effort.py [--seed 1] [--rolls 20]
"""

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.app import RollCue  # noqa: E402
from companion.game_profiles import load_profile  # noqa: E402
from companion.session import AUTO, Session  # noqa: E402
from companion.store import GameStore  # noqa: E402
from web import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
CODE = "135790"
PLAYERS = {"players": ["Anna", "Bruno", "Eric"], "first_player": 0}
ROLLS = ("gate_roll", "roll")


class Reading:
    def __init__(self, values):
        self.dice = [type("Die", (), {"value": v})() for v in values]

    def to_dict(self):
        return {"dice": [{"value": d.value, "center": [0, 0], "box": [0, 0, 1, 1], "confidence": 1.0}
                         for d in self.dice]}


class Status:
    ok, state, reason, message = True, "ok", "", "camera ready"


class RightCamera:
    """A camera that reads right: each picture is a fresh roll of as many dice as the game awaits."""

    def __init__(self, rng):
        self.rng = rng
        self.status = Status()
        self.count = None

    def expect_dice(self, count, roll=None):
        self.count = count

    def capture(self, timeout=3.0):
        return [self.rng.randint(1, 6) for _ in range(self.count or 0)]


def summary(values):
    values = sorted(values)
    p95 = values[max(0, int(round(0.95 * len(values))) - 1)]
    return f"median {statistics.median(values):.0f} ms, p95 {p95:.0f} ms, max {values[-1]:.0f} ms"


def serve(app):
    import waitress
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=12, channel_request_lookahead=1)
    threading.Thread(target=server.run, daemon=True).start()
    return server, f"http://127.0.0.1:{server.effective_port}"


def open_tablet(browser, url):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(url + "/pair")
    page.fill("input[name=code]", CODE)
    page.click("#pair-form button[type=submit]")
    page.wait_for_selector(".pairstate.ok")
    page.goto(url + "/")
    page.wait_for_selector("#conn.online")
    return page


def live(page, name):
    return page.get_attribute("#live", name)


def decision(inp):
    return {k: v for k, v in inp.items() if k != "source"}


def play_a_game(browser, seed, settles=True):
    """`settles`: the camera proposes the dice by itself once still (no READ); else READ each roll."""
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="atlandice-effort-"))
    camera = RightCamera(rng)
    session = Session(GameStore(tmp / "g.sqlite3"), load_profile(), camera=camera, reader=Reading)
    cue = RollCue(session, camera)      # the composition root's word to the camera: the roll awaited
    server, url = serve(create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp / "instance"}, session=session))
    session.new_game(PLAYERS)
    page = open_tablet(browser, url)
    taps, confirms, reads, heights, differ, auto = Counter(), Counter(), Counter(), [], 0, 0
    entered = Counter()     # single dice entered once still (Session.enter_settled): no touch
    while live(page, "data-kind") != "over":
        version = int(live(page, "data-version"))
        rnd = session.game.state["round"]
        heights.append(page.evaluate("() => document.documentElement.scrollHeight"))
        if live(page, "data-kind") in ROLLS:
            cue.tell()                            # as companion/app.py's RollCue does on each change
            if settles:
                at = session.game_changes
                session.desk.read_dice()          # still dice, read by the settle watcher: no touch
                if session.enter_settled(at):     # as the table loop does: a single die read surely
                    entered[rnd] += 1
                    page.wait_for_function("v => document.getElementById('live').getAttribute('data-version') !== v",
                                           arg=str(version))
                    auto += sum(i.get("source") == AUTO for i in session.game.record.inputs[version + 1:])
                    continue
            else:
                page.click("#panel [data-button=read]")
                reads[rnd] += 1
            page.wait_for_function("() => document.getElementById('live').getAttribute('data-proposal')")
        if live(page, "data-proposal"):
            shown = json.loads(live(page, "data-proposal"))
            page.click("#panel [data-button=confirm]")
            confirms[rnd] += 1
        else:
            options = page.locator("#prompt [data-input]")
            choice = options.nth(rng.randrange(options.count()))
            shown = json.loads(choice.get_attribute("data-input"))
            choice.click()
            taps[rnd] += 1
        page.wait_for_function("v => document.getElementById('live').getAttribute('data-version') !== v",
                               arg=str(version))
        inputs = session.game.record.inputs
        differ += decision(inputs[version]) != decision(shown)
        auto += sum(i.get("source") == AUTO for i in inputs[version + 1:])
    rounds = range(1, len(session.game.state["vp_history"]) + 1)
    per_round = {"touches": [taps[r] + confirms[r] + reads[r] for r in rounds], "decisions": [taps[r] for r in rounds],
                 "confirms": [confirms[r] for r in rounds], "reads": [reads[r] for r in rounds],
                 "entered when still": [entered[r] for r in rounds]}
    page.context.close()
    server.close()
    return per_round, heights, differ, auto, session.game.version


def render_roll(values, seed):
    """A tray with `values` that the reader reads right (the first such seed from `seed`)."""
    import vision
    for s in range(seed, seed + 50):
        image = vision.render(values, seed=s)
        if sorted(d.value for d in vision.read(image).dice if d.value) == sorted(values):
            return image
    raise RuntimeError(f"no picture of {values} read right")


def still_to_proposal(browser, trials, seed):
    """From the first still frame of a rolled die (or gate roll) to the proposal on the page."""
    import vision
    from companion.table_loop import TableLoop
    from hardware.camera import Camera
    from hardware.supervisor import CameraSupervisor

    class RollingCamera(Camera):
        live = True
        name = "a roll played"

        def __init__(self):
            self.frames, self.i, self.first_still, self.still_at = [], 0, None, None

        def play(self, frames, first_still):
            self.frames, self.i, self.first_still, self.still_at = frames, 0, first_still, None

        def open(self):
            pass

        def close(self):
            pass

        def read(self):
            k = min(self.i, len(self.frames) - 1)
            if k == self.first_still and self.still_at is None:
                self.still_at = time.time()   # the same clock as the page's Date.now()
            self.i += 1
            return self.frames[k].copy()

    class NoPanel:
        def get(self, timeout=None):
            time.sleep(timeout)

        def set_lights(self, state):
            pass

        def beep(self, times=1):
            pass

    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="atlandice-settle-"))
    cam = RollingCamera()
    cam.play([render_roll([1], 1)], None)
    supervisor = CameraSupervisor(cam).start()
    # timed to the proposal: a single die read surely would be entered at once (enter_settled_die)
    session = Session(GameStore(tmp / "g.sqlite3"), load_profile(), camera=supervisor, reader=vision.read,
                      annotate=vision.annotate, encode_png=lambda image: b"", enter_settled_die=False)
    loop = TableLoop(session, NoPanel(), supervisor,
                     watcher_factory=lambda read: vision.SettleWatcher(reader=read)).start()
    server, url = serve(create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp / "instance"}, session=session))
    setup = dict(PLAYERS, tops={"library": "L-high"})
    session.new_game(setup)
    page = open_tablet(browser, url)
    page.evaluate("""() => { window.__mark = null; new MutationObserver(function () {
        var live = document.getElementById('live');
        if (window.__mark === null && live && live.getAttribute('data-proposal')) { window.__mark = Date.now(); }
      }).observe(document.querySelector('main'), {childList: true, subtree: true}); }""")
    latencies = []
    for trial in range(trials):
        gate = trial % 2 == 0
        if gate:
            session.new_game(setup)
            values = [2] + [rng.randint(1, 6) for _ in range(6)]   # a 2: the Library can be visited
        else:
            values = [rng.randint(1, 6)]
        moving = [render_roll([rng.randint(1, 6) for _ in values], 1000 + 10 * trial + k) for k in range(4)]
        still = render_roll(values, 2000 + 10 * trial)
        old = cam.frames[-1]
        page.evaluate("() => { window.__mark = null; }")
        cam.play([old] * 5 + moving + [still] * 15, 9)   # the tray as it was, the roll, the dice still
        page.wait_for_function("() => window.__mark !== null", timeout=10000)
        latencies.append(page.evaluate("() => window.__mark") - cam.still_at * 1000)
        proposal = session.proposal()
        assert sorted(proposal["input"]["dice"] if gate else [proposal["input"]["value"]]) == sorted(values)
        session.confirm()
        if gate:
            session.submit({"type": "pick", "area": "library"})   # its Book goes with it; L-high rolls a die
    loop.stop()
    supervisor.stop()
    page.context.close()
    server.close()
    return latencies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rolls", type=int, default=20, help="rolls timed from still dice to the proposal")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for settles, camera in ((True, "a camera that settles (dice proposed by themselves)"),
                                (False, "READ pressed for every roll")):
            per_round, heights, differ, auto, inputs = play_a_game(browser, args.seed, settles)
            print(f"a 3-player game through the page, {camera}: {len(per_round['touches'])} rounds, {inputs} inputs "
                  f"({auto} entered by the companion: a single option)")
            for what in ("touches", "decisions", "confirms", "reads", "entered when still"):
                values = per_round[what]
                print(f"  {what} per round: median {statistics.median(values):g}, max {max(values)}, "
                      f"total {sum(values)}; each round {values}")
            if settles:
                print("  (target: touches per round, median at most 12)")
            print(f"  page height: median {statistics.median(heights):.0f} px, max {max(heights)} px (1280 px wide)")
            print(f"  inputs that differ from what the screen showed: {differ} (target: 0)")
        latencies = still_to_proposal(browser, args.rolls, args.seed)
        print(f"still dice to the proposal on the page ({len(latencies)} rolls, 5 frames/s): {summary(latencies)} "
              "(target: at most 500 ms)")
        browser.close()


if __name__ == "__main__":
    main()
