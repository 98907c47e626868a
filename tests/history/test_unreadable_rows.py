"""One bad row of the games file stops nothing (hardening item 14): a row that is not JSON, not
UTF-8 or not an object, or a header naming no game of the shelf (a newline in its name), is
listed as unreadable with why; every page, both exports and resume keep working; the companion
starts with no game when that game was on the table. The summaries notice an edit in the middle
of a record. A record file that is not UTF-8 is refused, naming the line."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile

import pytest

from companion.app import build
from companion.config import load_config
from companion.kept_games import KeptGames
from companion.store import GameStore, UnreadableRow
from tests.web.conftest import CODE, SETUP, XHR

from .conftest import random_record


def spoil_header(h):
    h["game"] = "atlan\ndice"
    return h


def spoil_players(h):
    h["setup"]["players"] = 5
    return h


# (name, how the row is spoiled: SQL on the games file, and what the list says of it)
SPOILS = {
    "header not JSON": ("UPDATE games SET header = '{\"format\": ' WHERE id = :bad", "Line 1 of the record: This line is not valid JSON."),
    "header not UTF-8": ("UPDATE games SET header = CAST(X'7B2278223A2022FF227D' AS BLOB) WHERE id = :bad", "Line 1 of the record: This line is not UTF-8 text."),
    "header a list": ("UPDATE games SET header = '[1]' WHERE id = :bad", "Line 1 of the record: The first line must be the record"),
    "input not JSON": ("UPDATE inputs SET input = 'nope{' WHERE game_id = :bad AND seq = 1", "Line 3 of the record: This line is not valid JSON."),
    "input not UTF-8": ("UPDATE inputs SET input = CAST(X'FF' AS BLOB) WHERE game_id = :bad AND seq = 0", "Line 2 of the record: This line is not UTF-8 text."),
    "game name with a newline": (spoil_header, None),
    "players not a list": (spoil_players, None),
}


def make_file(path, profile, spoil):
    """Two games: a good one finished (1), the spoiled one last on the table (2)."""
    store = GameStore(path)
    good = random_record(profile, 3)
    bad = random_record(profile, 4, stop_after=6)
    ids = [store.create(r.header, r.inputs) for r in (good, bad)]
    store.close()
    db = sqlite3.connect(path)
    if callable(spoil):
        header = json.loads(db.execute("SELECT header FROM games WHERE id = ?", (ids[1],)).fetchone()[0])
        db.execute("UPDATE games SET header = ? WHERE id = ?", (json.dumps(spoil(header)), ids[1]))
    else:
        db.execute(spoil, {"bad": ids[1]})
    db.commit()
    db.close()
    return ids


@pytest.fixture
def config(tmp_path):
    return load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_CAMERA_SOURCE": "demo",
                                  "ATLANDICE_GPIO_PIN_FACTORY": "mock", "ATLANDICE_WEB_PAIRING_CODE": CODE})


@pytest.mark.parametrize("name", sorted(SPOILS))
def test_one_bad_row_stops_nothing(name, config, profile):
    from companion import paths
    spoil, said = SPOILS[name]
    good, bad = make_file(paths.database_path(config.data_dir), profile, spoil)
    told = []
    companion = build(config, announce=told.append)     # the spoiled game was on the table
    try:
        assert companion.session.game is None
        assert any("could not resume the last game" in t for t in told), told
        app = companion.app
        app.testing = False                              # a 500 is answered, not raised
        c = app.test_client()
        assert c.post("/pair", json={"code": CODE}, headers=XHR).status_code == 200
        for url in ("/games", "/players", "/dice", "/games/games.csv", "/api/games", "/setup", "/",
                    "/api/state", f"/games/{good}", f"/games/{good}/record.jsonl", "/games?lang=pt-BR"):
            r = c.get(url)
            assert r.status_code == 200, (url, r.status_code)
        listed = {g["id"]: g for g in c.get("/api/games").json["games"]}
        assert set(listed) == {good, bad} and "unreadable" not in listed[good]
        page = c.get("/games?lang=en").get_data(as_text=True)
        if said is not None:
            if name.startswith("header"):      # the list of /api/games reads the headers only
                assert listed[bad]["unreadable"].startswith("line 1: ")
            assert "cannot be read from the games file" in page and said in page.replace("&#39;", "'")
            r = c.get(f"/games/{bad}?lang=en", headers=XHR)
            assert r.status_code == 409 and r.json["error"] == "unreadable" and said in r.json["message"]
            assert "não pode ser lida do arquivo de partidas" in c.get("/games?lang=pt-BR").get_data(as_text=True)
        else:
            assert c.get(f"/games/{bad}").status_code == 200
            r = c.get(f"/games/{bad}/record.jsonl")
            assert r.status_code == 200 and "\n" not in r.headers["Content-Disposition"]
        r = c.get("/games/export.zip")
        assert r.status_code == 200
        names = zipfile.ZipFile(io.BytesIO(r.data)).namelist()
        assert len([n for n in names if n.startswith("records/")]) == 2 and "games.csv" in names
        assert all("\n" not in n and ".." not in n for n in names)
        # resume: the spoiled game says why, the good one is taken up
        for body in ({}, {"game_id": bad}):
            r = c.post("/api/resume", json=body, headers=XHR)
            assert r.status_code in (404, 409), (body, r.status_code)
        assert companion.session.game is None
        assert c.post("/api/resume", json={"game_id": good}, headers=XHR).status_code == 200
        assert companion.session.game_id == good
    finally:
        companion.close()


def test_an_unreadable_game_is_exported_as_the_file_keeps_it(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    good, bad = make_file(path, profile, SPOILS["input not JSON"][0])
    store = GameStore(path)
    with pytest.raises(UnreadableRow) as caught:
        store.load(bad)
    assert caught.value.line == 3 and caught.value.game_id == bad and caught.value.key == "record_json"
    raw = store.raw_record(bad)
    assert raw.splitlines()[2] == b"nope{" and len(raw.splitlines()) == 7
    store.close()


def test_the_summaries_notice_an_edit_in_the_middle_of_a_record(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    a = random_record(profile, 1)
    gid = store.create(a.header, a.inputs, over=True)
    store.create(random_record(profile, 2, stop_after=3).header)          # another on the table
    kept = KeptGames(store)
    before = kept.summaries()[1]
    assert before["id"] == gid and before["error"] is None
    # Change one die of the gate roll in the middle of a's record, from another connection
    # within the same second (the game's 'updated', count and last input are all unchanged).
    seq, inp = next((i, x) for i, x in enumerate(a.inputs[5:-5], start=5) if x["type"] == "gate_roll")
    edited = dict(inp, dice=[7 - d for d in inp["dice"]])
    other = sqlite3.connect(path)
    other.execute("UPDATE inputs SET input = ? WHERE game_id = ? AND seq = ?", (json.dumps(edited), gid, seq))
    other.commit()
    other.close()
    after = kept.summaries()[1]
    assert after["rolls"] != before["rolls"]
    store.close()
    # ... and across a restart, from the summaries kept in the file
    store = GameStore(path)
    assert KeptGames(store).summaries()[1]["rolls"] == after["rolls"]
    other = sqlite3.connect(path)
    other.execute("UPDATE inputs SET input = ? WHERE game_id = ? AND seq = ?", (json.dumps(inp), gid, seq))
    other.commit()
    other.close()
    assert KeptGames(store).summaries()[1]["rolls"] == before["rolls"]
    store.close()


def test_a_record_file_that_is_not_utf8_is_refused_naming_the_line(tmp_path):
    from companion.game_profiles import load_profile
    from companion.game_profiles import GameProfiles
    from companion.session import Session
    from web import create_app
    store = GameStore(tmp_path / "g.sqlite3")
    sess = Session(store, profiles=GameProfiles(tmp_path / "c", {"atlandice": tmp_path / "p.toml"}))
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"}, session=sess)
    c = app.test_client()
    assert c.post("/pair", json={"code": CODE}, headers=XHR).status_code == 200
    assert c.post("/api/game", json=SETUP, headers=XHR).status_code == 201
    text = c.get("/api/record").get_data(as_text=True)
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["setup"]["players"][1] = "Brunø"
    raw = (json.dumps(header, ensure_ascii=False) + "\n").encode("latin-1")   # a name in Latin-1
    for lang, said in (("en", "Line 1 of the record: This line is not UTF-8 text."),
                       ("pt-BR", "Linha 1 do registro: Esta linha não é texto UTF-8.")):
        r = c.post(f"/api/record?lang={lang}", data=raw, headers=dict(XHR, **{"Content-Type": "text/plain"}))
        assert r.status_code == 400 and r.json["line"] == 1 and r.json["message"] == said
    good = (json.dumps(header, ensure_ascii=False) + "\n").encode()
    bad_later = good + b'{"type": "gate_roll", "note": "caf\xe9"}\n'
    r = c.post("/api/record", data=bad_later, headers=dict(XHR, **{"Content-Type": "text/plain"}))
    assert r.status_code == 400 and r.json["line"] == 2
    assert len(store.games()) == 1 and sess.game.record.to_jsonl() == text
    r = c.post("/api/record", data=good, headers=dict(XHR, **{"Content-Type": "text/plain; charset=utf-8"}))
    assert r.status_code == 201 and sess.game.state["players"][1] == "Brunø"
