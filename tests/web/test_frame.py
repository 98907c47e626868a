"""The frame every game's table page shares (web/frame.py): UNDO and REDO say what they did,
the games file's trouble is said, a refusal is shown, in both languages, in every game."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from companion.store import StoreError

from .conftest import post

GAMES = {
    "atlandice": {"players": ["Ana", "Bruno", "Caio"], "first_player": 0},
    "survive": {"game": "survive", "players": ["Ana", "Bruno"], "first_player": 0, "challenges": []},
    "atlantis": {"game": "atlantis", "players": ["Ana", "Bruno"], "first_player": 0, "path": "table"},
}
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SAY = {"en": ("Undone: ", "Redone: "), "pt-BR": ("Desfeito: ", "Refeito: ")}


def banner(page: str, id_: str) -> str | None:
    found = re.search(rf'id="{id_}"[^>]*>(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else None


def start_play(game_session, game: str) -> list[dict]:
    """The game of the golden play with UNDO (tests/golden/<game>/) on the table: its inputs."""
    lines = (GOLDEN / game / "undo-redo.play.jsonl").read_text(encoding="utf-8").splitlines()
    game_session.load_record(lines[0] + "\n")
    return [json.loads(line) for line in lines[1:] if "do" not in json.loads(line)]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("game", list(GAMES))
def test_undo_and_redo_say_what_they_did(paired, game_session, game, lang):
    inputs = start_play(game_session, game)
    assert post(paired, "/api/input", {"input": inputs[0], "version": 0}).status_code == 200
    entry = game_session.game.history[0]
    assert banner(paired.get(f"/live?lang={lang}").get_data(as_text=True), "undone") is None
    assert post(paired, "/api/undo", {"version": game_session.game.version}).status_code == 200
    page = paired.get(f"/live?lang={lang}").get_data(as_text=True)
    said = banner(page, "undone")
    assert said is not None and said.startswith(SAY[lang][0]) and len(said) > len(SAY[lang][0]) + 3, said
    assert banner(page, "redone") is None
    assert post(paired, "/api/redo", {"version": game_session.game.version}).status_code == 200
    page = paired.get(f"/live?lang={lang}").get_data(as_text=True)
    redone = banner(page, "redone")
    assert banner(page, "undone") is None
    assert redone is not None and redone.startswith(SAY[lang][1])
    # the same input, said the same way both times
    assert redone[len(SAY[lang][1]):] == said[len(SAY[lang][0]):]
    assert game_session.game.history[0]["input"] == entry["input"]
    # the next change says neither
    assert post(paired, "/api/input", {"input": inputs[1],
                                           "version": game_session.game.version}).status_code == 200
    page = paired.get(f"/live?lang={lang}").get_data(as_text=True)
    assert banner(page, "undone") is None and banner(page, "redone") is None


@pytest.mark.parametrize("game", list(GAMES))
def test_the_games_file_trouble_is_said_in_every_game(paired, game_session, game):
    assert post(paired, "/api/game", GAMES[game]).status_code == 201
    game_session.store.problem = StoreError("storage_read_only", "/data/games.sqlite3")
    for lang, start in (("en", "/data/games.sqlite3"), ("pt-BR", "/data/games.sqlite3")):
        page = paired.get(f"/live?lang={lang}").get_data(as_text=True)
        said = banner(page, "storage")
        assert said is not None and start in said


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refused_press_is_said_in_every_game(paired, game_session, game):
    assert post(paired, "/api/game", GAMES[game]).status_code == 201
    game_session.press("undo")           # nothing to undo yet
    page = paired.get("/live?lang=en").get_data(as_text=True)
    said = banner(page, "refusal")
    assert said is not None and "UNDO" in said and "nothing to undo" in said.lower()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_action_bar_has_read_and_the_camera_exactly_in_a_game_whose_dice_the_camera_reads(
        paired, game_session, game):
    from companion import games

    assert post(paired, "/api/game", GAMES[game]).status_code == 201
    page = paired.get("/live?lang=en").get_data(as_text=True)
    bar = re.search(r'<section class="panel-buttons[^"]*" id="panel">.*?</section>', page, re.S).group(0)
    reads = games.load(game).reads_dice
    assert reads == (game == "atlandice")          # the shelf today: only Atlandice's dice are read
    assert ('data-button="read"' in bar) == reads and ('class="camstate' in bar) == reads
    assert ("panel-buttons three" in bar) == (not reads)     # three buttons or four, the grid follows
    for button in ("undo", "redo", "confirm"):
        assert f'data-button="{button}"' in bar
