"""What a network, a bad cookie and a bad picture can do to a running companion (loopback only).

Starts `companion serve` on a free 127.0.0.1 port with a fresh data folder, a
configured pairing code and a folder camera, as a user would, and prints:
- access attempts (no, forged, legacy, stale, revoked cookies, before and after a
  restart; wrong pairing codes; cross-site, Host and local-only refusals) and any
  that changed the game or reached the device's screen (target: 0);
- whether the table's tablet still pairs while another client guesses codes;
- whether a page loads with 150 idle half-open connections open, and with 20 live
  streams that nobody reads, and whether a paired tablet still gets its stream;
- slow heads: 14 addresses x 30 connections, each sending a header line every 5 s,
  and how many of 5 reads a paired tablet gets meanwhile (target 5);
- wrong codes from 1,100 addresses: how many were checked (the global bound), and
  whether a locked-out guesser got its right code in afterwards (target: no);
- the server's memory peak while reading the largest picture a camera sends
  (4056 x 3040), and while refusing an image bomb dropped in the camera folder
  (30000 x 30000 declared), and `vision read` on that bomb (target: under 200 MB).

Bounded: at most a few hundred loopback connections, about a minute in all.
Other loopback addresses (127.0.0.2 ...) play the other machines on the network.

    python benchmarks/access_probes.py
"""

import http.client
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path


import cv2
import numpy as np

from process_probe import free_port, reset_peak, rss_mb  # beside this script

ROOT = Path(__file__).resolve().parent.parent
CODE = "246810"
SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}
IDLE = 150
STREAMS = 20


class Client:
    """One browser: its address (a loopback one) and its cookie."""

    def __init__(self, port: int, source: str = "127.0.0.1", cookie: str = ""):
        self.port, self.source, self.cookie = port, source, cookie

    def call(self, method: str, path: str, body=None, headers=None, xhr: bool = True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.source, 0))
        h = {"Content-Type": "application/json"}
        if xhr:
            h["X-Requested-With"] = "XMLHttpRequest"
        if self.cookie:
            h["Cookie"] = self.cookie
        h.update(headers or {})
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
        r = conn.getresponse()
        r.read()                    # the whole answer, before the connection closes
        cookie = r.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        conn.close()
        return r.status

    def state(self) -> dict:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.source, 0))
        conn.request("GET", "/api/state")
        data = json.loads(conn.getresponse().read())
        conn.close()
        return data

    def pair(self) -> bool:
        return self.call("POST", "/pair", {"code": CODE}) == 200


