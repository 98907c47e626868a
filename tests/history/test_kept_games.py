"""The games' summaries are a cache of the records: a record that changes is summarized again."""

import hashlib
import json

from companion.history.summary import summarize
from companion.kept_games import KeptGames, kept_summaries
from companion.store import GameStore, StoreError
from tests.store.test_storage_faults import damage, read_only

from .conftest import random_record


def fresh(store, gid):
    record, _ = store.load(gid)
    return summarize(record.header, record.inputs)


def strip(s):
    return {k: v for k, v in s.items() if k not in ("id", "created", "updated", "imported", "played")}


def test_summaries_follow_every_change_of_the_records(tmp_path, profile):
    store = GameStore(tmp_path / "g.sqlite3")
    kept = KeptGames(store)
    a = random_record(profile, 1)
    b = random_record(profile, 2, stop_after=40)
    ids = []
    for record in (a, b):
        gid = store.create(record.header)
        for seq, inp in enumerate(record.inputs):
            store.append(gid, seq, inp)
        ids.append(gid)
    first = kept.summaries()
    assert [s["id"] for s in first] == ids[::-1]                     # newest first
    assert strip(first[1]) == strip(fresh(store, ids[0]))
    assert kept.summaries()[1] is first[1]                           # unchanged: not summarized again
    assert kept.summaries()[0] is not first[0]                       # the game on the table: always afresh

    # Undo the last input of b and enter another roll in its place: same count, another record.
    last = b.inputs[-1]
    store.undo(ids[1], len(b.inputs) - 1, last)
    assert strip(kept.summaries()[0]) == strip(fresh(store, ids[1]))
    store.append(ids[1], len(b.inputs) - 1, last)
    assert strip(kept.summaries()[0]) == strip(fresh(store, ids[1]))

    # Game a back on the table: changed within the second, same count, same last input.
    store.use(ids[0])
    kept.summaries()
    undone = a.inputs[-1]
    store.undo(ids[0], len(a.inputs) - 1, undone)
    assert kept.summaries()[1]["over"] is False
    store.append(ids[0], len(a.inputs) - 1, undone)
    store.use(ids[1])
    assert strip(kept.summaries()[1]) == strip(fresh(store, ids[0]))
    store.close()


# --- kept in the games file: across a restart, and only while they match their record ------

def stored_games(path, profile, store=None):
    """Two finished games and a third one unfinished, on the table: (store, ids)."""
    store = store or GameStore(path)
    ids = []
    for seed, stop in ((1, None), (2, None), (3, 40)):
        record = random_record(profile, seed, stop_after=stop)
        ids.append(store.create(record.header, record.inputs, over=stop is None))
    return store, ids


def counted(monkeypatch):
    """The game ids summarized from their records from now on."""
    import companion.kept_games
    seen = []

    def summarizing(self, gid):
        seen.append(gid)
        return real(self, gid)
    real = companion.kept_games.KeptGames._summarize
    monkeypatch.setattr(companion.kept_games.KeptGames, "_summarize", summarizing)
    return seen


def restart(store):
    """The companion starts again on the same file: nothing kept in memory."""
    path = store.path
    store.close()
    return GameStore(path)


def test_summaries_survive_a_restart_and_match_the_records(tmp_path, profile, monkeypatch):
    store, ids = stored_games(tmp_path / "g.sqlite3", profile)
    before = KeptGames(store).summaries()
    store = restart(store)
    seen = counted(monkeypatch)
    after = KeptGames(store).summaries()
    assert seen == [ids[2]]                       # only the game on the table is replayed
    assert [strip(s) for s in after] == [strip(s) for s in before]
    assert [strip(s) for s in after] == [strip(fresh(store, gid)) for gid in reversed(ids)]
    assert after[2]["rolls"] and all(isinstance(face, int) for face in after[2]["rolls"])
    store.close()


def test_a_kept_summary_is_refused_when_its_record_changed(tmp_path, profile, monkeypatch):
    store, ids = stored_games(tmp_path / "g.sqlite3", profile)
    KeptGames(store).summaries()
    first, second = ids[0], ids[1]
    record, _ = store.load(first)
    changes = [
        ("undo", lambda: store.undo(first, len(record.inputs) - 1, record.inputs[-1])),
        ("a new input", lambda: store.append(first, len(record.inputs) - 1, record.inputs[-1])),
        ("the record replaced", lambda: store._db.execute(
            "UPDATE games SET header = ? WHERE id = ?",
            (json.dumps(dict(store.load(second)[0].header, setup=dict(
                store.load(second)[0].header["setup"], players=["Zé", "Bruno", "Eric"]))), second))),
    ]
    for what, change in changes:
        change()
        store = restart(store)
        seen = counted(monkeypatch)
        kept = {s["id"]: s for s in KeptGames(store).summaries()}
        changed = second if what == "the record replaced" else first
        assert changed in seen, what
        assert strip(kept[changed]) == strip(fresh(store, changed)), what
        monkeypatch.undo()
    assert kept[second]["players"][0] == "Zé"
    assert kept[first]["over"] and kept[first]["inputs"] == len(record.inputs)
    store.close()


def test_a_summary_derived_by_other_rules_is_derived_again(tmp_path, profile, monkeypatch):
    store, ids = stored_games(tmp_path / "g.sqlite3", profile)
    KeptGames(store).summaries()
    store = restart(store)
    import companion.kept_games
    monkeypatch.setattr(companion.kept_games, "code_digest", lambda: "rules of another version")
    seen = counted(monkeypatch)
    KeptGames(store).summaries()
    assert sorted(seen) == sorted(ids)
    store.close()


def test_a_damaged_kept_summary_is_derived_again_and_rebuild_drops_them(tmp_path, profile, monkeypatch):
    store, ids = stored_games(tmp_path / "g.sqlite3", profile)
    KeptGames(store).summaries()
    store._db.execute("UPDATE summaries SET summary = '{not json' WHERE game_id = ?", (ids[0],))
    store = restart(store)
    seen = counted(monkeypatch)
    kept = KeptGames(store)
    assert strip(kept.summaries()[2]) == strip(fresh(store, ids[0])) and seen == [ids[2], ids[0]]
    kept.rebuild()
    assert kept_summaries(store) == {}
    assert [strip(s) for s in kept.summaries()] == [strip(fresh(store, gid)) for gid in reversed(ids)]
    assert len(kept_summaries(store)) == 2        # kept again, the game on the table aside
    store.close()


def test_a_read_only_file_is_never_written(tmp_path, profile, monkeypatch):
    path = tmp_path / "g.sqlite3"
    store, ids = stored_games(path, profile)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    read_only(monkeypatch)
    store = GameStore(path)
    assert store.problem is not None and store.problem.key == "storage_read_only"
    summaries = KeptGames(store).summaries()
    assert [strip(s) for s in summaries] == [strip(fresh(store, gid)) for gid in reversed(ids)]
    store.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_damaged_file_is_never_written(tmp_path, profile):
    path = tmp_path / "g.sqlite3"
    digest = damage(path, profile)
    store = GameStore(path)
    assert store.problem is not None and store.problem.key == "storage_damaged"
    kept = KeptGames(store)
    for _ in range(2):
        try:
            kept.summaries()                 # what can be read is summarized, nothing kept
        except StoreError as exc:            # (or the list itself cannot be read: it says so)
            assert exc.key == "storage_damaged"
    store.close()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
