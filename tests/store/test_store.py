"""SQLite persistence: each input is committed before it is acknowledged; kills lose nothing."""

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

from companion.game_profiles import load_profile
from companion.game import Game
from companion.game_profiles import GameProfiles
from companion.session import Session, StaleVersion
from companion.store import GameStore, StoreError

import pytest

from companion.games.atlandice import RuleError

SETUP = {"players": ["Ana", "Bruno", "Eric"], "first_player": 0}


def test_store_uses_wal_and_full_sync(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_session_resumes_exactly_after_restart(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    session = Session(GameStore(path), profile)
    session.new_game(SETUP)
    session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
    session.submit({"type": "pick", "area": "jeweller"})   # and the Gem, the only resource there
    session.undo()                                          # both
    state, redo = session.game.state, list(session.game.redo_stack)
    assert session.game.version == 1 and len(redo) == 2
    session.store.close()
    again = Session(GameStore(path), profile)
    assert again.resume()
    assert again.game.state == state and again.game.redo_stack == redo
    again.redo()
    assert again.game.version == 3


def test_refused_input_is_not_stored(tmp_path, profile):
    session = Session(GameStore(tmp_path / "g.sqlite3"), profile)
    session.new_game(SETUP)
    with pytest.raises(RuleError):
        session.submit({"type": "gate_roll", "dice": [1, 2]})
    with pytest.raises(StaleVersion):
        session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}, version=5)
    record, _ = session.store.load(session.game_id)
    assert record.inputs == []


def test_a_killed_process_loses_no_acknowledged_input(tmp_path):
    # A child plays random inputs, printing each version once `submit` returned; we kill -9 it
    # mid-game, then the store must hold every acknowledged input and replay cleanly.
    path = tmp_path / "g.sqlite3"
    child = textwrap.dedent(f"""
        import random, sys
        from companion.game_profiles import load_profile
        from companion.games.atlandice.simulate import random_input
        from companion.session import Session
        from companion.store import GameStore
        s = Session(GameStore({str(path)!r}), load_profile())
        s.new_game({SETUP!r})
        rng = random.Random(1)
        while True:
            prompt = s.game.expected()
            if prompt["kind"] == "over":
                s.new_game({SETUP!r})
                continue
            s.submit(random_input(rng, prompt))
            print(s.game.version, flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    acknowledged = 0
    for line in proc.stdout:
        acknowledged = int(line)
        if acknowledged >= 40:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    store = GameStore(path)
    record, _ = store.load(store.latest_unfinished())
    assert len(record.inputs) >= acknowledged
    Game(record)  # replays without error


def test_games_listing(tmp_path, profile):
    session = Session(GameStore(tmp_path / "g.sqlite3"), profile)
    session.new_game(SETUP)
    session.new_game({"players": ["X", "Y"], "first_player": 1})
    listing = session.store.games()
    assert [g["players"] for g in listing] == [["X", "Y"], SETUP["players"]]


def test_load_record_stores_it_as_a_new_game(tmp_path, profile):
    from tests.session.conftest import random_game
    game = random_game(profile, seed=21)
    session = Session(GameStore(tmp_path / "g.sqlite3"), profile)
    session.load_record(game.record.to_jsonl())
    assert session.game.state == game.state
    record, _ = session.store.load(session.game_id)
    assert record.inputs == game.record.inputs
    assert session.store.latest_unfinished() is None  # it was a finished game


def test_profile_is_saved_and_used_for_the_next_game(tmp_path, profile):
    path = tmp_path / "profile.toml"
    session = Session(GameStore(tmp_path / "g.sqlite3"), profiles=GameProfiles(None, {"atlandice": path}))
    changed = dict(profile, confirmed=True, icons=dict(profile["icons"], market=1))
    session.set_profile(changed, "atlandice")
    assert load_profile(path)["icons"]["market"] == 1 and load_profile(path)["confirmed"]
    session.new_game(SETUP)
    assert session.game.state["profile"]["icons"]["market"] == 1


def test_a_restart_shows_the_game_last_on_the_table_finished_or_not(tmp_path, profile):
    from tests.session.conftest import random_game
    path = tmp_path / "g.sqlite3"
    session = Session(GameStore(path), profile)
    session.new_game(SETUP)                               # left unfinished
    older = session.game_id
    session.load_record(random_game(profile, seed=21).record.to_jsonl())   # played to the end
    finished = session.game_id
    assert session.game.state["over"]
    again = Session(GameStore(path), profile)
    # It once resumed the older unfinished game, and the final scoring was gone.
    assert again.resume_last() and again.game_id == finished and again.game.state["over"]
    again.resume(older)                                   # chosen from the list of games
    third = Session(GameStore(path), profile)
    assert third.resume_last() and third.game_id == older
    assert Session(GameStore(tmp_path / "empty.sqlite3"), profile).resume_last() is False


def test_a_damaged_page_met_while_finding_the_last_game_is_a_clear_error(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    store = GameStore(path)
    Session(store, profile).new_game(SETUP)
    real = store._db

    class Damaged:            # a page read only when the last game is looked up is damaged
        def execute(self, sql, *args):
            if "in_use" in sql:
                raise sqlite3.DatabaseError("database disk image is malformed")
            return real.execute(sql, *args)

    store._db = Damaged()
    with pytest.raises(StoreError, match="cannot use the games file .*g.sqlite3.*malformed"):
        store.last_in_use()
