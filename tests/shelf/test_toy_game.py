"""The shelf's proof: Toss, a toy game registered by these tests only (tests/shelf/toy/, no
file elsewhere), played through the session, the page, the live stream, the history and
`companion replay`, in both languages, as docs/games.md says a game is added."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import sys
from argparse import Namespace
from pathlib import Path

import pytest

from companion import games
from companion.replay import main_replay

from ..web.conftest import app, client, game_session, paired, post  # noqa: F401 (fixtures)
from ..web.test_stream import read_messages

ROOT = Path(__file__).resolve().parents[2]
SETUP = {"game": "toy", "players": ["Ana", "Bruno"], "first_player": 1, "goal": 10}
# Bruno rolls 6 and risks it (12): over at once.
PLAY = [{"type": "roll", "value": 6}, {"type": "risk"}]


@pytest.fixture(autouse=True)
def toy():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    games.register("toy", "tests.shelf.toy", "Toss", "Toss (pt)")
    yield games.load("toy")
    games._SHELF.pop("toy")


def banner(page: str, id_: str) -> str | None:
    found = re.search(rf'id="{id_}"[^>]*>(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else None


def test_the_setup_page_offers_the_toys_own_options_and_help(paired):
    page = html.unescape(paired.get("/setup?game=toy&lang=pt-BR").get_data(as_text=True))
    assert 'data-game="toy"' in page and "o primeiro a chegar à meta" in page
    assert page.count('name="opt:goal"') == 2 and "15 pontos" in page and "Neutro" not in page


def test_a_toy_game_through_the_session_page_stream_history_and_replay(paired, game_session, tmp_path):
    assert post(paired, "/api/game", SETUP).status_code == 201
    assert game_session.game.game_id == "toy" and game_session.game.record.header["game"] == "toy"
    # the page: the game's prompt in its words, its buttons
    page = html.unescape(paired.get("/live?lang=en").get_data(as_text=True))
    assert "Bruno: roll the die." in page and '"type":"roll","value":6' in page.replace("&#34;", '"')
    # a refusal in the game's words, nothing changed
    r = post(paired, "/api/input?lang=pt-BR", {"input": {"type": "bank"}, "version": 0})
    assert r.status_code == 409 and r.json["message"].startswith("Isso não é possível agora.")
    assert game_session.game.version == 0
    # an input, UNDO and REDO said in the game's words by the frame
    assert post(paired, "/api/input", {"input": PLAY[0], "version": 0}).status_code == 200
    assert post(paired, "/api/undo", {"version": 1}).status_code == 200
    assert banner(paired.get("/live?lang=en").get_data(as_text=True), "undone") == "Undone: Bruno rolls a 6."
    assert post(paired, "/api/redo", {"version": 0}).status_code == 200
    assert banner(paired.get("/live?lang=pt-BR").get_data(as_text=True), "redone") == "Refeito: Bruno tira 6."
    # the live stream carries the game's table
    r = paired.get("/api/events", buffered=False)
    (_, data), = read_messages(r, 1)
    assert data["expected"]["kind"] == "choose"
    assert post(paired, "/api/input", {"input": PLAY[1], "version": 1}).status_code == 200
    assert game_session.game.state["over"] and game_session.game.state["result"]["winners"] == [1]
    page = html.unescape(paired.get("/live?lang=en").get_data(as_text=True))
    assert banner(page, "winners") == "Winner: Bruno"
    # the history: the saved game's score sheet and winner, its dice, its replay step by step
    saved = html.unescape(paired.get(f"/games/{game_session.game_id}?lang=pt-BR").get_data(as_text=True))
    assert "Toss (pt)" in saved and "Vencedor: Bruno" in saved and "Bruno arrisca: 12 pontos." in saved
    first = html.unescape(paired.get(f"/games/{game_session.game_id}?step=1&lang=pt-BR").get_data(as_text=True))
    assert "Bruno tira 6." in first and "Vencedor" not in first.split('id="replay"')[1]
    row = next(g for g in paired.get("/api/games").json["games"] if g["game"] == "toy")
    assert row["players"] == ["Ana", "Bruno"]
    # companion replay: the game's text, in both languages, and the score as JSON
    record = tmp_path / "toy.jsonl"
    record.write_text(paired.get("/api/record").get_data(as_text=True), encoding="utf-8")
    for lang, said in (("en", "Bruno risks it: 12 points."), ("pt-BR", "Bruno arrisca: 12 pontos.")):
        out = replay(record, lang, events=True, table=True, score=True)
        assert "3: risk" in out and said in out and out.rstrip().endswith(("Winner: Bruno", "Vencedor: Bruno"))
    assert json.loads(replay(record, score=True, json=True))["winners"] == [1]


def replay(path: Path, lang: str = "en", **flags) -> str:
    args = Namespace(file=path, lang=lang, **{k: flags.get(k, False) for k in ("events", "table", "score", "json")})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert not main_replay(args)
    return out.getvalue()
