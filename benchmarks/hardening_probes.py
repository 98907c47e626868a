"""What a network, a kill and a bad request can do to a game: probes on a real `companion serve`.

Starts `companion serve` (demo camera, mock GPIO, a fresh data folder) on a free
loopback port, as benchmarks/companion_footprint.py does, and prints:
- kill points tried: `kill -9` while inputs stream in, while a request body is
  half sent, and while a record is being loaded; after each restart, the
  acknowledged inputs lost (target 0) and the games left half loaded (target 0);
- bad requests tried per POST route (the 22 that once answered 500, from
  tests/web/bad_requests.py, and seeded random bodies) and any 5xx (target 0),
  and any 4xx that changed the table (target 0);
- notes and exports: inputs sent with a 1 MB note each (refused, target: all, nothing recorded),
  the server's resident memory after them and after three unpaired reads of /api/state; records
  of about 1 MB loaded (kept as they are), and the server's peak over two exports of them all
  (the zip is streamed: target under 200 MB);
- other games on the table (Survive, Atlantis): inputs and record lines whose "type" is a list
  or an object, a bad Atlandice setup, an unknown game, GET /setup?game=x and /profile/x paired
  and not, GET /step on a prompt with no options: any 5xx (target 0), any change (target 0);
- bad rows in the games file (a header not JSON, an input not UTF-8), the spoiled game on the
  table at a restart: whether the companion starts, 5xx over the history pages, both exports,
  /api/games, /setup and resume (target 0);
- the server's peak resident memory over every run (target: under 200 MB).

Loopback only; bounded: about a minute.

    python benchmarks/hardening_probes.py [--kills 12] [--fuzz 40] [--seed 29] [--notes 110] [--records 200]
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from process_probe import free_port, reset_peak, rss_mb  # beside this script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.game_profiles import load_profile  # noqa: E402
from companion.game import Game  # noqa: E402
from companion.games.atlandice.simulate import random_input  # noqa: E402
from tests.web.bad_requests import BAD_REQUESTS, body_for  # noqa: E402

CODE = "246810"
SETUP = {"players": ["Anna", "Bruno", "Eric"], "first_player": 0}
POST_ROUTES = ["/api/input", "/api/undo", "/api/redo", "/api/confirm", "/api/read", "/api/calibrate",
               "/api/game", "/api/resume", "/api/record", "/api/profile", "/api/check/payout",
               "/api/check/final", "/pair", "/unpair"]


class Server:
    """One `companion serve` on a data folder; `kill()` is kill -9, `start()` again is the restart."""

    def __init__(self, data: str):
        self.data, self.port, self.proc, self.cookie, self.peak = data, free_port(), None, "", 0.0

    def start(self) -> None:
        env = dict(os.environ, ATLANDICE_DATA_DIR=self.data, ATLANDICE_CAMERA_SOURCE="demo",
                   ATLANDICE_GPIO_PIN_FACTORY="mock", ATLANDICE_WEB_PAIRING_CODE=CODE)
        # `python -m companion` from the checkout: this tree's code, whatever is installed
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        began = time.perf_counter()
        while True:
            try:
                if self.call("GET", "/api/state")[0] == 200:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.perf_counter() - began > 30:
                raise SystemExit("the companion did not start")
            time.sleep(0.02)
        assert self.call("POST", "/pair", {"code": CODE})[0] == 200

    def kill(self) -> None:
        self.peak = max(self.peak, rss_mb(self.proc.pid, "VmHWM"))
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.peak = max(self.peak, rss_mb(self.proc.pid, "VmHWM"))
            self.proc.terminate()
            self.proc.wait(10)

    def call(self, method: str, path: str, body=None, raw: bytes | None = None,
             content_type: str = "application/json") -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"X-Requested-With": "XMLHttpRequest", "Content-Type": content_type, "Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read()
        finally:
            conn.close()
        cookie = response.getheader("Set-Cookie")
        if cookie and "companion=" in cookie:
            self.cookie = cookie.split(";")[0]
        try:
            return response.status, json.loads(text or b"{}")
        except ValueError:
            return response.status, {}

    def table(self) -> tuple:
        state = self.call("GET", "/api/state?history=0")[1]
        games = self.call("GET", "/api/games")[1]["games"]
        return state["game_id"], state["version"], [(g["id"], g["inputs"]) for g in games]


def next_input(rng: random.Random, snap: dict) -> dict | None:
    prompt = snap["expected"]
    if prompt is None or prompt["kind"] == "over":
        return None
    return random_input(rng, prompt)


def play_until_killed(server: Server, rng: random.Random, seconds: float) -> dict:
    """Inputs as fast as the server takes them; kill -9 after `seconds`. {game id: the highest
    version acknowledged}."""
    acked, stop = {}, threading.Event()

    def player():
        while not stop.is_set():
            try:
                status, snap = server.call("GET", "/api/state?history=0")
                inp = next_input(rng, snap)
                if inp is None:
                    server.call("POST", "/api/game", SETUP)
                    continue
                status, answer = server.call("POST", "/api/input", {"input": inp, "version": snap["version"]})
                if status == 200:
                    acked[answer["game_id"]] = max(acked.get(answer["game_id"], 0), answer["version"])
            except (OSError, http.client.HTTPException, KeyError):
                return       # the server is gone

    thread = threading.Thread(target=player, daemon=True)
    thread.start()
    time.sleep(seconds)
    server.kill()
    stop.set()
    thread.join(10)
    return acked


def half_sent(server: Server, then_kill: bool) -> None:
    """Headers and half an input's body, then the connection closed (or the server killed)."""
    snap = server.call("GET", "/api/state?history=0")[1]
    body = json.dumps({"input": next_input(random.Random(1), snap), "version": snap["version"]}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"POST /api/input HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Requested-With: XMLHttpRequest\r\n"
                  b"Content-Type: application/json\r\nCookie: " + server.cookie.encode()
                  + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:len(body) // 2])
        time.sleep(0.2)
        if then_kill:
            server.kill()


def long_record(seed: int) -> str:
    rng = random.Random(seed)
    game = Game.new(dict(SETUP, profile=load_profile()))
    while game.expected()["kind"] != "over":
        game.apply(random_input(rng, game.expected()))
    return game.record.to_jsonl()


def load_killed(server: Server, record: str, delay: float) -> bool:
    """POST the record and kill -9 after `delay` seconds; True when the answer came first."""
    answered = threading.Event()

    def load():
        try:
            if server.call("POST", "/api/record", raw=record.encode(), content_type="text/plain")[0] == 201:
                answered.set()
        except (OSError, http.client.HTTPException):
            pass

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    time.sleep(delay)
    server.kill()
    thread.join(10)
    return answered.is_set()


def fuzz_body(rng: random.Random) -> tuple[bytes, str]:
    atoms = [None, True, 0, -1, 7, 2 ** 63, 1e400, "", "x", "\ud800", "9" * 5000, "pick", "gate_roll", [], {}]
    def value(depth=0):
        r = rng.random()
        if depth > 3 or r < 0.5:
            return rng.choice(atoms)
        if r < 0.75:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(["input", "type", "players", "counts", "record", "game_id", "code", "version", "x"]):
                value(depth + 1) for _ in range(rng.randint(0, 3))}
    kind = rng.random()
    if kind < 0.6:
        return json.dumps(value()).encode(), "application/json"
    if kind < 0.7:
        n = rng.randint(50, 5000)
        return b"[" * n + b"]" * n, "application/json"
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 80))), rng.choice(["application/json", "text/plain"])


