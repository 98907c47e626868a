"""A loaded record is not a game played here (issue 43 item 7): loading a shared record
(POST /api/record, the setup page's load) keeps it marked as loaded, with the date its header
gives; /games lists it apart, and /players leaves it out of the players' figures unless the
page is asked to count it (?imported=1, its toggle); so do /dice and the exports. A games file from before the mark opens,
its games played here."""

from __future__ import annotations

import json
import random
import re
import sqlite3

import pytest

import companion.store
from companion.game import Game
from companion.games.atlandice.simulate import random_input
from companion.kept_games import KeptGames
from companion.record import Record
from companion.store import GameStore

from .conftest import SETUP, post
from .test_history_pages import games, text


@pytest.fixture(autouse=True)
def _public_history(app):
    app.config["PUBLIC_HISTORY"] = True


def finished_record(sess, players, seed=7, meta=None) -> str:
    """A whole game's record, as shared from another table (played elsewhere: not stored here)."""
    game = Game.new(dict(SETUP, players=players, profile=sess.profile_of("atlandice")), meta)
    rng = random.Random(seed)
    while game.expected()["kind"] != "over":
        game.apply(random_input(rng, game.expected()))
    return game.record.to_jsonl()


def stats(page: str, player: str) -> str:
    return page.split(f'data-player="{player}"')[1].split("</section>")[0]


def played_count(page: str, player: str) -> int:
    return int(re.search(r'class="played">(\d+)<', stats(page, player)).group(1))


def test_a_loaded_record_is_listed_apart_and_left_out_of_the_players_figures(client, paired, game_session):
    games(game_session, 1, players=["Ana", "Bruno", "Eric"], last_unfinished=False)     # game 1, here
    shared = finished_record(game_session, ["Ana", "Bruno", "Eric"], meta={"created": "2025-03-09T19:30:00+00:00"})
    r = post(paired, "/api/record", {"record": shared})
    assert r.status_code == 201, r.json
    loaded_id = game_session.game_id
    listed = {g["id"]: g for g in game_session.store.games()}
    assert listed[loaded_id]["imported"] and listed[loaded_id]["played"] == "2025-03-09T19:30:00"
    assert not listed[1]["imported"] and listed[1]["played"] is None

    page = client.get("/games?lang=en").get_data(as_text=True)
    here = page.split('id="games-list"')[1].split("</table>")[0]
    loaded = page.split('id="games-loaded"')[1].split("</table>")[0]
    assert f'data-game="{loaded_id}"' in loaded and f'data-game="{loaded_id}"' not in here
    assert 'data-game="1"' in here
    assert "2025-03-09 19:30" in loaded and "loaded " in loaded         # its own date, and when it came
    assert "1 game loaded from a shared record" in text(client.get("/games?lang=en"))

    # /players: only the games played here, unless asked
    players = client.get("/players?lang=en").get_data(as_text=True)
    assert played_count(players, "ana") == 1
    assert "1 loaded record is left out" in text(client.get("/players?lang=en"))
    counted = client.get("/players?imported=1&lang=en").get_data(as_text=True)
    assert played_count(counted, "ana") == 2 and "Only games played here" in counted
    pt = text(client.get("/players?lang=pt-BR"))
    assert "1 registro carregado fica de fora" in pt and "Contar também os registros carregados" in pt


def test_a_record_without_a_date_is_loaded_with_none(paired, game_session):
    game_session.new_game(dict(SETUP))                  # one played here
    shared = finished_record(game_session, ["Caio", "Dora"])
    assert post(paired, "/api/record", {"record": shared}).status_code == 201
    row = next(g for g in game_session.store.games() if g["id"] == game_session.game_id)
    assert row["imported"] and row["played"] is None
    summaries = KeptGames(game_session.store).summaries()
    assert [s["imported"] for s in summaries] == [True, False]     # newest first: the load, the game played


def test_a_new_game_is_played_here(game_session):
    game_session.new_game(dict(SETUP))
    row = game_session.store.games()[0]
    assert row["imported"] is False and row["played"] is None


# The games table as files written before the mark kept it.
OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL, updated TEXT NOT NULL,
                    header TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0);
