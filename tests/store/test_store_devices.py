"""The paired devices live in the games file; opening a file from before them keeps its games."""

import sqlite3

from companion.store import GameStore

OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL, updated TEXT NOT NULL,
                    header TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0);
CREATE TABLE inputs (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                     input TEXT NOT NULL, PRIMARY KEY (game_id, seq));
INSERT INTO games VALUES (1, '2025-01-01T10:00:00+00:00', '2025-01-01T11:00:00+00:00',
                          '{"game": "atlandice", "setup": {"players": ["Ana", "Bo"]}}', 0);
INSERT INTO inputs VALUES (1, 0, '{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}');
"""


def test_a_games_file_from_before_devices_gains_the_table_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    store = GameStore(path)
    record, _ = store.load(1)
    assert record.inputs == [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}]
    assert store.devices() == []
    store.add_device("abc", "Android · Chrome", "192.168.1.20")
    store.close()
    again = GameStore(path)
    assert [d["id"] for d in again.devices()] == ["abc"] and again.has_device("abc")
    assert again.games()[0]["players"] == ["Ana", "Bo"]
    again.close()


def test_devices_are_removed_one_or_all(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    for name in ("a", "b", "c"):
        store.add_device(name, "tablet", "10.0.0.1")
    store.device_seen("b", "2030-01-01T00:00:00+00:00", "10.0.0.9")
    assert store.devices()[0] == dict(store.devices()[0], id="b", address="10.0.0.9")
    assert store.remove_devices("a") == 1 and store.remove_devices("a") == 0
    assert not store.has_device("a") and store.has_device("c")
    assert store.remove_devices() == 2 and store.devices() == []
    store.close()
