"""End to end in headless Chromium, for every game of the shelf and both languages: the frame
the games share says what UNDO and REDO did (pressed with the panel's keys), shows the games
file's trouble, the saved game's page shows the score sheet and the winner, and the setup
page says only the chosen game's help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.store import StoreError

from .test_browser import browser, server, tablet, version, wait_version_change  # noqa: F401

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
WHOLE = {"atlandice": "three-players", "survive": "survive-3p-challenges-1-3", "atlantis": "atlantis-table-3p"}
SAID = {"en-GB": ("Undone: ", "Redone: ", "Neutral"), "pt-BR": ("Desfeito: ", "Refeito: ", "Neutro")}


@pytest.mark.parametrize("lang", ["en-GB", "pt-BR"])
@pytest.mark.parametrize("game", list(WHOLE))
def test_the_frame_says_undo_redo_and_trouble_and_the_saved_game_its_winner(browser, server, game, lang):  # noqa: F811
    url, session = server
    undone, redone, neutral = SAID[lang]
    lines = (GOLDEN / game / "undo-redo.play.jsonl").read_text(encoding="utf-8").splitlines()
    session.load_record(lines[0] + "\n")
    session.submit(json.loads(lines[1]), 0)
    page = tablet(browser, url, lang=lang)
    before = version(page)
    page.keyboard.press("u")
    wait_version_change(page, before)
    assert page.inner_text("#undone").startswith(undone)
    before = version(page)
    page.keyboard.press("d")
    wait_version_change(page, before)
    assert page.inner_text("#redone").startswith(redone) and not page.locator("#undone").count()
    session.store.problem = StoreError("storage_read_only", "/data/games.sqlite3")
    session.notify()
    page.wait_for_selector("#storage")
    assert "/data/games.sqlite3" in page.inner_text("#storage")
    session.store.problem = None

    session.load_record((GOLDEN / game / f"{WHOLE[game]}.jsonl").read_text(encoding="utf-8"))
    winners = [session.game.state["players"][w] for w in session.game.rules.winners(session.game.state)]
    page.goto(f"{url}/games/{session.game_id}")
    final = page.inner_text("#final")
    assert all(w in page.inner_text("#final .winners") for w in winners)
    assert page.locator("#final table tr").count() > len(session.game.state["players"])
    assert final

    page.goto(f"{url}/setup?game={game}")
    hint = page.inner_text("#players-hint")
    assert (neutral in hint) == (game == "atlandice"), hint
    assert not page.errors
