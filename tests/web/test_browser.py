"""End to end in a real headless Chromium (Debian's /usr/bin/chromium) against waitress.

Set up a 3-player game and play a whole round by taps, watch a second tablet
follow live, undo, see an empty-District payout explained, load a record, and
photograph the end-of-game breakdown (UPDATE_SCREENSHOT=1 writes it to
docs/screenshot.png). Waits are on page conditions, never sleeps.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import threading
import time
from pathlib import Path

import pytest

from companion.game_profiles import load_profile
from companion.game import Game
from companion.games.atlandice.simulate import random_input, random_setup
from companion.session import Session
from companion.store import GameStore
from web import create_app

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CODE = "135790"
ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _need_browser():
    ci = os.environ.get("CI", "").lower() == "true"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if ci:
            pytest.fail("playwright is not installed (CI=true: browser tests must run)")
        pytest.skip("playwright is not installed: pip install playwright (no `playwright install` needed)")
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        if ci:
            pytest.fail(f"{CHROMIUM} is missing (CI=true: .ci/run installs Debian's chromium)")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium to run the browser tests")


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    """The real app on waitress, on a free localhost port, in a thread."""
    store = GameStore(tmp_path / "g.sqlite3")
    session = Session(store, load_profile())
    app = create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance", "SSE_HEARTBEAT": 15,
                      "SSE_MAX_STREAMS": 4}, session=session)
    with serve(app) as url:
        yield url, session
    store.close()


@contextlib.contextmanager
def serve(app):
    """`app` on waitress in a thread, on a free localhost port."""
    import waitress
    srv = waitress.create_server(app, host="127.0.0.1", port=0, threads=12, channel_request_lookahead=1)
    threading.Thread(target=srv.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.effective_port}"
    finally:
        # Closed in the server's own loop thread: closed from here, its select() saw a closed file.
        srv.trigger.pull_trigger(srv.close)


def tablet(browser, url, paired=True, lang="en-GB", size=(1280, 900), home=True, **context):
    """A browser tab on the companion, paired with the code unless `paired` is false, showing the
    table page (`home`) or still the pairing page."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang, **context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if paired:
        page.goto(url + "/pair")
        page.fill("input[name=code]", CODE)
        page.click("#pair-form button[type=submit]")
        page.wait_for_selector(".pairstate.ok")
    if home:
        page.goto(url + "/")
        page.wait_for_selector("#conn.online")
    return page


def version(page) -> str:
    return page.get_attribute("#live", "data-version")


def wait_version_change(page, before: str, timeout=15000):
    page.wait_for_function(
        "v => { var l = document.getElementById('live'); return l && l.getAttribute('data-version') !== v; }",
        arg=before, timeout=timeout)


def tap_dice(page, faces):
    before = version(page)
    for face in faces:
        page.click(f"#dice-entry [data-face='{face}']")
    page.click("#dice-enter")
    wait_version_change(page, before)


def tap_first_choice(page):
    """One tap on the first legal choice the page shows (a die face for a roll)."""
    before = version(page)
    page.locator("#prompt [data-input]").first.click()
    wait_version_change(page, before)


def kind(page) -> str:
    return page.get_attribute("#live", "data-kind")


def option_json(option: dict) -> str:
    return json.dumps(option, separators=(",", ":"))