def export_zip(server: Server, path: str) -> tuple[int, int]:
    """GET /games/export.zip into file `path`, read a piece at a time: (HTTP status, its records)."""
    import zipfile

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    conn.request("GET", "/games/export.zip")
    response = conn.getresponse()
    with open(path, "wb") as out:
        while piece := response.read(1 << 20):
            out.write(piece)
    conn.close()
    if response.status != 200:
        return response.status, 0
    with zipfile.ZipFile(path) as z:
        return response.status, sum(n.startswith("records/") for n in z.namelist())


def notes_and_exports(server: Server, rng: random.Random, notes: int, records: int) -> None:
    """Inputs with a 1 MB note each, then unpaired reads; records of about 1 MB, then two exports."""
    server.call("POST", "/api/game", SETUP)
    inputs_before = sum(n for _, n in server.table()[2])
    refused = 0
    for _ in range(notes):
        snap = server.call("GET", "/api/state?history=0")[1]
        if next_input(rng, snap) is None:          # over (only where notes are recorded): a new game
            server.call("POST", "/api/game", SETUP)
            snap = server.call("GET", "/api/state?history=0")[1]
        inp = dict(next_input(rng, snap), note="n" * 1_000_000)      # the body just under the 1 MiB limit
        status, answer = server.call("POST", "/api/input", {"input": inp, "version": snap["version"]})
        refused += status == 400 and answer.get("key") == "input_text_long"
    recorded = sum(n for _, n in server.table()[2]) - inputs_before
    after_notes = rss_mb(server.proc.pid)
    cookie, server.cookie = server.cookie, ""
    for _ in range(3):
        server.call("GET", "/api/state")
    server.cookie = cookie
    after_reads = rss_mb(server.proc.pid)
    print(f"notes: {notes} inputs with a 1 MB note: {refused} refused (input_text_long), {recorded} recorded "
          f"(target 0); resident {after_notes:.0f} MB after them, {after_reads:.0f} MB after three unpaired "
          f"reads of /api/state")

    text = long_record(rng.randrange(1000)).splitlines()
    first = json.loads(text[1])
    filler = 1_000_000 - sum(len(line) + 1 for line in text)
    text[1] = json.dumps(dict(first, note="r" * filler))
    record = "\n".join(text) + "\n"
    loaded = sum(server.call("POST", "/api/record", raw=record.encode(), content_type="text/plain")[0] == 201
                 for _ in range(records))
    pid = server.proc.pid
    server.peak = max(server.peak, rss_mb(pid, "VmHWM"))
    reset_peak(pid)
    before = rss_mb(pid)
    with tempfile.TemporaryDirectory(prefix="atlandice-export-") as folder:
        got = [export_zip(server, os.path.join(folder, "export.zip")) for _ in range(2)]
    peak = rss_mb(pid, "VmHWM")
    print(f"exports: {loaded} of {records} records of {len(record.encode()) / 1e6:.1f} MB loaded; two exports: "
          f"{', '.join(f'HTTP {s} with {n} records' for s, n in got)}; resident {before:.0f} MB before, "
          f"peak {peak:.0f} MB over both (target < 200 MB)")


