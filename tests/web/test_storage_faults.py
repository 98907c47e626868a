"""The page says a storage fault as it is (which file, what to do), in its language; not "internal error"."""

import hashlib

from companion.game_profiles import load_profile
from companion.session import Session
from companion.store import GameStore
from web import create_app

from tests.store.faulty_db import break_store, storage_fault
from tests.store.test_storage_faults import damage
from .conftest import CODE, SETUP, XHR, post

ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}


def test_a_write_error_is_said_with_the_file_and_changes_nothing(paired, game_session):
    assert post(paired, "/api/game", SETUP).status_code == 201
    break_store(game_session.store, after=0, error=storage_fault())
    r = post(paired, "/api/input", {"input": ROLL, "version": 0})
    assert r.status_code == 503 and r.json["error"] == "storage" and r.json["key"] == "storage_io"
    assert game_session.store.path in r.json["message"] and "disk I/O error" in r.json["detail"]
    assert game_session.game.version == 0
    r = post(paired, "/api/input?lang=pt-BR", {"input": ROLL, "version": 0})
    assert r.json["message"].startswith("O companheiro não conseguiu gravar o arquivo de partidas")


def test_a_full_disk_is_a_507_that_says_to_free_space(paired, game_session):
    assert post(paired, "/api/game", SETUP).status_code == 201
    break_store(game_session.store, after=0, error=storage_fault("database or disk is full", "SQLITE_FULL"))
    r = post(paired, "/api/input", {"input": ROLL, "version": 0})
    assert r.status_code == 507 and "the disk is full" in r.json["message"] and "Free some space" in r.json["message"]
    assert game_session.game.version == 0


def test_a_damaged_file_is_said_on_the_page_and_a_new_game_refused(tmp_path):
    path = tmp_path / "g.sqlite3"
    digest = damage(path, load_profile())
    session = Session(GameStore(path), load_profile())
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance"}, session=session)
    client = app.test_client()
    assert client.post("/pair", json={"code": CODE}, headers=XHR).status_code == 200
    page = client.get("/?lang=pt-BR").get_data(as_text=True)
    assert f"O arquivo de partidas {path} está danificado" in page and ".recover" in page
    r = post(client, "/api/game", SETUP)                  # once a 500
    assert r.status_code == 503 and r.json["key"] == "storage_damaged" and str(path) in r.json["message"]
    # The pages one would rescue the games with read it (or say it is damaged), and write
    # nothing into it either.
    for page in ("/games", "/players", "/dice", "/games/games.csv", "/games/export.zip"):
        assert client.get(page).status_code in (200, 503), page
    session.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
