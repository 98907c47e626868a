"""Browser checks of the hardening issue's page parts: a record file that is not UTF-8 is
refused by the page naming the line (item 14)."""

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
