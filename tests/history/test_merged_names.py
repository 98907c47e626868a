"""The players' merged names live in the games file (table `player_aliases`, its code in
companion/merged_names.py): a file from before them gains the table with the first merge; merges
made by an earlier version, which created the table on opening every file, are kept."""

import sqlite3

from companion import merged_names
from companion.store import GameStore


def test_a_file_without_merges_gains_the_table_with_the_first(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    assert merged_names.aliases(store) == {}
    merged_names.unmerge(store, "anna")                # nothing to take back: nothing happens
    merged_names.merge(store, "anna", "Ana")
    merged_names.merge(store, "bia", "Beatriz")
    merged_names.unmerge(store, "bia")
    store.close()
    assert merged_names.aliases(GameStore(tmp_path / "g.sqlite3")) == {"anna": "Ana"}


def test_merges_made_by_an_earlier_version_are_kept(tmp_path):
    path = tmp_path / "old.sqlite3"
    GameStore(path).close()
    with sqlite3.connect(path) as db:
        db.executescript("CREATE TABLE player_aliases (alias TEXT PRIMARY KEY, player TEXT NOT NULL);"
                         "INSERT INTO player_aliases VALUES ('anna', 'Ana');")
    store = GameStore(path)
    assert merged_names.aliases(store) == {"anna": "Ana"}
    merged_names.merge(store, "bia", "Beatriz")
    assert merged_names.aliases(store) == {"anna": "Ana", "bia": "Beatriz"}