def test_a_round_by_taps_live_on_a_second_tablet_with_undo(browser, server):
    url, session = server
    a = tablet(browser, url)
    # Setup by taps: three names in seat order, Bruno first.
    a.goto(url + "/setup")
    for i, name in enumerate(["Anna", "Bruno", "Eric"]):
        a.fill(f"input[name=player{i}]", name)
    a.check("input[name=first][value='1']")
    a.check("input[name='opt:tops.library'][value='\"L-second\"']")
    a.click("#setup-start")
    a.wait_for_selector("#prompt-title:has-text('Bruno: roll all 7 dice')")
    assert session.game.state["first"] == 1
    assert session.game.state["districts"]["library"]["top"] == "L-second"

    b = tablet(browser, url, paired=False)          # a second tablet, watching
    assert "Watching only" in b.inner_text("#live")
    assert b.get_attribute("#live", "data-version") == "0"

    # Open the Gates, then every pick, resource and effect of the round, by taps.
    tap_dice(a, [1, 2, 3, 4, 5, 6, 2])
    b.wait_for_selector("#latest:has-text('the gates open')", timeout=5000)  # how fast: benchmarks/live_latency.py
    taps = 0
    while kind(a) != "gate_roll":
        tap_first_choice(a)
        taps += 1
        assert taps < 80
    assert "Round 2" in a.inner_text("#prompt")
    b.wait_for_function("() => document.getElementById('live').getAttribute('data-kind') === 'gate_roll'")
    assert b.get_attribute("#live", "data-version") == a.get_attribute("#live", "data-version")
    # Six dice were taken, two per player; the clock moved.
    assert session.game.state["round"] == 2
    assert session.game.state["clock"] > 0
    assert len(session.game.state["vp_history"]) == 1
    history = a.inner_text("#history")
    assert history.count("takes a die") >= 6

    # UNDO takes the last input back, on both tablets.
    before = version(a)
    a.click("#panel [data-button=undo]")
    wait_version_change(a, before)
    assert int(version(a)) == int(before) - 1
    b.wait_for_function("v => document.getElementById('live').getAttribute('data-version') === v",
                        arg=version(a))
    assert session.game.redo_stack
    # REDO puts it back.
    before = version(a)
    a.click("#panel [data-button=redo]")
    wait_version_change(a, before)
    assert int(version(a)) == int(before) + 1

    # The watcher cannot play: its buttons are inert and the API refuses it.
    status = b.evaluate("""() => new Promise(function (resolve) {
        var x = new XMLHttpRequest(); x.open('POST', '/api/undo'); x.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
        x.setRequestHeader('Content-Type', 'application/json');
        x.onload = function () { resolve(x.status); }; x.send('{}'); })""")
    assert status == 403
    assert not a.errors and not b.errors


def record_before_an_empty_district(seed=5):
    """A 3-player record stopped just before an input that empties a District, and that input."""
    rng = random.Random(seed)
    profile = load_profile()
    for _ in range(50):
        setup = random_setup(rng, 3, profile)
        setup["players"] = ["Anna", "Bruno", "Eric"]
        game = Game.new(setup)
        while game.expected()["kind"] != "over":
            expected = game.expected()
            inp = random_input(rng, expected)
            before = game.record.to_jsonl()
            events = game.apply(inp)
            if expected["kind"] not in ("gate_roll", "roll") and any(e["key"] == "empty.district" for e in events):
                assert inp in expected["options"]  # a random choice among the options, sent as is
                return before, inp, events
    raise AssertionError("no empty District found")


def finished_record(seed=7, humans=3):
    rng = random.Random(seed)
    setup = random_setup(rng, humans, load_profile())
    setup["players"] = ["Anna", "Bruno", "Eric", "Lola"][:humans]
    game = Game.new(setup)
    while game.expected()["kind"] != "over":
        game.apply(random_input(rng, game.expected()))
    return game.record.to_jsonl(), game.state


