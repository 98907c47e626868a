"""Browser checks of the hardening issue's page parts: a record file that is not UTF-8 is
refused by the page naming the line (item 14); a removed tablet's page drops its controls at
once (item 5); a page refused a live stream says why (item 9)."""

from __future__ import annotations

import json

import pytest

from .conftest import SETUP
from .test_browser import browser, server, tablet  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def test_the_page_refuses_a_record_file_that_is_not_utf8_naming_the_line(browser, server, tmp_path):  # noqa: F811
    url, session = server
    page = tablet(browser, url, home=False)
    page.goto(url + "/setup")
    session.new_game(SETUP)
    header = json.loads(session.game.record.to_jsonl().splitlines()[0])
    header["setup"]["players"][1] = "Brunø"
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes((json.dumps(header, ensure_ascii=False) + "\n").encode("latin-1"))
    games = len(session.store.games())
    page.set_input_files("#record-file", str(latin))
    page.click("#record-form button[type=submit]")
    page.wait_for_selector("#toast:not([hidden])")
    assert "Line 1 of the record: This line is not UTF-8 text." in page.inner_text("#toast")
    assert len(session.store.games()) == games and session.game.state["players"][1] == "Bruno"
    good = tmp_path / "good.jsonl"
    good.write_bytes((json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8"))
    page.set_input_files("#record-file", str(good))
    page.click("#record-form button[type=submit]")
    page.wait_for_url(url + "/")
    assert session.game.state["players"][1] == "Brunø"
    assert not page.errors


def test_an_unpaired_tablet_loses_its_controls_at_once(browser, server):  # noqa: F811
    """Removing a tablet on /tablets ends its stream: its page reloads as a watcher's (item 5)."""
    url, session = server
    session.new_game(SETUP)
    page = tablet(browser, url)
    assert page.query_selector(".pairstate.ok")
    import urllib.request
    req = urllib.request.Request(url + "/tablets/remove", data=json.dumps({"tablet": "all"}).encode(),
                                 headers={"Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest"})
    with urllib.request.urlopen(req, timeout=10) as r:
        assert json.loads(r.read())["removed"] == 1
    page.wait_for_selector(".pairstate.no", timeout=5000)
    page.wait_for_selector("#conn.online")
    assert not page.errors


def test_a_refused_page_says_every_live_connection_is_in_use(browser, server):  # noqa: F811
    """Past the limit (here 4) a watcher's page says why, not "offline" (item 9)."""
    url, session = server
    pages = [tablet(browser, url, paired=False) for _ in range(4)]
    late = tablet(browser, url, paired=False, home=False, lang="pt-BR")
    late.goto(url + "/")
    late.wait_for_selector("#conn.busy", timeout=10000)
    assert "no máximo 4" in late.inner_text("#conn")
    pages[0].context.close()
    late.wait_for_selector("#conn.online", timeout=20000)
    assert not late.errors