class Companion:
    def __init__(self, data: str, camera: str):
        self.data, self.camera = data, camera
        self.port = free_port()
        self.proc = None

    def start(self) -> "Companion":
        env = dict(os.environ, ATLANDICE_DATA_DIR=self.data, ATLANDICE_CAMERA_SOURCE="folder",
                   ATLANDICE_CAMERA_FOLDER=self.camera, ATLANDICE_GPIO_PIN_FACTORY="mock",
                   ATLANDICE_WEB_PAIRING_CODE=CODE)
        # `-m companion` from this checkout: the code measured is the code beside this script.
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port)], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        began = time.monotonic()
        while True:
            try:
                if Client(self.port).call("GET", "/api/state") == 200:
                    return self
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() - began > 30:
                raise SystemExit("the companion did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def signed_cookie(data_dir: str, content: dict) -> str:
    """A session cookie signed with the companion's real key (as a copy of an old cookie would be)."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface
    app = Flask("probe")
    app.secret_key = (Path(data_dir) / "instance" / "secret_key").read_text().strip()
    return "companion=" + SecureCookieSessionInterface().get_signing_serializer(app).dumps(content)


def probe_access(c: Companion) -> list[tuple[str, bool]]:
    """(what was tried, whether it got through) for each attempt."""
    port, out = c.port, []

    def changes(client: Client) -> bool:
        return client.call("POST", "/api/game", SETUP) == 201

    out.append(("no cookie", changes(Client(port))))
    out.append(("forged cookie", changes(Client(port, cookie="companion=eyJkZXZpY2UiOiJ4In0.Zz.forged"))))
    out.append(("legacy cookie {paired: true}, signed with the real key",
                changes(Client(port, cookie=signed_cookie(c.data, {"paired": True, "_permanent": True})))))
    out.append(("guessed device secret, signed with the real key",
                changes(Client(port, cookie=signed_cookie(c.data, {"tablet": "0" * 43})))))
    tablet = Client(port)
    assert tablet.pair() and changes(tablet)
    copy = Client(port, cookie=tablet.cookie)
    tablet.call("POST", "/unpair")
    out.append(("stale cookie (a copy, after /unpair)", changes(copy)))
    return out


def probe_wrong_codes(port: int) -> tuple[int, int, bool, int]:
    """(wrong codes tried, accepted, the tablet paired meanwhile, the guesser's right code status)."""
    guesser = Client(port, source="127.0.0.2")
    tried = accepted = 0
    for n in range(30):
        guess = f"{n:06d}"
        if guess == CODE:
            continue
        tried += 1
        accepted += guesser.call("POST", "/pair", {"code": guess}) == 200
    right = guesser.call("POST", "/pair", {"code": CODE})
    return tried, accepted, Client(port).pair(), right


def probe_refusals(port: int) -> list[tuple[str, bool]]:
    paired = Client(port)
    paired.pair()
    away = Client(port, source="127.0.0.2", cookie=paired.cookie)
    return [
        ("POST without X-Requested-With or form token", paired.call("POST", "/api/game", SETUP, xhr=False) == 201),
        ("POST from a foreign Origin", paired.call("POST", "/api/game", SETUP,
                                                   headers={"Origin": "http://evil.example.com"}) == 201),
        ("POST with a foreign Host (DNS rebinding)", paired.call("POST", "/api/game", SETUP,
                                                                 headers={"Host": "evil.example.com"}) == 201),
        ("GET with a foreign Host", paired.call("GET", "/api/state", headers={"Host": "evil.example.com"}) == 200),
        ("the tablets' page from another machine", away.call("GET", "/tablets") == 200),
        ("unpair every tablet from another machine", away.call("POST", "/tablets/remove", {"tablet": "all"}) == 200),
        ("open a pairing window from another machine", away.call("POST", "/tablets/window") == 200),
    ]


def page_loads(port: int, source: str = "127.0.0.1") -> tuple[bool, float]:
    began = time.monotonic()
    try:
        ok = Client(port, source=source).call("GET", "/") == 200
    except OSError:
        ok = False
    return ok, time.monotonic() - began


def half_open(port: int, count: int, sources: list[str]) -> list[socket.socket]:
    """`count` connections that send half a request line and then nothing."""
    out = []
    for i in range(count):
        s = socket.socket()
        s.settimeout(5)
        s.bind((sources[i % len(sources)], 0))
        try:
            s.connect(("127.0.0.1", port))
            s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            pass
        out.append(s)
    return out


def still_open(sockets) -> int:
    n = 0
    for s in sockets:
        s.setblocking(False)
        try:
            n += s.recv(1) != b""
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


def idle_streams(port: int, count: int) -> tuple[list[socket.socket], int]:
    """`count` live streams from as many addresses, never read; how many were let in."""
    out, let_in = [], 0
    for i in range(count):
        s = socket.socket()
        s.settimeout(5)
        s.bind((f"127.0.0.{10 + i}", 0))
        s.connect(("127.0.0.1", port))
        s.send(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        head = s.recv(64)
        let_in += head.startswith(b"HTTP/1.1 200")
        out.append(s)
    return out, let_in


def tablet_stream(port: int, tablet: Client) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/events", headers={"Cookie": tablet.cookie})
    status = conn.getresponse().status
    conn.close()
    return status


def bomb_png(side: int = 30000) -> bytes:
    """A real image bomb: a PNG of side x side black pixels, about 2.6 MB (zlib of zeros, built by
    repeating one fully flushed block instead of compressing 2.7 GB)."""
    row = b"\0" * (side * 3 + 1)
    block_rows = 100
    block = row * block_rows
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    assert side % block_rows == 0
    adler = 1
    for _ in range(side // block_rows):
        adler = zlib.adler32(block, adler)
    body = b"\x78\xda" + first + again * (side // block_rows - 1) + c.flush() + struct.pack(">I", adler)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def largest_frame() -> np.ndarray:
    """The HQ camera's full 4056 x 3040, from a demo picture, with sensor-like noise."""
    img = cv2.imread(str(ROOT / "hardware" / "demo_frames" / "02-roll.jpg"))
    big = cv2.resize(img, (4056, 3040), interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(0).integers(-6, 7, big.shape, dtype=np.int16)
    return np.clip(big.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def vision_read_peak(path: Path) -> tuple[int, float, float, str]:
    """`vision read PATH`: its exit status, time, own memory peak (MB) and what it said."""
    began = time.monotonic()
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent through exec.
    run = ("import sys\nfrom vision.__main__ import main\ncode = main(sys.argv[1:])\n"
           "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n"
           "sys.exit(code)")
    p = subprocess.run([sys.executable, "-c", run, "read", str(path)], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    peak = int(p.stdout.strip().splitlines()[-1]) / 1024
    return p.returncode, time.monotonic() - began, peak, p.stderr.strip()


def slow_heads(c: Companion, addresses: int = 14, per_address: int = 30, seconds: float = 25) -> tuple[int, int, int]:
    """`addresses` x `per_address` connections sending a header line every 5 s, reconnecting when
    closed; a paired tablet (its own address) reads 5 times meanwhile. (held at the end, reads
    answered, connections the server closed)."""
    tablet = Client(c.port, source="127.0.0.200")
    assert tablet.pair()
    time.sleep(0.2)
    socks, closed = [], 0

    def opened(source):
        s = socket.socket()
        s.settimeout(2)
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", c.port))
            s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            pass
        return s

    sources = [f"127.0.1.{i + 1}" for i in range(addresses)]
    socks = [(src, opened(src)) for src in sources for _ in range(per_address)]
    began, reads, next_line = time.monotonic(), 0, time.monotonic()
    read_at = [began + 5 + 4 * i for i in range(5)]
    while time.monotonic() - began < seconds:
        if time.monotonic() >= next_line:
            next_line += 5
            for i, (src, s) in enumerate(socks):
                try:
                    s.send(b"X-Slow: 1\r\n")
                except OSError:
                    s.close()
                    closed += 1
                    socks[i] = (src, opened(src))      # the attacker comes straight back
        if read_at and time.monotonic() >= read_at[0]:
            read_at.pop(0)
            try:
                reads += tablet.call("GET", "/api/state") == 200
            except OSError:
                pass
        time.sleep(0.1)
    held = still_open([s for _, s in socks])
    for _, s in socks:
        s.close()
    return held, reads, closed


def many_guessers(port: int, addresses: int = 1100) -> tuple[int, int, int, bool]:
    """One guesser locked out, then one wrong code from each of `addresses` others: (wrong codes
    answered 403, i.e. checked; answered 429; the locked guesser's right code status afterwards;
    whether the table's tablet pairs after a new window shown on the device)."""
    guesser = Client(port, source="127.0.2.1")
    for n in range(6):
        guesser.call("POST", "/pair", {"code": f"{n:06d}"})
    checked = waited = 0
    for i in range(addresses):
        status = Client(port, source=f"127.1.{i // 250}.{i % 250 + 1}").call("POST", "/pair", {"code": "000001"})
        checked += status == 403
        waited += status == 429
    right = guesser.call("POST", "/pair", {"code": CODE})
    Client(port).call("POST", "/tablets/window")            # physical presence, on the device itself
    return checked, waited, right, Client(port, source="127.0.2.9").pair()


def main() -> None:
    try:
        socket.socket().bind(("127.0.0.2", 0))
    except OSError:
        raise SystemExit("needs the loopback addresses 127.0.0.2 and up (Linux has them)")
    data, camera = tempfile.mkdtemp(prefix="atlandice-probe-"), tempfile.mkdtemp(prefix="atlandice-camera-")
    bomb = bomb_png()
    (Path(camera) / "01-warm.jpg").write_bytes((ROOT / "hardware" / "demo_frames" / "02-roll.jpg").read_bytes())
    (Path(camera) / "02-bomb.png").write_bytes(bomb)
    cv2.imwrite(str(Path(camera) / "03-largest.png"), largest_frame())
    largest_bytes = (Path(camera) / "03-largest.png").stat().st_size

    c = Companion(data, camera).start()
    try:
        attempts = probe_access(c)
        # Revoked: one device removed on the device's own screen, another kept.
        removed, kept = Client(c.port), Client(c.port)
        removed.pair(), kept.pair()
        Client(c.port).call("POST", "/tablets/remove", {"tablet": "all"})
        kept.pair()
        attempts.append(("revoked cookie (removed on /tablets)", removed.call("POST", "/api/game", SETUP) == 201))
        tried, accepted, tablet_paired, right = probe_wrong_codes(c.port)
        refusals = probe_refusals(c.port)
    finally:
        c.stop()
    c.start()  # the same data folder: a restart
    try:
        attempts.append(("revoked cookie, after a restart", removed.call("POST", "/api/game", SETUP) == 201))
        kept_works = kept.call("POST", "/api/game", SETUP) == 201
        for name, got_in in attempts + refusals:
            print(f"  {'GOT IN' if got_in else 'refused'}: {name}")
        print(f"  wrong pairing codes from one client: {tried} tried, {accepted} accepted; its right code "
              f"afterwards: HTTP {right}; the table's tablet paired meanwhile: {'yes' if tablet_paired else 'NO'}")
        got_in = sum(g for _, g in attempts + refusals) + accepted
        print(f"access: {len(attempts) + len(refusals) + tried} attempts, {got_in} got in (target 0); "
              f"a kept device still works after the restart: {'yes' if kept_works else 'NO'}")

        # Idle connections: half a request line, then nothing.
        one = half_open(c.port, IDLE, ["127.0.0.2"])
        ok, took = page_loads(c.port)
        time.sleep(0.5)
        print(f"{IDLE} idle half-open connections from one address: a page loads: {'yes' if ok else 'NO'} "
              f"({took * 1000:.0f} ms); the server kept {still_open(one)} of them open")
        many = half_open(c.port, IDLE, [f"127.0.0.{i}" for i in range(2, 12)])
        ok, took = page_loads(c.port)
        print(f"{IDLE} more from 10 addresses: a page loads: {'yes' if ok else 'NO'} ({took * 1000:.0f} ms)")
        time.sleep(25)
        print(f"25 s later the server has closed all but {still_open(one + many)} of the {2 * IDLE}")
        for s in one + many:
            s.close()

        streams, let_in = idle_streams(c.port, STREAMS)
        ok, took = page_loads(c.port)
        tablet = Client(c.port)
        tablet.pair()
        print(f"{STREAMS} live streams nobody reads: {let_in} let in, the rest told to retry; a page loads: "
              f"{'yes' if ok else 'NO'} ({took * 1000:.0f} ms); a paired tablet's stream: HTTP "
              f"{tablet_stream(c.port, tablet)}")
        for s in streams:
            s.close()

        held, reads, closed = slow_heads(c)
        print(f"slow heads: 14 addresses x 30 connections, a header line every 5 s: a paired tablet's reads "
              f"answered {reads} of 5 (target 5); the server closed {closed} (each reopened), {held} held at the end")
        checked, waited, right, paired = many_guessers(c.port)
        print(f"wrong codes from 1,100 addresses: {checked} checked, {waited} told to wait (a global bound); the "
              f"locked-out guesser's right code afterwards: HTTP {right} (target 429); after a new window on the "
              f"device the table's tablet pairs: {'yes' if paired else 'NO'}")

        # Pictures: READ takes the folder's next one: 01-warm.jpg, 02-bomb.png, 03-largest.png.
        reader = Client(c.port)
        reader.pair()
        reader.call("POST", "/api/game", SETUP)
        reader.call("POST", "/api/read")  # the nets loaded, a demo picture read
        pid = c.proc.pid
        base = rss_mb(pid)
        reset_peak(pid)
        status = reader.call("POST", "/api/read")  # the bomb
        bomb_peak = rss_mb(pid, "VmHWM")
        camera_said = reader.state()["camera"]
        camera_said = f"{camera_said['status']}: {camera_said['error']}"
        reset_peak(pid)
        status2 = reader.call("POST", "/api/read")  # the largest picture
        large_peak = rss_mb(pid, "VmHWM")
        print(f"server memory: {base:.0f} MB resident before; peak {bomb_peak:.0f} MB refusing the "
              f"{len(bomb) / 1e6:.1f} MB image bomb (30000 x 30000 declared; READ: HTTP {status}); peak "
              f"{large_peak:.0f} MB reading the largest camera picture (4056 x 3040 PNG, "
              f"{largest_bytes / 1e6:.0f} MB; READ: HTTP {status2}) (target < 200 MB)")
        print(f"the camera after the bomb: {camera_said}")
    finally:
        c.stop()
    code, took, peak, said = vision_read_peak(Path(camera) / "02-bomb.png")
    print(f"vision read on the bomb: exit {code} in {took:.1f} s, peak {peak:.0f} MB: {said}")


if __name__ == "__main__":
    main()