def load_record_by_page(page, url, tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page.goto(url + "/setup")
    page.set_input_files("#record-file", str(path))
    page.click("#record-form button[type=submit]")
    page.wait_for_url(url + "/")
    page.wait_for_selector("#conn.online")


def test_an_empty_district_payout_is_explained(browser, server, tmp_path):
    url, session = server
    text, option, events = record_before_an_empty_district()
    a = tablet(browser, url)
    b = tablet(browser, url, paired=False)
    load_record_by_page(a, url, tmp_path, text, "before-empty.jsonl")
    b.wait_for_function("v => document.getElementById('live').getAttribute('data-version') === v",
                        arg=version(a))
    before = version(a)
    a.click(f"#prompt [data-input='{option_json(option)}']")
    wait_version_change(a, before)
    latest = a.inner_text("#latest")
    assert "is empty!" in latest
    explained = a.inner_text("#explanations")
    assert "is empty!" in explained and "held:" in explained
    # The ruling or rule that decided it is named, and the counts are there.
    empty = next(e for e in events if e["key"] == "empty.district")
    assert all(str(n) in explained for n in empty["params"]["counts"])
    b.wait_for_selector("#latest:has-text('is empty!')", timeout=2000)
    assert not a.errors and not b.errors


def test_the_end_of_game_breakdown_in_portuguese(browser, server, tmp_path):
    url, session = server
    text, state = finished_record()
    a = tablet(browser, url)
    load_record_by_page(a, url, tmp_path, text, "finished.jsonl")
    a.wait_for_selector("#final .breakdown")
    final = a.inner_text("#final")
    for total in state["result"]["total"]:
        assert str(total) in final
    assert a.locator("#final svg.chart polyline").count() == 3
    a.goto(url + "/?lang=pt-BR")
    a.wait_for_selector("#final:has-text('Contagem final')")
    assert "Joias" in a.inner_text("#final")
    a.goto(url + "/?lang=en")
    a.wait_for_selector("#final:has-text('Final scoring')")
    shot = tmp_path / "final.png"
    a.locator("#final").screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOT"):
        a.set_viewport_size({"width": 1100, "height": 1400})
        a.evaluate("window.scrollTo(0, 0)")
        a.screenshot(path=str(ROOT / "docs" / "screenshot.png"))
    assert not a.errors


def test_the_page_says_offline_while_the_stream_is_down(browser, server):
    url, session = server
    session.new_game({"players": ["Anna", "Bruno"], "first_player": 0})
    a = tablet(browser, url, paired=False)
    a.context.route("**/api/events*", lambda route: route.abort())
    a.reload()
    a.wait_for_selector("#conn.offline")
    assert "Offline" in a.inner_text("#conn")
    a.context.unroute("**/api/events*")
    a.wait_for_selector("#conn.online", timeout=10000)


def test_the_check_page_with_no_game(browser, server):
    url, _ = server
    a = tablet(browser, url, paired=False)
    a.goto(url + "/check")
    for i, (name, n) in enumerate([("Anna", 3), ("Bruno", 3), ("Eric", 1), ("Lola", 0)]):
        a.fill(f"#check-payout input[name=name{i}]", name)
        a.fill(f"#check-payout input[name=count{i}]", str(n))
    a.click("#check-payout button[type=submit]")
    a.wait_for_selector("#payout-result")
    assert "tie for the most" in a.inner_text("#payout-result")


@pytest.fixture
def camera_server(tmp_path):
    """The same, with a camera whose first reading has an unsure die and the next none."""
    from .fakes import FakeCamera, annotate, encode_png, reader
    store = GameStore(tmp_path / "g.sqlite3")
    camera = FakeCamera([[1, 2, None, 4, 5, 6, 2], [6, 5, 4, 3, 2, 1, 1]])
    session = Session(store, load_profile(), camera=camera, reader=reader, annotate=annotate,
                      encode_png=encode_png)
    app = create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance", "SSE_HEARTBEAT": 0.5},
                     session=session)
    with serve(app) as url:
        yield url, session
    store.close()


def test_a_camera_reading_is_corrected_by_taps_or_confirmed(browser, camera_server):
    url, session = camera_server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    a = tablet(browser, url)
    a.click("#panel [data-button=read]")
    a.wait_for_selector("#reading .read-die.unsure")
    assert a.locator("#reading img.camera-img").count() == 1
    # The reading is proposed in the dice entry; the unsure die is marked and must be typed.
    a.wait_for_selector("#slots .slot.unsure")
    assert [a.inner_text(f"#slots [data-slot='{i}']") for i in range(7)] == ["1", "2", "?", "4", "5", "6", "2"]
    assert a.is_disabled("#dice-enter") and a.is_disabled("#panel [data-button=confirm]")
    a.click("#slots [data-slot='2']")
    a.click("#dice-entry [data-face='3']")
    a.wait_for_selector("#dice-enter:enabled", timeout=5000)   # the tap goes to the server first
    before = version(a)
    a.click("#dice-enter")
    wait_version_change(a, before)
    assert session.game.record.inputs[0] == {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2], "source": "corrected"}
    # Take it back; a clean reading goes in with CONFIRM, as on the panel.
    before = version(a)
    a.click("#panel [data-button=undo]")
    wait_version_change(a, before)
    a.click("#panel [data-button=read]")
    a.wait_for_selector("#proposal:has-text('6 5 4 3 2 1 1')")
    before = version(a)
    a.click("#panel [data-button=confirm]")
    wait_version_change(a, before)
    assert session.game.record.inputs[0]["source"] == "camera"
    assert not a.errors


LISTEN = """() => {
  window.__arrived = [];
  window.__swapped = [];
  var src = new EventSource('/api/events');
  src.addEventListener('change', function () { window.__arrived.push(performance.now()); });
  new MutationObserver(function () { window.__swapped.push(performance.now()); })
    .observe(document.querySelector('main'), {childList: true});
}"""


def test_every_change_reaches_every_open_page(browser, server):
    """Each change arrives on the stream and redraws every open page (how fast: benchmarks/live_latency.py)."""
    url, session = server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    pages = [tablet(browser, url, paired=False) for _ in range(2)]
    for page in pages:
        page.evaluate(LISTEN)
        page.wait_for_function("() => window.__arrived.length >= 1")
    for i in range(6):
        marks = [(p, p.evaluate("() => [window.__arrived.length, window.__swapped.length]")) for p in pages]
        if i % 2 == 0:
            session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, session.game.version)
        else:
            session.undo()
        for page, (n_arrived, n_swapped) in marks:
            page.wait_for_function(f"() => window.__arrived.length > {n_arrived} && window.__swapped.length > {n_swapped}")
            assert version(page) == str(session.game.version)


