"""The games page in headless Chromium: open a game and step through it, resume one in a tap,
download the export; on a phone nothing spills sideways. Waits are on page conditions."""

from __future__ import annotations

import io
import random
import zipfile

import pytest

from companion.game_profiles import load_profile
from companion.games.atlandice.simulate import random_input
from companion.session import Session
from companion.store import GameStore
from web import create_app

from .test_browser import CODE, _need_browser, serve, tablet
from .conftest import SETUP

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    """Two games kept: #1 finished, #2 unfinished; the table has moved on to a third."""
    store = GameStore(tmp_path / "g.sqlite3")
    session = Session(store, load_profile())
    rng = random.Random(11)
    for stop in (None, 25, 3):
        session.new_game(SETUP)
        while session.game.expected()["kind"] != "over" and (stop is None or session.game.version < stop):
            session.submit(random_input(rng, session.game.expected()), session.game.version)
    app = create_app({"PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance"}, session=session)
    with serve(app) as url:
        yield url, session
    store.close()


def at_step(page, n: int) -> None:
    """Wait for the replay at step `n` (the page may be between two documents meanwhile)."""
    page.wait_for_function("s => ((document.getElementById('step-no') || {}).textContent || '').startsWith(s)",
                           arg=f"Step {n} ")


def test_open_a_game_and_step_back_and_forward(browser, server):
    url, session = server
    page = tablet(browser, url)
    page.click("nav a[href='/games']")
    page.wait_for_url(url + "/games")
    page.wait_for_selector("#games-list")
    assert page.locator("#games-list tbody tr").count() == 3
    page.click("tr[data-game='1'] a:has-text('Open')")
    page.wait_for_url(url + "/games/1")
    page.wait_for_selector("#final .breakdown")
    steps = len(session.store.load(1)[0].inputs)
    assert page.inner_text("#step-no") == f"Step {steps} of {steps}"
    page.click("#step-back")
    at_step(page, steps - 1)
    page.click("a[aria-label='To the start']")
    at_step(page, 0)
    page.click("#step-forward")
    at_step(page, 1)
    assert page.locator("#step-events li").count() >= 1
    assert page.errors == []


def test_resume_an_unfinished_game_in_one_tap(browser, server):
    url, session = server
    page = tablet(browser, url)
    page.goto(url + "/games")
    assert session.game_id == 3
    page.click("button[data-resume='2']")
    page.wait_for_url(url + "/")
    page.wait_for_selector("#live")
    assert session.game_id == 2 and session.game.version == 25


def test_download_the_export(browser, server):
    url, _ = server
    page = tablet(browser, url)
    page.goto(url + "/games")
    with page.expect_download() as download:
        page.click("a[href='/games/export.zip']")
    with zipfile.ZipFile(io.BytesIO(open(download.value.path(), "rb").read())) as z:
        assert "games.csv" in z.namelist() and "records/atlandice-game-2.jsonl" in z.namelist()


@pytest.mark.parametrize("path", ["/games", "/games/1", "/players", "/dice"])
def test_on_a_phone_nothing_spills_sideways(browser, server, path):
    url, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
    page = context.new_page()
    page.goto(url + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    context.close()
