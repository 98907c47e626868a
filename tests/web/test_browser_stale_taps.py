"""A tap lands on the prompt it was chosen on, or nowhere (issue 43 item 4).

Two tablets on a pick: a pick entered on one swaps the prompt on the other. A tap there a
moment later (the finger already on its way) is ignored while the new prompt is held, visibly;
a tap whose press began on the old prompt carries that prompt and is refused. The API refuses
an input chosen on a prompt that has changed even when the version came back (UNDO)."""

from __future__ import annotations

import time

import pytest

from .conftest import SETUP, XHR, post
from .test_browser import browser, server, tablet, version, wait_version_change  # noqa: F401

ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}
CLICK_FIRST = """() => { var live = document.getElementById('live');
  var b = document.querySelector('#prompt [data-input], #prompt [data-face]');
  b.click(); return {held: / held/.test(live.className), busy: live.getAttribute('aria-busy')}; }"""


def two_tablets(browser, server):  # noqa: F811
    url, session = server
    session.new_game(SETUP)
    session.submit(ROLL, 0)
    return session, tablet(browser, url), tablet(browser, url)


@pytest.mark.browser
def test_a_tap_right_after_the_prompt_changed_is_ignored_visibly(browser, server):  # noqa: F811
    session, a, b = two_tablets(browser, server)
    before = version(b)
    a.click("#prompt [data-input]")
    wait_version_change(b, before)
    entered = session.game.version
    shown = b.evaluate(CLICK_FIRST)              # the finger lands on the new prompt at once
    assert shown == {"held": True, "busy": "true"}
    time.sleep(0.5)
    assert session.game.version == entered, "the tap on the freshly swapped prompt entered nothing"
    # a moment later the prompt takes taps again
    b.wait_for_function("() => !/ held/.test(document.getElementById('live').className)", timeout=3000)
    assert b.locator("#prompt [aria-disabled]").count() == 0
    b.locator("#prompt [data-input], #prompt [data-face]").first.click()
    wait_version_change(b, str(entered))
    assert not a.errors and not b.errors


@pytest.mark.browser
def test_a_press_begun_on_the_old_prompt_is_refused(browser, server):  # noqa: F811
    session, a, b = two_tablets(browser, server)
    before = version(b)
    b.dispatch_event("#prompt [data-input]", "mousedown")     # B's finger comes down on the pick
    a.click("#prompt [data-input]")                             # A enters a pick meanwhile
    wait_version_change(b, before)
    b.wait_for_function("() => !/ held/.test(document.getElementById('live').className)", timeout=3000)
    entered = session.game.version
    b.evaluate("() => document.querySelector('#prompt [data-input], #prompt [data-face]').click()")
    b.wait_for_selector("#toast:not([hidden])", timeout=3000)
    assert session.game.version == entered, "the tap was chosen on the old prompt: refused"
    assert "quicker" in b.inner_text("#toast")
    assert not b.errors


def test_an_input_chosen_on_a_prompt_that_changed_is_refused_though_the_version_came_back(paired, game_session):
    game_session.new_game(SETUP)
    game_session.submit(ROLL, 0)
    shown = game_session.game_changes                # a tablet shows the pick at version 1
    page = paired.get("/live").get_data(as_text=True)
    assert f'data-prompt="{shown}"' in page
    options = game_session.game.expected()["options"]
    game_session.submit(options[0], 1)               # another tablet picks, then takes it back
    game_session.undo()
    assert game_session.game.version == 1 and game_session.game_changes != shown
    r = post(paired, "/api/input", {"input": options[-1], "version": 1, "prompt": shown})
    assert r.status_code == 409 and r.json["error"] == "stale"
    assert game_session.game.version == 1
    for url, data in (("/api/confirm", {}), ("/api/dice", {"value": 3}), ("/api/redo", {})):
        r = post(paired, url, dict(data, version=1, prompt=shown))
        assert r.status_code == 409 and r.json["error"] == "stale", url
    r = post(paired, "/api/input", {"input": options[-1], "version": 1, "prompt": game_session.game_changes})
    assert r.status_code == 200
    r = post(paired, "/api/input", {"input": {"type": "pick"}, "version": 2, "prompt": "x"})
    assert r.status_code == 400


@pytest.mark.browser
def test_a_press_on_the_redrawn_table_while_the_last_reply_is_on_its_way_is_sent_after_it(browser, server):  # noqa: F811
    """UNDO's redraw can reach the page before UNDO's own reply: REDO pressed on the redrawn table then
    is sent once that reply is in, not dropped; a second UNDO pressed before the redraw is a repeat."""
    url, session = server
    session.new_game(SETUP)
    session.submit(ROLL, 0)
    page = tablet(browser, url)
    held = []
    page.route("**/api/undo", lambda route: held.append((route, route.fetch())))
    before, inputs = version(page), session.game.version
    page.keyboard.press("u")
    page.keyboard.press("u")                      # the same press twice, before anything came back
    wait_version_change(page, before)            # the stream redrew the table; the reply is held
    assert session.game.version < inputs and len(held) == 1
    undone = version(page)
    page.keyboard.press("d")
    time.sleep(0.3)
    assert version(page) == undone, "REDO waits for UNDO's reply"
    route, reply = held[0]
    route.fulfill(response=reply)
    wait_version_change(page, undone)
    assert session.game.version == inputs and page.inner_text("#redone") and len(held) == 1
    assert not page.errors