def test_a_closed_page_gives_its_stream_back(browser, server):
    """Streams are capped (4 here); closing pages frees them long before the 15 s heartbeat."""
    url, session = server
    pages = [tablet(browser, url, paired=False) for _ in range(4)]
    for page in pages:
        page.context.close()
    start = time.monotonic()
    fresh = browser.new_context().new_page()
    fresh.goto(url + "/")
    fresh.wait_for_selector("#conn.online", timeout=4000)  # a held slot would answer 503 (offline)
    assert time.monotonic() - start < 4


def test_the_board_profile_editor_and_a_refused_setup(browser, server):
    url, session = server
    a = tablet(browser, url)
    a.goto(url + "/profile")
    spaces = a.locator("#track li").count()
    a.click("#add-space")
    assert a.locator("#track li").count() == spaces + 1
    a.locator("#track li").nth(spaces - 1).locator("select").select_option("donation")
    a.select_option("select[data-tile='market']", "1")
    a.check("#confirmed")
    a.click("#profile-form button[type=submit]")
    a.wait_for_selector("#toast.ok")
    assert session.profile_of("atlandice")["confirmed"] is True
    assert session.profile_of("atlandice")["icons"]["market"] == 1
    assert len(session.profile_of("atlandice")["track"]) == spaces + 1
    assert session.profile_of("atlandice")["track"][-2] == "donation" and session.profile_of("atlandice")["track"][-1] == "end"
    # A setup the rules refuse is explained and starts nothing.
    a.goto(url + "/setup")
    a.fill("input[name=player0]", "Anna")
    a.fill("input[name=player1]", "anna")
    a.click("#setup-start")
    a.wait_for_selector("#toast.error:has-text('different')")
    assert session.game is None
    assert not a.errors


def test_the_panel_buttons_are_on_the_keyboard_too(browser, server):
    """U undoes, D redoes, as the panel's UNDO and its long hold; nothing happens while typing."""
    url, session = server
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, 0)
    page = tablet(browser, url)
    before = version(page)
    page.keyboard.press("u")
    wait_version_change(page, before)
    assert session.game.version == 0
    before = version(page)
    page.keyboard.press("d")
    wait_version_change(page, before)
    assert session.game.version == 1


def test_an_open_page_follows_the_companion_after_a_restart(browser, tmp_path):
    """A restarted companion counts its changes from 0 again: the open page must still take
    its tables (it once kept the old one, "live", until reloaded by hand)."""
    import waitress

    def start(session, port=0):
        app = create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance",
                          "SSE_HEARTBEAT": 15}, session=session)
        srv = waitress.create_server(app, host="127.0.0.1", port=port, threads=8, channel_request_lookahead=1)
        threading.Thread(target=srv.run, daemon=True).start()
        return srv

    store = GameStore(tmp_path / "g.sqlite3")
    first = Session(store, load_profile())
    first.new_game({"players": ["Anna", "Bruno"], "first_player": 0})
    for _ in range(6):                             # many changes: a high count on the page
        first.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, first.game.version)
        first.undo()
    srv = start(first)
    port = srv.effective_port
    page = tablet(browser, f"http://127.0.0.1:{port}", paired=False)
    assert int(page.get_attribute("#live", "data-change")) > 10
    from waitress.channel import HTTPChannel

    def stop(srv):
        # A power cut, as the page sees it: the listener and every open stream close.
        channels = [c for c in list(srv._map.values()) if isinstance(c, HTTPChannel)]
        srv.trigger.pull_trigger(lambda: [srv.close()] + [c.handle_close() for c in channels])

    stop(srv)
    page.wait_for_selector("#conn.offline", timeout=10000)

    second = Session(store, load_profile())        # the restart: same games, count from 0
    assert second.resume()
    second.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, second.game.version)
    srv = None
    for _ in range(50):                            # the port is free again once the old socket closes
        try:
            srv = start(second, port)
            break
        except OSError:
            time.sleep(0.1)
    assert srv is not None
    try:
        page.wait_for_function("v => document.getElementById('live').getAttribute('data-version') === v",
                               arg=str(second.game.version), timeout=10000)
        assert second.change_id < 10 and page.is_visible("#conn.online")
        assert not page.errors
    finally:
        stop(srv)
        store.close()
