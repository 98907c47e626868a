"""End to end in headless Chromium: choose Atlantis at "New game", let the companion lay the
path, and play to the final score by taps (a seeded driver picks among the offered buttons):
a citizen, each card, a bridge or not, the payment put together from tiles and cards, the
cards left confirmed; with UNDO and REDO on the way. Waits are on page conditions, never sleeps."""

from __future__ import annotations

import random

import pytest

from .test_browser import browser, server, tablet, version, wait_version_change  # noqa: F401

pytestmark = pytest.mark.browser


def tap(page, button) -> None:
    before = version(page)
    button.click()
    wait_version_change(page, before)


def kind(page) -> str:
    return page.get_attribute("#live", "data-kind")


def move(page, rng) -> None:
    """A citizen, then a card at a time until the finished moves are offered; one of them."""
    citizens = page.locator("#prompt [data-atl-citizen]:not([disabled])")
    citizen = citizens.nth(rng.randrange(citizens.count()))
    n = citizen.get_attribute("data-atl-citizen")
    citizen.click()
    page.wait_for_selector(f"#atl-step[data-citizen='{n}'][data-cards='']")
    cards: list[str] = []
    while True:
        finish = page.locator("#atl-step [data-input]")
        if finish.count():
            tap(page, finish.nth(rng.randrange(finish.count())))
            return
        colours = page.locator("#atl-step [data-atl-card]")
        colour = colours.nth(rng.randrange(colours.count()))
        cards.append(colour.get_attribute("data-atl-card"))
        colour.click()
        page.wait_for_selector(f"#atl-step[data-cards='{','.join(cards)}']")


def pay(page, rng) -> None:
    """Tiles and cards tapped until the total shown reaches what is owed; then Pay."""
    owed = int(page.get_attribute("#atl-pay", "data-owed"))
    hand = int(page.get_attribute("#atl-pay", "data-hand"))
    tiles = page.locator("#atl-pay [data-atl-tile]")
    order = list(range(tiles.count()))
    rng.shuffle(order)
    paid = cards = 0
    while paid < owed:
        if cards < hand and (not order or rng.random() < 0.5):
            page.click("#atl-pay [data-atl-cards='1']")
            cards += 1
            paid += 1
        else:
            tile = tiles.nth(order.pop())
            tile.click()
            paid += int(tile.get_attribute("data-value"))
    shown = page.inner_text("#atl-total")
    assert shown.startswith(f"Paying {paid}") and ("exactly" in shown or "more than owed" in shown)
    tap(page, page.locator("#atl-pay-go"))


def test_an_atlantis_game_set_up_and_finished_on_the_page(browser, server):  # noqa: F811
    url, session = server
    page = tablet(browser, url)
    page.goto(url + "/setup")
    page.click("#game-choice [data-game=atlantis]")
    page.wait_for_selector("#setup-form[data-game=atlantis]")
    for i, name in enumerate(["Ana", "Bruno"]):
        page.fill(f"input[name=player{i}]", name)
    page.check("input[name=first][value='1']")
    page.check("input[name='opt:path'][value='\"shuffle\"']")
    page.click("#setup-start")
    page.wait_for_selector("#live[data-kind=shuffle]")
    assert session.game.game_id == "atlantis" and session.game.record.header["setup"]["first_player"] == 1
    tap(page, page.locator("#prompt [data-input]"))
    assert "Bruno: buy cards with tiles, move a citizen" in page.inner_text("#prompt-title")
    assert page.locator("#path .sp").count() == 53

    rng = random.Random(11)
    taps = 0
    undone = False
    while kind(page) != "over":
        step = kind(page)
        if step == "turn":
            buys = page.locator("#prompt .option-buy")
            no_move = page.locator("#prompt .option-no_move")
            movable = page.locator("#prompt [data-atl-citizen]:not([disabled])").count()
            if buys.count() and rng.random() < 0.05:
                tap(page, buys.nth(rng.randrange(buys.count())))
            elif no_move.count() and (not movable or rng.random() < 0.1):
                tap(page, no_move)
            else:
                move(page, rng)
        elif step == "pay":
            pay(page, rng)
        elif step == "cards_left":
            tap(page, page.locator("#prompt [data-input]").first)     # the companion's own count
        else:
            raise AssertionError(f"unexpected step {step}")
        taps += 1
        if taps == 10 and not undone:
            undone = True
            shown = page.inner_text("#latest")
            at = session.game.version
            tap(page, page.locator("#panel [data-button=undo]"))
            assert session.game.version == at - 1 and session.game.redo_stack
            tap(page, page.locator("#panel [data-button=redo]"))
            assert page.inner_text("#latest") == shown
        assert taps < 400
    state = session.game.state
    assert state["over"]
    final = page.inner_text("#final")
    winner = state["players"][state["result"]["winners"][0]]
    assert winner in page.inner_text("#winners") and "Crossings at the end" in final
    for line in state["result"]["scores"]:
        assert str(line["total"]) in final
    assert len(session.game.record.inputs) == session.game.version == taps + 1
    moves = [i for i in session.game.record.inputs if i["type"] == "move"]
    assert any(i.get("take") is False for i in moves) and any("take" not in i for i in moves)   # A9 on the page
    assert not page.errors


