"""The whole companion's start time and memory, camera running (the Pi 4 has 2 GB).

Starts `companion serve` on the embedded default (demo camera, mock GPIO, a
fresh SQLite file) as a user would, and prints:
- the time from launch until the page answers (target: under 5 s here);
- the resident memory (RSS) after a demo round: a game set up, dice read by
  the camera READ button ten times, every input of a round made through the
  API, the live stream open (target: under 200 MB).

    python benchmarks/companion_footprint.py
"""

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from process_probe import free_port, rss_mb  # beside this script

ROOT = Path(__file__).resolve().parent.parent
CODE = "246810"
READINGS = 30
STREAMS = 3


def drain(conn: http.client.HTTPConnection) -> None:
    try:
        conn.getresponse().read()
    except (OSError, http.client.HTTPException):
        pass  # the server stopped: the stream ends


class Client:
    def __init__(self, port: int):
        self.port = port
        self.cookie = ""

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"X-Requested-With": "XMLHttpRequest", "Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        conn.close()
        try:
            return response.status, json.loads(data or b"{}")
        except ValueError:
            return response.status, {}


def main() -> None:
    port = free_port()
    data = tempfile.mkdtemp(prefix="atlandice-bench-")
    env = dict(os.environ, ATLANDICE_DATA_DIR=data, ATLANDICE_CAMERA_SOURCE="demo",
               ATLANDICE_GPIO_PIN_FACTORY="mock", ATLANDICE_WEB_PAIRING_CODE=CODE)
    companion = Path(sys.executable).parent / "companion"
    began = time.perf_counter()
    proc = subprocess.Popen([str(companion), "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = Client(port)
    try:
        while True:
            try:
                status, _ = client.call("GET", "/api/state")
                if status == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.perf_counter() - began > 30:
                raise SystemExit("the companion did not start")
            time.sleep(0.02)
        started = time.perf_counter() - began
        print(f"start: the page answers {started:.2f} s after launch (target < 5 s)")
        print(f"memory at start: {rss_mb(proc.pid):.0f} MB resident")

        # Live streams open for the whole demo, as three tablets would have.
        for _ in range(STREAMS):
            stream = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            stream.request("GET", "/api/events")
            threading.Thread(target=drain, args=(stream,), daemon=True).start()

        assert client.call("POST", "/pair", {"code": CODE})[0] == 200
        status, _ = client.call("POST", "/api/game", {"players": ["Ana", "Bruno", "Eric"], "first_player": 0})
        assert status == 201, status
        for _ in range(READINGS):
            client.call("POST", "/api/read")
        inputs = 0
        while True:
            status, snap = client.call("GET", "/api/state")
            prompt = snap["expected"]
            if prompt["kind"] == "gate_roll" and inputs:
                break  # one whole round played
            if prompt["kind"] == "gate_roll":
                inp = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}
            elif prompt["kind"] == "roll":
                inp = {"type": "roll", "value": 3}
            else:
                inp = prompt["options"][0]
            status, _ = client.call("POST", "/api/input", {"input": inp, "version": snap["version"]})
            assert status == 200, (status, inp)
            inputs += 1
        print(f"memory after a demo round ({inputs} inputs, {READINGS} camera readings, {STREAMS} live streams): "
              f"{rss_mb(proc.pid):.0f} MB resident, peak {rss_mb(proc.pid, 'VmHWM'):.0f} MB (target < 200 MB)")
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
