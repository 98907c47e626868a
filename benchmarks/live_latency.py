"""How fast a change reaches every open page (target: within 100 ms on this machine).

Serves the real app with waitress on localhost, opens two pages in headless
Chromium (Debian's /usr/bin/chromium, driven by playwright), makes changes
(a gate roll, then its undo, again and again) and prints, from the moment
before each change: when the live stream's message arrived in each page, and
when the page had redrawn the table.

    python benchmarks/live_latency.py [--changes 40]
"""

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.game_profiles import load_profile  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameStore  # noqa: E402
from web import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
LISTEN = """() => {
  window.__arrived = []; window.__swapped = [];
  new EventSource('/api/events').addEventListener('change', function () { window.__arrived.push(performance.now()); });
  new MutationObserver(function () { window.__swapped.push(performance.now()); })
    .observe(document.querySelector('main'), {childList: true});
}"""


def summary(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[max(0, int(round(0.95 * len(values))) - 1)]
    return f"median {statistics.median(values):.0f} ms, 95th percentile {p95:.0f} ms, max {values[-1]:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--pages", type=int, default=2)
    args = parser.parse_args()
    import waitress
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="atlandice-latency-"))
    session = Session(GameStore(tmp / "g.sqlite3"), load_profile())
    app = create_app({"INSTANCE_PATH": tmp / "instance"}, session=session)
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=12, channel_request_lookahead=1)
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.effective_port}/"
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    arrival, redraw = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = []
        for _ in range(args.pages):
            page = browser.new_context().new_page()
            page.goto(url)
            page.wait_for_selector("#conn.online")
            page.evaluate(LISTEN)
            page.wait_for_function("() => window.__arrived.length >= 1")
            pages.append(page)
        for i in range(args.changes):
            marks = [(pg, pg.evaluate("() => [performance.now(), window.__arrived.length, window.__swapped.length]"))
                     for pg in pages]
            if i % 2 == 0:
                session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, session.game.version)
            else:
                session.undo()
            for page, (t0, n_arrived, n_swapped) in marks:
                page.wait_for_function(f"() => window.__arrived.length > {n_arrived} && "
                                       f"window.__swapped.length > {n_swapped}")
                arrival.append(page.evaluate(f"() => window.__arrived[{n_arrived}]") - t0)
                redraw.append(page.evaluate(f"() => window.__swapped[{n_swapped}]") - t0)
            time.sleep(0.05)  # let the pages settle, as changes at a table come seconds apart
        browser.close()
    server.close()
    print(f"live stream message in the page ({args.changes} changes x {args.pages} pages): {summary(arrival)}")
    print(f"table redrawn in the page: {summary(redraw)}  (target: within 100 ms)")


if __name__ == "__main__":
    main()
