"""Loading a record is one transaction: all of it, or the table as it was (also after a restart)."""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.session import Session
from companion.store import GameStore, StoreError

from .conftest import random_game
from tests.store.faulty_db import break_store, storage_fault

SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}
ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}
ROOT = Path(__file__).resolve().parents[2]


def on_the_table(path, profile) -> tuple:
    """What a restart shows: the game on the table, its inputs, and every stored game."""
    store = GameStore(path)
    try:
        session = Session(store, profile)
        session.resume_last()
        return session.game_id, session.game.record.inputs, [g["id"] for g in store.games()]
    finally:
        store.close()


def test_a_store_write_refused_midway_keeps_nothing_of_the_load(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    table = store.create({"format": "atlandice-record", "version": 1, "setup": SETUP})
    inputs = list(random_game(profile, seed=29).record.inputs)
    inputs[50] = {"type": "roll", "value": 3, "note": "\ud800"}   # SQLite cannot write it as UTF-8
    with pytest.raises(UnicodeEncodeError):
        store.create({"format": "atlandice-record", "version": 1, "setup": SETUP}, inputs)
    assert store.last_in_use() == table and [g["id"] for g in store.games()] == [table]
    store.close()
    assert GameStore(path).last_in_use() == table


def test_a_load_refused_midway_leaves_the_previous_game_on_the_table(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    session = Session(GameStore(path), profile)
    session.new_game(SETUP)
    session.submit(ROLL)
    before = on_the_table(path, profile)
    break_store(session.store, after=30, error=storage_fault("database or disk is full", "SQLITE_FULL"))
    with pytest.raises(StoreError, match="disk is full"):
        session.load_record(random_game(profile, seed=29).record.to_jsonl())
    assert session.game_id == before[0] and session.game.record.inputs == before[1]
    assert session.store.last_in_use() == before[0]
    session.store.close()
    assert on_the_table(path, profile) == before              # after reopening the file too


def test_a_load_killed_midway_leaves_the_previous_game_on_the_table(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    record = tmp_path / "long.jsonl"
    record.write_text(random_game(profile, seed=29).record.to_jsonl(), encoding="utf-8")
    child = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from pathlib import Path
        from companion.game_profiles import load_profile
        from companion.session import Session
        from companion.store import GameStore
        from tests.store.faulty_db import break_store
        s = Session(GameStore({str(path)!r}), load_profile())
        s.new_game({SETUP!r})
        s.submit({ROLL!r})
        break_store(s.store, after=30, error=None)      # says "midway" and waits to be killed
        s.load_record(Path({str(record)!r}).read_text(encoding="utf-8"))
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "midway"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    game_id, inputs, games = on_the_table(path, profile)
    assert inputs == [ROLL]
    assert games == [game_id]                                # no truncated game left behind
