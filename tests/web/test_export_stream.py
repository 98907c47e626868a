"""The export is streamed: each record is read, compressed and sent before the next is read, so
an export never holds every record (or the whole zip) in memory."""

import io
import zipfile

import pytest

from companion.history.export import records_zip_stream
from companion.record import Record

from .test_history_pages import games


@pytest.fixture(autouse=True)
def _public_history(app):
    """These read the history as an unpaired watcher would with [web] public_history = true; the
    default (paired tablets only) is tested in tests/web/test_history_access.py."""
    app.config["PUBLIC_HISTORY"] = True


def test_the_zip_is_streamed_a_record_at_a_time(client, game_session, monkeypatch):
    games(game_session, 3)
    loaded = []
    real = game_session.store.load
    monkeypatch.setattr(game_session.store, "load", lambda gid: loaded.append(gid) or real(gid))
    r = client.get("/games/export.zip", buffered=False)
    assert r.status_code == 200 and r.is_streamed
    pieces = r.response
    first = next(iter(pieces))
    assert first and loaded[-1] == 1                         # the first record read and sent ...
    so_far = len(loaded)
    data = first + b"".join(pieces)
    assert loaded[so_far:] == [2, 3]                         # ... before the others were read
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None
        assert sorted(z.namelist()) == ["games.csv"] + [f"records/atlandice-game-{i}.jsonl" for i in (1, 2, 3)]
        for gid in (1, 2, 3):
            assert Record.from_jsonl(z.read(f"records/atlandice-game-{gid}.jsonl").decode()).inputs == \
                real(gid)[0].inputs


def test_records_zip_stream_asks_for_each_record_only_when_the_last_is_sent():
    asked = []

    def records():
        for i in range(1, 4):
            asked.append(i)
            yield {"game": "atlandice", "id": i}, f'{{"n": {i}}}\n' * 1000

    stream = records_zip_stream(records(), "game_id\r\n")
    sizes = []
    for piece in stream:
        sizes.append((len(asked), len(piece)))
    assert [n for n, _ in sizes[:3]] == [1, 2, 3] and all(size for _, size in sizes)
