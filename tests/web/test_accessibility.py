"""axe-core (WCAG 2.1 AA) on every page in Chromium, in both languages: no serious or critical violation
(Atlandice's pages and Survive's: its setup, its game profile, its table at three moments).

axe-core is vendored in tests/web/vendor/axe-core (see its README); the page never loads it.
The test's browser context bypasses the page's Content-Security-Policy only to inject it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.game_profiles import load_profile
from companion.games.survive.simulate import random_input as survive_input
from companion.games.atlandice.simulate import random_input, random_setup

from .test_browser import browser, finished_record, server, tablet  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
CHECK_QUERY = ("/check?do=final&name0=Anna&gem0=3&book0=1&tiles0=1&tokens0=4&name1=Bruno&gem1=2&tokens1=2"
               "&name2=Eric&tool2=1")
PAYOUT_QUERY = "/check?do=payout&name0=Anna&count0=3&name1=Bruno&count1=3&name2=Eric&count2=0"


def axe_page(browser, url, lang):  # noqa: F811
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing: the axe-core check needs it (see tests/web/vendor/axe-core/README.md)")
    return tablet(browser, url, lang=lang, size=(1280, 800), home=False, bypass_csp=True)


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


def looker(page, url, lang, found):
    """look(name, path, ready): open `path` in `lang`, wait for `ready`, note axe's serious
    violations there in `found` under `name`."""
    def look(name, path, ready):
        page.goto(url + path + ("&" if "?" in path else "?") + f"lang={lang}")
        page.wait_for_selector(ready)
        bad = violations(page)
        if bad:
            found[name] = said(bad)
    return look


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_no_serious_accessibility_violation_on_any_page(browser, server, lang):  # noqa: F811
    url, session = server
    page = axe_page(browser, url, lang)
    found = {}
    look = looker(page, url, lang, found)

    look("setup", "/setup", "#setup-form")
    look("check (payout)", PAYOUT_QUERY, "#payout-result")
    look("check (final)", CHECK_QUERY, "#final-result")
    look("tablets", "/tablets", "#tablets-code")
    look("board profile", "/profile", "#profile-form")
    session.new_game({"players": ["Anna", "Bruno", "Eric"], "first_player": 0})
    look("table (gate roll)", "/", "#dice-entry")
    mid_game(session)
    look("table (mid-game)", "/", "#prompt [data-input]")
    session.load_record(finished_record(humans=2)[0])
    look("table (final score)", "/", "#final .breakdown")
    assert not found, "\n\n".join(f"{name}:\n{text}" for name, text in found.items())
    assert not page.errors


def survive_game(session, steps: int, seed: int = 5, players=("Ana", "Bruno", "Caio")) -> None:
    """A Survive game set up and played `steps` inputs in (to the end when there are fewer)."""
    session.new_game({"players": list(players), "first_player": 0, "challenges": []}, game="survive")
    rng = random.Random(seed)
    for _ in range(steps):
        if session.game.expected()["kind"] == "over":
            return
        session.submit(survive_input(rng, session.game.expected()), session.game.version)


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_no_serious_accessibility_violation_on_the_survive_pages(browser, server, lang):  # noqa: F811
    url, session = server
    page = axe_page(browser, url, lang)
    found = {}
    look = looker(page, url, lang, found)

    look("setup (Survive)", "/setup?game=survive", "#setup-form[data-game=survive]")
    look("game profile (Survive)", "/profile/survive", "#game-profile-form")
    look("game profile (Atlantis)", "/profile/atlantis", "#game-profile-form")
    survive_game(session, 0)
    look("table (Survive, setup step 1)", "/", "#prompt [data-input]")
    survive_game(session, 51)
    look("table (Survive, moves and losses)", "/", "#prompt .group-losses [data-input]")
    survive_game(session, 20000, players=("Ana", "Bruno"))
    look("table (Survive, the tally)", "/", "#final .tally")
    assert not found, "\n\n".join(f"{name}:\n{text}" for name, text in found.items())
    assert not page.errors