def new_shuffled_game(page, session) -> None:
    page.goto(page.url.split("/setup")[0].split("?")[0] + "/setup")
    page.click("#game-choice [data-game=atlantis]")
    page.wait_for_selector("#setup-form[data-game=atlantis]")
    for i, name in enumerate(["Ana", "Bruno"]):
        page.fill(f"input[name=player{i}]", name)
    page.check("input[name='opt:path'][value='\"shuffle\"']")
    page.click("#setup-start")
    page.wait_for_selector("#live[data-kind=shuffle]")
    tap(page, page.locator("#prompt [data-input]"))


def test_the_path_laid_by_the_companion_is_ticked_off_space_by_space(browser, server):  # noqa: F811
    """The lay-out view: 53 spaces from Atlantis, a stack's lower tile and top tile together, each
    ticked as it is laid; the ticks outlive a reload, are dropped for a new game, and the view
    goes once the first move is made."""
    url, session = server
    page = tablet(browser, url)
    new_shuffled_game(page, session)
    rows = page.locator("#laying [data-atl-lay]")
    assert rows.count() == 53 and page.is_visible("#laying")
    state = session.game.state
    first = state["spaces"][0]["tiles"]
    top, under = (state["tiles"][t] for t in first)
    text = rows.nth(0).inner_text()
    assert f"{under['colour']} {under['value']}" in text and f"{top['colour']} {top['value']}" in text
    assert text.index("under") < text.index("on top")
    assert "the water tile" in rows.nth(26).inner_text()
    assert page.evaluate("getComputedStyle(document.querySelector('.atl-lay label')).display") == "flex"
    assert "next" in rows.nth(0).get_attribute("class")
    page.click("#laying [data-atl-laid='1']")
    page.click("#laying [data-atl-laid='2']")
    assert page.inner_text("#atl-laid") == "2 of 53 spaces laid" and "next" in rows.nth(2).get_attribute("class")
    page.reload()
    page.wait_for_selector("#laying")
    assert page.is_checked("#laying [data-atl-laid='1']") and page.is_checked("#laying [data-atl-laid='2']")
    assert page.inner_text("#atl-laid") == "2 of 53 spaces laid"
    page.click("#laying [data-atl-laid='2']")                   # untick
    assert page.inner_text("#atl-laid") == "1 of 53 spaces laid"
    new_shuffled_game(page, session)                           # a new game: a new layout, no ticks
    assert page.inner_text("#atl-laid") == "0 of 53 spaces laid"
    assert not page.is_checked("#laying [data-atl-laid='1']")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.indexOf('atl-laid:') === 0).length") <= 1
    move(page, random.Random(1))
    assert page.locator("#laying").count() == 0
    assert not page.errors
