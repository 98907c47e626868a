"""The paired tablets live in the games file (table `devices`, its code in web/tablets.py): a file
from before them keeps its games and gains the table with the first pairing; a file whose
tablets were paired by an earlier version keeps them."""

import sqlite3

from companion.store import GameStore
from web.tablets import TabletRows

OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL, updated TEXT NOT NULL,
                    header TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0);
CREATE TABLE inputs (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                     input TEXT NOT NULL, PRIMARY KEY (game_id, seq));
INSERT INTO games VALUES (1, '2025-01-01T10:00:00+00:00', '2025-01-01T11:00:00+00:00',
                          '{"game": "atlandice", "setup": {"players": ["Ana", "Bo"]}}', 0);
INSERT INTO inputs VALUES (1, 0, '{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}');
"""

# As an earlier version created it on opening every file.
PAIRED_BEFORE = """
CREATE TABLE devices (id TEXT PRIMARY KEY, label TEXT NOT NULL, address TEXT NOT NULL,
                      paired TEXT NOT NULL, last_seen TEXT NOT NULL);
INSERT INTO devices VALUES ('old', 'iPad · Safari', '192.168.1.7', '2025-01-01T10:00:00+00:00',
                            '2025-01-02T10:00:00+00:00');
"""


def test_a_games_file_from_before_tablets_gains_the_table_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    store = GameStore(path)
    record, _ = store.load(1)
    assert record.inputs == [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}]
    rows = TabletRows(store)
    assert rows.listed() == [] and not rows.has("abc")
    assert rows.remove("abc") == 0
    rows.add("abc", "Android · Chrome", "192.168.1.20")
    store.close()
    again = GameStore(path)
    assert [d["id"] for d in TabletRows(again).listed()] == ["abc"] and TabletRows(again).has("abc")
    assert again.games()[0]["players"] == ["Ana", "Bo"]
    again.close()


def test_tablets_paired_by_an_earlier_version_stay_paired(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA + PAIRED_BEFORE)
    rows = TabletRows(GameStore(path))
    assert rows.has("old")
    assert rows.listed() == [{"id": "old", "label": "iPad · Safari", "address": "192.168.1.7",
                              "paired": "2025-01-01T10:00:00+00:00", "last_seen": "2025-01-02T10:00:00+00:00"}]
    rows.add("new", "Android · Chrome", "192.168.1.20")
    assert {d["id"] for d in rows.listed()} == {"old", "new"}


def test_tablets_are_removed_one_or_all(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    rows = TabletRows(store)
    for name in ("a", "b", "c"):
        rows.add(name, "tablet", "10.0.0.1")
    rows.seen("b", "2030-01-01T00:00:00+00:00", "10.0.0.9")
    assert rows.listed()[0] == dict(rows.listed()[0], id="b", address="10.0.0.9")
    assert rows.remove("a") == 1 and rows.remove("a") == 0
    assert not rows.has("a") and rows.has("c")
    assert rows.remove() == 2 and rows.listed() == []
    store.close()
