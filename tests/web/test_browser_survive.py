"""End to end in headless Chromium: choose Survive at "New game", set it up, and play it to
the end by tapping the offered buttons (a seeded driver picks among them), with UNDO and
REDO on the way; the tally names the winner. Waits are on page conditions, never sleeps."""

from __future__ import annotations

import random

import pytest

from .test_browser import browser, server, tablet, version, wait_version_change  # noqa: F401

pytestmark = pytest.mark.browser


def tap(page, button) -> None:
    before = version(page)
    button.click()
    wait_version_change(page, before)


def test_a_survive_game_set_up_and_finished_on_the_page(browser, server):  # noqa: F811
    url, session = server
    page = tablet(browser, url)
    page.goto(url + "/setup")
    page.click("#game-choice [data-game=survive]")
    page.wait_for_selector("#setup-form[data-game=survive]")
    for i, name in enumerate(["Ana", "Bruno"]):
        page.fill(f"input[name=player{i}]", name)
    page.check("input[name=first][value='1']")
    page.check("input[name='opt:challenges'][value='2']")   # To the end: over when the last explorer leaves
    page.click("#setup-start")
    page.wait_for_selector("#prompt-title:has-text('Setup 1: put the 5 sea serpents')")
    assert session.game.game_id == "survive" and session.game.state["challenges"] == [2]
    assert "The volcano is under one of 8 mountains." in page.inner_text("#counts")

    rng = random.Random(3)
    taps = 0
    undone = False
    while page.get_attribute("#live", "data-kind") != "over":
        buttons = page.locator("#prompt .group-main [data-input]")
        losses = page.locator("#prompt .group-losses [data-input]")
        # The step's own options, or as often a piece lost: the explorers run out sooner.
        pool = losses if losses.count() and (buttons.count() == 0 or rng.random() < 0.5) else buttons
        tap(page, pool.nth(rng.randrange(pool.count())))
        taps += 1
        if taps == 12 and not undone:
            undone = True
            shown = page.inner_text("#latest")
            tap(page, page.locator("#panel [data-button=undo]"))
            assert session.game.version == 11 and session.game.redo_stack
            tap(page, page.locator("#panel [data-button=redo]"))
            assert page.inner_text("#latest") == shown
        assert taps < 600
    assert session.game.state["over"]
    tally = page.inner_text("#final")
    winner = session.game.state["players"][session.game.state["result"]["winners"][0]]
    assert winner in page.inner_text("#winners") and "Total" in tally
    assert len(session.game.record.inputs) == session.game.version == taps
    assert not page.errors
