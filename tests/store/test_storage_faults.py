"""A full disk, a write error, a read-only or damaged games file: said clearly (what happened,
which file, what to do), nothing half-recorded, and the games already recorded never written over."""

import hashlib
import random
import sqlite3

import pytest

import companion.store
from companion import merged_names
from companion.games.atlandice.simulate import random_input
from companion.session import Session
from companion.store import GameStore, StoreError
from web.tablets import TabletRows

from .faulty_db import break_store, storage_fault

SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}
ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}
PICK = {"type": "pick", "area": "jeweller"}


def played(path, profile) -> Session:
    session = Session(GameStore(path), profile)
    session.new_game(SETUP)
    session.submit(ROLL)
    return session


def stored(session) -> list:
    return session.store.load(session.game_id)[0].inputs


def test_a_full_disk_is_said_and_the_input_not_acknowledged(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    session = played(path, profile)
    db = session.store._db
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")  # a full disk
    rng = random.Random(5)
    with pytest.raises(StoreError) as caught:
        for _ in range(500):
            session.submit(random_input(rng, session.game.expected()))
    error = caught.value
    # Once, "cannot rollback - no transaction is active" hid SQLite's "database or disk is full".
    assert error.key == "storage_full" and str(path) in str(error) and "Free some space" in str(error)
    assert "cannot rollback" not in str(error)
    assert stored(session) == session.game.record.inputs      # what is shown is what is recorded
    version = session.game.version
    db.execute("PRAGMA max_page_count = 1073741823")           # space freed: play goes on
    session.submit(random_input(rng, session.game.expected()))
    assert session.game.version == version + 1 and stored(session) == session.game.record.inputs


def test_a_write_error_is_said_and_changes_nothing(tmp_path, profile):
    session = played(tmp_path / "g.sqlite3", profile)
    before = (session.game.version, session.game.state)
    break_store(session.store, after=0, error=storage_fault())
    with pytest.raises(StoreError, match=r"could not write its games file .*g\.sqlite3.*disk I/O error"):
        session.submit(PICK)
    assert (session.game.version, session.game.state) == before


def test_a_panel_press_meeting_a_full_disk_is_shown_as_a_refusal(tmp_path, profile):
    session = played(tmp_path / "g.sqlite3", profile)
    session.submit(PICK)                                       # the Gem taken by itself, a roll awaited
    session.desk.set_die(4)                                         # typed on a tablet: CONFIRM enters it
    break_store(session.store, after=0, error=storage_fault("database or disk is full", "SQLITE_FULL"))
    version = session.game.version
    session.press("confirm")
    assert session.last_refusal["key"] == "storage_full" and session.game.version == version


def read_only(monkeypatch):
    """Open every games file read-only, as SQLite does a file its user may not write."""
    real = sqlite3.connect

    def connect(path, *args, **kwargs):
        return real(f"file:{path}?mode=ro", *args, uri=True, **kwargs)
    monkeypatch.setattr(companion.store.sqlite3, "connect", connect)


def test_a_read_only_file_shows_its_last_game_and_says_why_nothing_can_be_saved(tmp_path, profile, monkeypatch):
    path = tmp_path / "g.sqlite3"
    first = played(path, profile)
    first.store.close()
    read_only(monkeypatch)
    store = GameStore(path)
    assert store.problem is not None and store.problem.key == "storage_read_only"
    assert str(path) in str(store.problem) and "writable" in str(store.problem)
    session = Session(store, profile)
    assert session.resume_last() and session.game.version == 1     # once: "unexpected OperationalError"
    assert session.snapshot()["storage"]["key"] == "storage_read_only"
    with pytest.raises(StoreError, match="read-only"):
        session.submit(PICK)
    assert session.game.version == 1


def damage(path, profile) -> str:
    """Games on many pages, then one inner page (not the first) overwritten: its digest."""
    session = played(path, profile)
    for _ in range(40):
        session.new_game(SETUP)
        session.submit(ROLL)
    session.store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = session.store._db.execute("PRAGMA page_count").fetchone()[0]
    session.store.close()
    with open(path, "r+b") as f:
        f.seek((pages - 2) * 4096)
        f.write(b"\xff" * 300)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_damaged_file_is_said_and_never_written_over(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    digest = damage(path, profile)
    store = GameStore(path)
    assert store.problem is not None and store.problem.key == "storage_damaged"
    assert ".recover" in str(store.problem) and str(path) in str(store.problem)
    session = Session(store, profile)
    with pytest.raises(StoreError, match="damaged"):
        session.new_game(SETUP)
    store.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_serve_on_a_damaged_file_says_which_and_what_to_do(tmp_path, profile):
    from companion import paths
    from companion.app import build
    from companion.config import load_config

    config = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_CAMERA_SOURCE": "demo",
                                    "ATLANDICE_GPIO_PIN_FACTORY": "mock"})
    path = paths.database_path(tmp_path)
    digest = damage(path, profile)
    said = []
    companion = build(config, announce=said.append)
    try:
        warning = next(s for s in said if "damaged" in s)
        assert str(path) in warning and "move it aside" in warning and ".recover" in warning
        assert companion.session.snapshot()["storage"]["key"] == "storage_damaged"
    finally:
        companion.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_read_only_file_from_before_the_newer_tables_still_opens_and_shows_its_game(tmp_path, profile,
                                                                                      monkeypatch):
    path = tmp_path / "old.sqlite3"
    played(path, profile).store.close()
    db = sqlite3.connect(path)
    for table in ("devices", "player_aliases", "in_use", "summaries"):     # as a file written before them
        db.execute(f"DROP TABLE IF EXISTS {table}")
    db.commit()
    db.close()
    read_only(monkeypatch)
    store = GameStore(path)                               # once: refused to start ("read-only")
    assert store.problem is not None and store.problem.key == "storage_read_only"
    assert TabletRows(store).listed() == [] and not TabletRows(store).has("x")
    assert merged_names.aliases(store) == {}
    session = Session(store, profile)
    assert session.resume_last() and session.game.version == 1