OTHER_TABLES = {"survive": {"game": "survive", "players": ["Ana", "Bruno"], "first_player": 1},
                "atlantis": {"game": "atlantis", "players": ["Ana", "Bruno"], "first_player": 0, "path": "shuffle"}}


def other_tables(server: Server) -> None:
    """Survive and Atlantis on the table: requests that once answered 500 (items 11, 12)."""
    tried, fives, changed = 0, [], 0
    for game, setup in OTHER_TABLES.items():
        assert server.call("POST", "/api/game", setup)[0] == 201
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", "/api/record", headers={"Cookie": server.cookie})
        record = conn.getresponse().read().decode().rstrip("\n")
        conn.close()
        asks = []
        for shape in (["setup"], {"type": "lay"}, {}):
            asks.append(("POST", "/api/input", {"input": {"type": shape}, "version": 0}, None))
            asks.append(("POST", "/api/record", None, (record + "\n" + json.dumps({"type": shape}) + "\n").encode()))
        asks += [("POST", "/api/game", dict(SETUP, players=["Ana"]), None),
                 ("POST", "/api/game", dict(SETUP, game="chess"), None)]
        for paired in (True, False):
            asks += [("GET", path, paired, None) for path in
                     ("/setup?game=x", "/profile/x", "/step?citizen=0", "/step?citizen=0&cards=blue")]
        for method, path, body, raw in asks:
            before = server.table()
            cookie = server.cookie
            if method == "GET" and body is False:
                server.cookie = ""
            try:
                status, _ = server.call(method, path, None if method == "GET" else body, raw=raw,
                                        content_type="text/plain" if raw else "application/json")
            finally:
                server.cookie = cookie
            tried += 1
            if status >= 500:
                fives.append(f"{status} {game} {method} {path}")
            elif server.table() != before:
                changed += 1
    print(f"other games on the table (Survive, Atlantis): {tried} bad requests, 5xx: {len(fives)} (target 0), "
          f"that changed the table: {changed} (target 0)")
    for line in fives[:10]:
        print("  " + line)


