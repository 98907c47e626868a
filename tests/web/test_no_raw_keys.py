"""No page, in either language, shows a catalog key ("proposal_corrected") or an unfilled
{placeholder}: every state a table goes through, the history pages and the tablets' page."""

from __future__ import annotations

import html
import random
import re

import pytest

from companion.game_profiles import load_profile
from companion.game_profiles import GameProfiles
from companion.games.atlandice.simulate import random_input, random_setup
from companion import games, shelf
from companion.i18n import catalog
from companion.session import Session
from companion.store import GameStore
from web import create_app

from .conftest import CODE, SETUP, XHR
from .fakes import FakeCamera, annotate, encode_png, reader

LANGS = ("en", "pt-BR")
KEYS = {k.split("/")[0] for lang in LANGS for k in catalog(lang)["ui"]} | {
    k.split("/")[0] for g in games.shelf() for lang in LANGS for k in shelf.catalog(g.id, lang).get("page", {})}
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
PLACEHOLDER = re.compile(r"\{[a-zA-Z_]\w*\}")


def shown_text(page: str) -> str:
    """What a reader sees or hears: the text, and the attributes said aloud or shown on hover."""
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S | re.I)
    said = re.findall(r'\b(?:aria-label|title|alt|placeholder|data-online|data-offline|data-t-[a-z-]+)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *said]))


def problems(page: str) -> list[str]:
    text = shown_text(page)
    keys = [k for k in SNAKE.findall(text) if k in KEYS or "_" in k]
    return sorted(set(keys + PLACEHOLDER.findall(text)))


@pytest.fixture
def table(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    camera = FakeCamera([[1, 2, None, 4, 5, 6, 2]])
    session = Session(store, load_profile(), camera=camera, reader=reader, annotate=annotate,
                      encode_png=encode_png,
                      profiles=GameProfiles(tmp_path / "calibration", {"atlandice": tmp_path / "profile.toml"}))
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance"},
                     session=session)
    client = app.test_client()
    assert client.post("/pair", json={"code": CODE}, headers=XHR).status_code == 200
    yield session, client
    store.close()


def check(client, paths, where: str) -> None:
    for lang in LANGS:
        for path in paths:
            r = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
            assert r.status_code == 200, (where, path, r.status_code)
            assert problems(r.get_data(as_text=True)) == [], (where, path, lang)


TABLE = ("/", "/live", "/camera")
OTHERS = ("/setup", "/profile", "/check", "/pair", "/tablets", "/games", "/players", "/dice")


def test_no_page_shows_a_key_or_a_placeholder_through_a_game(table):
    session, client = table
    check(client, TABLE + OTHERS, "no game")
    session.new_game(SETUP)
    check(client, TABLE, "a gate roll")
    session.desk.read_dice()                       # the camera's reading, one die unsure
    check(client, TABLE, "a reading")
    session.desk.set_die(3, 2, session.game.version)   # corrected on a tablet
    assert session.proposal()["source"] == "corrected"
    check(client, TABLE, "a corrected reading")
    session.desk.clear_dice(session.game.version)
    session.desk.set_die(4, None, session.game.version)   # typed in by hand, dice missing
    check(client, TABLE, "dice typed in")
    session.press("confirm")                       # refused: dice missing
    check(client, TABLE, "a refusal")
    rng = random.Random(5)
    seen = set()
    while not session.game.state["over"]:
        expected = session.game.expected()
        if expected["kind"] not in seen:
            seen.add(expected["kind"])
            check(client, ("/live",), expected["kind"])
        session.submit(random_input(rng, expected), session.game.version)
    session.undo()
    check(client, ("/live",), "undone")
    session.redo()
    check(client, TABLE + OTHERS + (f"/games/{session.game_id}", f"/games/{session.game_id}?step=3"), "over")


@pytest.mark.parametrize("humans", [2, 4])
def test_no_prompt_of_other_player_counts_shows_a_key(table, humans):
    session, client = table
    rng = random.Random(humans)
    setup = random_setup(rng, humans, session.profile_of("atlandice"))
    setup.pop("profile")
    session.new_game(setup)
    seen = set()
    while not session.game.state["over"]:
        expected = session.game.expected()
        if expected["kind"] not in seen:
            seen.add(expected["kind"])
            check(client, ("/live",), expected["kind"])
        session.submit(random_input(rng, expected), session.game.version)
    check(client, ("/live", "/games", f"/games/{session.game_id}"), "over")


def test_the_check_finds_a_key_and_a_placeholder():
    assert problems("<p>proposal_corrected: <b>1 2</b></p>") == ["proposal_corrected"]
    assert problems('<p title="{n} dice">x</p>') == ["{n}"]
    assert problems("<script>var a_b = '{x}';</script><p>Fine.</p>") == []
