"""Soak: ten tablets on the live stream while a game's inputs flow, for minutes (hardening item 1).

Starts `companion serve` (demo camera, mock GPIO, a fresh data folder) on a free loopback
port, as benchmarks/hardening_probes.py does; pairs --tablets clients, each reading
/api/events?html=1 as the page does (coming back with Last-Event-ID whenever its stream
ends, after the server's `retry`), while one more tablet enters a random Atlandice game's
inputs every --interval seconds (a new game when one ends). Prints the server's peak resident
memory (VmHWM; target under 200 MB whatever the number of tablets and the game's length), its
resident memory every minute, the live delivery time from the moment an input was sent to
each tablet's message for it (median, p95, max), the messages' sizes, the streams' planned
ends and any 503.

    python benchmarks/soak_streams.py [--minutes 10] [--tablets 10] [--interval 0.5] [--seed 5]

Measured (10 tablets, 4 minutes, 468 inputs): before 1fcbef8 peak 223 MB, two tablets refused
(244 503s, 934 deliveries missed), p95 96 ms; at 1fcbef8 peak 119 MB, no 503, none missed,
p95 91 ms.
"""

import argparse
import http.client
import os
import random
import statistics
import sys
import tempfile
import threading
import time

from hardening_probes import CODE, SETUP, Server, next_input  # beside this script
from process_probe import rss_mb


class Tablet(threading.Thread):
    """One page's live stream: (arrival time, change_id) of every message; reconnects as a browser."""

    def __init__(self, port: int, cookie: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.cookie, self.stop = port, cookie, stop
        self.arrivals: list[tuple[float, int]] = []
        self.sizes: list[int] = []
        self.ends = self.refused = self.errors = 0
        self.last_id = None

    def run(self) -> None:
        retry = 1.0
        while not self.stop.is_set():
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            headers = {"Cookie": self.cookie, "Accept": "text/event-stream"}
            if self.last_id:
                headers["Last-Event-ID"] = self.last_id
            try:
                conn.request("GET", "/api/events?html=1&lang=en", headers=headers)
                response = conn.getresponse()
                if response.status == 503:
                    self.refused += 1
                    response.read()
                    time.sleep(2)
                    continue
                event_id = None
                while not self.stop.is_set():
                    line = response.readline()
                    if not line:
                        break                      # the stream ended: come back after `retry`
                    text = line.decode("utf-8").rstrip("\n")
                    if text.startswith("retry: "):
                        retry = int(text[7:]) / 1000
                    elif text.startswith("id: "):
                        event_id = text[4:]
                    elif text.startswith("data: ") and event_id:
                        self.arrivals.append((time.perf_counter(), int(event_id.split(".")[0])))
                        self.sizes.append(len(line))
                        self.last_id = event_id
                self.ends += 1
            except (OSError, http.client.HTTPException, ValueError):
                self.errors += 1
            finally:
                conn.close()
            time.sleep(retry)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[max(0, int(round(q * len(values))) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--tablets", type=int, default=10)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between inputs")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.environ.setdefault("ATLANDICE_WEB_LIVE_STREAMS", str(max(12, args.tablets + 2)))
    server = Server(tempfile.mkdtemp(prefix="atlandice-soak-"))
    stop = threading.Event()
    tablets: list[Tablet] = []
    sent: list[tuple[float, int]] = []
    minutes: list[float] = []
    try:
        server.start()                       # paired: the tablet that enters the inputs
        assert server.call("POST", "/api/game", SETUP)[0] == 201
        for _ in range(args.tablets):
            pairing = Server.__new__(Server)
            pairing.port, pairing.cookie = server.port, ""
            assert pairing.call("POST", "/pair", {"code": CODE})[0] == 200
            tablets.append(Tablet(server.port, pairing.cookie, stop))
        for t in tablets:
            t.start()
        time.sleep(2)
        began = time.perf_counter()
        next_minute = began + 60
        inputs = games = 0
        while time.perf_counter() - began < args.minutes * 60:
            status, snap = server.call("GET", "/api/state?history=0")
            inp = next_input(rng, snap)
            if inp is None:
                server.call("POST", "/api/game", SETUP)
                games += 1
                continue
            t0 = time.perf_counter()
            status, answer = server.call("POST", "/api/input", {"input": inp, "version": snap["version"]})
            if status == 200:
                sent.append((t0, answer["change_id"]))
                inputs += 1
            if time.perf_counter() >= next_minute:
                minutes.append(rss_mb(server.proc.pid))
                next_minute += 60
            time.sleep(args.interval)
        time.sleep(2)
        peak = rss_mb(server.proc.pid, "VmHWM")
        now = rss_mb(server.proc.pid)
    finally:
        stop.set()
        server.stop()
    delays, missed = [], 0
    for t in tablets:
        for t0, cid in sent[:-1]:
            got = next((at for at, c in t.arrivals if c >= cid and at >= t0), None)
            if got is None:
                missed += 1
            else:
                delays.append((got - t0) * 1000)
    sizes = [s for t in tablets for s in t.sizes]
    print(f"soak: {args.tablets} tablets for {args.minutes:g} min, {inputs} inputs ({games} new games) "
          f"every {args.interval:g} s")
    print(f"server resident memory: peak {peak:.0f} MB (target < 200 MB), at the end {now:.0f} MB; "
          f"each minute: {', '.join(f'{m:.0f}' for m in minutes)} MB")
    if delays:
        print(f"live delivery (input sent -> the tablet's message): median {statistics.median(delays):.0f} ms, "
              f"p95 {percentile(delays, 0.95):.0f} ms, max {max(delays):.0f} ms over {len(delays)}; "
              f"missed {missed}")
    if sizes:
        print(f"messages: {len(sizes)}, median {statistics.median(sizes) / 1000:.1f} kB, "
              f"max {max(sizes) / 1000:.1f} kB; streams ended and came back: {sum(t.ends for t in tablets)}; "
              f"503: {sum(t.refused for t in tablets)}; errors: {sum(t.errors for t in tablets)}")


if __name__ == "__main__":
    sys.exit(main())