def bad_rows(server: Server) -> None:
    """Spoil two games' rows while the companion is stopped (one the game on the table), restart."""
    import sqlite3
    from companion import paths
    server.stop()
    db = sqlite3.connect(paths.database_path(Path(server.data)))
    ids = [r[0] for r in db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 2")]
    db.execute("UPDATE in_use SET game_id = ?", (ids[0],))
    db.execute("UPDATE games SET header = '{\"format\": ' WHERE id = ?", (ids[0],))
    db.execute("UPDATE inputs SET input = CAST(X'FF' AS BLOB) WHERE game_id = ? AND seq = 0", (ids[1],))
    db.commit()
    db.close()
    try:
        server.start()
    except (SystemExit, AssertionError):
        print("bad rows: the companion did not start (target: it starts with no game)")
        return
    started = server.call("GET", "/api/state?history=0")[1].get("game_id")
    fives, tried = [], 0
    for method, path, body in [("GET", p, None) for p in (
            "/games", "/players", "/dice", "/games/games.csv", "/games/export.zip", "/api/games", "/setup",
            f"/games/{ids[0]}", f"/games/{ids[1]}")] + [("POST", "/api/resume", {}),
                                                        ("POST", "/api/resume", {"game_id": ids[1]})]:
        status, _ = server.call(method, path, body)
        tried += 1
        if status >= 500:
            fives.append(f"{status} {method} {path}")
    print(f"bad rows (a header not JSON on the table's game, an input not UTF-8): the companion started "
          f"with game {started} (target None); {tried} requests, 5xx: {len(fives)} (target 0)"
          + ("; " + ", ".join(fives) if fives else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=12, help="kill -9 points while inputs stream in")
    parser.add_argument("--fuzz", type=int, default=40, help="random bodies per POST route")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--notes", type=int, default=110, help="inputs sent with a 1 MB note each")
    parser.add_argument("--records", type=int, default=200, help="records of about 1 MB loaded, then exported")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    server = Server(tempfile.mkdtemp(prefix="atlandice-probes-"))
    began = time.perf_counter()
    try:
        server.start()
        assert server.call("POST", "/api/game", SETUP)[0] == 201

        lost = acknowledged = 0
        for _ in range(args.kills):
            acked = play_until_killed(server, rng, rng.uniform(0.2, 1.0))
            server.start()
            stored = dict(server.table()[2])
            acknowledged += sum(acked.values())
            lost += sum(max(0, n - stored.get(game_id, 0)) for game_id, n in acked.items())
        print(f"kill -9 during inputs: {args.kills} kill points, {acknowledged} acknowledged inputs checked, "
              f"acknowledged inputs lost: {lost} (target 0)")

        changed = 0
        for then_kill in (False, True, False, True):
            before = server.table()
            half_sent(server, then_kill)
            if then_kill:
                server.start()
            changed += server.table()[:2] != before[:2]
        print(f"half-sent bodies: 4 (2 with kill -9), inputs recorded from them: {changed} (target 0)")

        record = long_record(args.seed)
        loads, answered, half_loaded = 10, 0, 0
        full = len(record.splitlines()) - 1
        for i in range(loads):
            before = server.table()
            answered += load_killed(server, record, rng.uniform(0.0, 0.03))
            server.start()
            game_id, version, games = server.table()
            kept = (game_id, version) == before[:2]
            loaded = version == full and game_id not in [g for g, _ in before[2]]
            half_loaded += not (kept or loaded)
            half_loaded += sum(1 for g, n in games if g not in [b for b, _ in before[2]] and n != full)
        print(f"kill -9 during record loads ({full} inputs): {loads} kill points ({loads - answered} before the "
              f"answer), games left half loaded: {half_loaded} (target 0)")

        # Bad requests: each on a game with one input, checked to change nothing when refused.
        server.call("POST", "/api/game", SETUP)
        per_route, fives, changed = {}, [], 0
        short = record   # a finished game of `full` inputs: line 51 exists
        for name, method, path, template, content_type in BAD_REQUESTS:
            before = server.table()
            body = body_for(template, short, before[1])
            if method == "GET":
                status, _ = server.call("GET", path)
            else:
                status, _ = server.call("POST", path, raw=body.encode(), content_type=content_type)
            route = path.split("?")[0]
            per_route[route] = per_route.get(route, 0) + 1
            if status >= 500:
                fives.append(f"{status} {name}")
            elif status >= 400 and server.table() != before:
                changed += 1
        for route in POST_ROUTES:
            for _ in range(args.fuzz):
                raw, content_type = fuzz_body(rng)
                before = server.table()
                status, _ = server.call("POST", route, raw=raw, content_type=content_type)
                per_route[route] = per_route.get(route, 0) + 1
                if status >= 500:
                    fives.append(f"{status} {route} {raw[:60]!r}")
                elif status >= 400 and server.table() != before:
                    changed += 1
                if route == "/unpair":
                    server.call("POST", "/pair", {"code": CODE})
        print("bad requests per route: " + ", ".join(f"{r} {n}" for r, n in sorted(per_route.items())))
        print(f"bad requests: {sum(per_route.values())} tried, 5xx: {len(fives)} (target 0), "
              f"4xx that changed the table: {changed} (target 0)")
        for line in fives[:10]:
            print("  " + line)

        other_tables(server)
        notes_and_exports(server, rng, args.notes, args.records)
        bad_rows(server)
    finally:
        server.stop()
    print(f"server peak resident memory over every run: {server.peak:.0f} MB (target < 200 MB); "
          f"{time.perf_counter() - began:.0f} s in all")


if __name__ == "__main__":
    main()