CREATE TABLE inputs (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                     input TEXT NOT NULL, PRIMARY KEY (game_id, seq));
"""


def old_file(path, record: Record) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")             # as the companion writes its files
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO games (created, updated, header, over) VALUES (?, ?, ?, 1)",
               ("2026-01-02T10:00:00+00:00", "2026-01-02T11:00:00+00:00", json.dumps(record.header)))
    db.executemany("INSERT INTO inputs (game_id, seq, input) VALUES (1, ?, ?)",
                   [(i, json.dumps(inp)) for i, inp in enumerate(record.inputs)])
    db.commit()
    db.close()


def test_an_old_file_opens_and_its_games_count_as_played_here(tmp_path, game_session):
    shared = finished_record(game_session, ["Ana", "Bruno"])
    path = tmp_path / "old.sqlite3"
    old_file(path, Record.from_jsonl(shared))
    store = GameStore(path)
    assert store.problem is None
    cols = [row[1] for row in store._db.execute("PRAGMA table_info(games)")]
    assert "imported" in cols and "played" in cols
    [row] = store.games()
    assert row["imported"] is False and row["played"] is None and row["over"]
    [summary] = KeptGames(store).summaries()
    assert summary["imported"] is False and summary["over"]
    assert Game(store.load(1)[0]).state["over"]
    store.close()
    again = GameStore(path)                           # opened again: nothing more to do
    assert again.games()[0]["imported"] is False and again.imported_count() == 0
    again.close()


def test_a_read_only_old_file_shows_its_games_as_played_here(tmp_path, game_session, monkeypatch):
    shared = finished_record(game_session, ["Ana", "Bruno"])
    path = tmp_path / "old.sqlite3"
    old_file(path, Record.from_jsonl(shared))
    real = sqlite3.connect
    monkeypatch.setattr(companion.store.sqlite3, "connect",
                        lambda p, *a, **kw: real(f"file:{p}?mode=ro", *a, uri=True, **kw))
    store = GameStore(path)
    assert store.problem is not None and store.problem.key == "storage_read_only"
    assert store.games()[0]["imported"] is False and store.imported_count() == 0
    assert KeptGames(store).summaries()[0]["imported"] is False


def _one_here_one_loaded(paired, sess) -> int:
    """Game 1 played here (camera rolls), and a whole game loaded from a shared record: its id."""
    games(sess, 1, players=["Ana", "Bruno", "Eric"], last_unfinished=False)
    shared = finished_record(sess, ["Caio", "Dora"], seed=11)
    assert post(paired, "/api/record", {"record": shared}).status_code == 201
    return sess.game_id


def rolls_counted(page: str) -> int:
    return int(re.search(r"(\d+) dice rolled", page).group(1))


def test_the_dice_leave_a_loaded_record_out_unless_asked(client, paired, game_session):
    loaded_id = _one_here_one_loaded(paired, game_session)
    kept = {s["id"]: s for s in KeptGames(game_session.store).summaries()}
    here_rolls, loaded_rolls = sum(kept[1]["rolls"].values()), sum(kept[loaded_id]["rolls"].values())
    assert here_rolls and loaded_rolls

    page = text(client.get("/dice?lang=en"))
    assert rolls_counted(page) == here_rolls
    per_game = client.get("/dice?lang=en").get_data(as_text=True).split('id="dice-per-game"')[1]
    assert f"/games/{loaded_id}#game-dice" not in per_game and "/games/1#game-dice" in per_game
    assert "1 loaded record is left out" in page and "Count loaded records too" in page

    counted = client.get("/dice?imported=1&lang=en")
    assert rolls_counted(text(counted)) == here_rolls + loaded_rolls
    assert f"/games/{loaded_id}#game-dice" in counted.get_data(as_text=True)
    assert "Only games played here" in text(counted)
    pt = text(client.get("/dice?lang=pt-BR"))
    assert "1 registro carregado fica de fora" in pt and "Contar também os registros carregados" in pt


def test_the_exports_leave_a_loaded_record_out_unless_asked(client, paired, game_session):
    import csv
    import io
    import zipfile
    loaded_id = _one_here_one_loaded(paired, game_session)

    rows = list(csv.DictReader(io.StringIO(client.get("/games/games.csv").get_data(as_text=True))))
    assert {r["game_id"] for r in rows} == {"1"}
    rows = list(csv.DictReader(io.StringIO(client.get("/games/games.csv?imported=1").get_data(as_text=True))))
    assert {r["game_id"] for r in rows} == {"1", str(loaded_id)}

    with zipfile.ZipFile(io.BytesIO(client.get("/games/export.zip").data)) as z:
        assert sorted(z.namelist()) == ["games.csv", "records/atlandice-game-1.jsonl"]
    with zipfile.ZipFile(io.BytesIO(client.get("/games/export.zip?imported=1").data)) as z:
        assert f"records/atlandice-game-{loaded_id}.jsonl" in z.namelist()
        assert str(loaded_id) in z.read("games.csv").decode()

    # the pages say so: /games offers the exports with them, a page counting them exports them too
    games_page = client.get("/games?lang=en").get_data(as_text=True)
    exports = games_page.split('id="loaded-exports"')[1].split("</p>")[0]
    assert "The exports above leave them out" in exports and "/games/export.zip?imported=1" in exports
    assert "/games/games.csv?imported=1" in exports
    assert "and the dice unless those pages count" in text(client.get("/games?lang=en"))
    assert "As exportações acima as deixam de fora" in text(client.get("/games?lang=pt-BR"))
    assert "/games/export.zip?imported=1" in client.get("/dice?imported=1").get_data(as_text=True)
    nav = client.get("/dice").get_data(as_text=True).split('class="history-nav"')[1].split("</nav>")[0]
    assert "imported=1" not in nav
