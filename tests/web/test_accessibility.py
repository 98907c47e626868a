"""axe-core (WCAG 2.1 AA) on every page in Chromium, in both languages: no serious or critical violation.

axe-core is vendored in tests/web/vendor/axe-core (see its README); the page never loads it.
The test's browser context bypasses the page's Content-Security-Policy only to inject it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.board_profile import load_profile
from companion.rules.simulate import random_input, random_setup

from .test_browser import CODE, browser, finished_record, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
CHECK_QUERY = ("/check?do=final&name0=Anna&gem0=3&book0=1&tiles0=1&tokens0=4&name1=Bruno&gem1=2&tokens1=2"
               "&name2=Eric&tool2=1")
PAYOUT_QUERY = "/check?do=payout&name0=Anna&count0=3&name1=Bruno&count1=3&name2=Eric&count2=0"


def axe_page(browser, url, lang):  # noqa: F811
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing: the axe-core check needs it (see tests/web/vendor/axe-core/README.md)")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=lang, bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url + "/pair")
    page.fill("input[name=code]", CODE)
    page.click("#pair-form button[type=submit]")
    page.wait_for_selector(".pairstate.ok")
    return page


def violations(page) -> list[dict]:
    """axe's serious and critical violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def said(found: list[dict]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}; e.g. "
                     + ", ".join(str(n["target"]) for n in v["nodes"][:4]) for v in found)


def mid_game(session, seed=3, steps=40):
    """A 2-player game some way in, stopped at a pick (the Neutral player's choices shown)."""
    rng = random.Random(seed)
    setup = random_setup(rng, 2, load_profile())
    setup["players"] = ["Anna", "Bruno"]
    session.new_game(setup)
    for _ in range(steps):
        session.submit(random_input(rng, session.game.expected()), session.game.version)
    while session.game.expected()["kind"] != "pick":
        session.submit(random_input(rng, session.game.expected()), session.game.version)


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_no_serious_accessibility_violation_on_any_page(browser, server, lang):  # noqa: F811
    url, session = server
    page = axe_page(browser, url, lang)
    found = {}

    def look(name, path, ready):
        page.goto(url + path + ("&" if "?" in path else "?") + f"lang={lang}")
        page.wait_for_selector(ready)
        bad = violations(page)
        if bad:
            found[name] = said(bad)

    look("setup", "/setup", "#setup-form")
    look("check (payout)", PAYOUT_QUERY, "#payout-result")
    look("check (final)", CHECK_QUERY, "#final-result")
    look("device", "/device", "#device-code")
    look("board profile", "/profile", "#profile-form")
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    look("table (gate roll)", "/", "#dice-entry")
    mid_game(session)
    look("table (mid-game)", "/", "#prompt [data-input]")
    session.load_record(finished_record(humans=2)[0])
    look("table (final score)", "/", "#final .breakdown")
    assert not found, "\n\n".join(f"{name}:\n{text}" for name, text in found.items())
    assert not page.errors
