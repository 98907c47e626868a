"""The games' summaries are a cache of the records: a record that changes is summarized again."""

from companion.history.summary import summarize
from companion.kept_games import KeptGames
from companion.store import GameStore

from .conftest import random_record


def fresh(store, gid):
    record, _ = store.load(gid)
    return summarize(record.header, record.inputs)


def strip(s):
    return {k: v for k, v in s.items() if k not in ("id", "created", "updated")}


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
