"""Live streams: revocation ends a removed tablet's streams at once (hardening item 5), the limit
is a setting and the page can ask why it was refused (item 9), and a stream ends after
SSE_STREAM_BYTES so no connection holds what it sent for long, the page's messages carrying only
what it reads (item 1)."""

from __future__ import annotations

import json
import threading

from companion.config import load_config
from web import create_app

from .conftest import CODE, SETUP, XHR, play, post


def stream_app(tmp_path, game_session, **config):
    return create_app(dict({"TESTING": True, "PAIRING_CODE": CODE, "SSE_MAX_STREAMS": 3, "SSE_HEARTBEAT": 0.1,
                            "INSTANCE_PATH": tmp_path / "i"}, **config), session=game_session)


def paired_client(app):
    c = app.test_client()
    assert post(c, "/pair", {"code": CODE}).status_code == 200
    return c


def drain(response, limit: int = 100) -> str:
    """What the stream sends until it ends by itself ("" + a mark if it is still open after `limit` chunks)."""
    text = ""
    for n, chunk in enumerate(response.response):
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if n >= limit:
            response.close()
            return text + "\n<still open>"
    return text


def in_background(fn):
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("out", fn()), daemon=True)
    t.start()
    return t, box


def test_unpairing_ends_the_tablets_streams_at_once(tmp_path, game_session):
    app = stream_app(tmp_path, game_session)
    tablet, other = paired_client(app), paired_client(app)
    mine = [tablet.get("/api/events?html=1", buffered=False) for _ in range(2)]
    theirs = other.get("/api/events", buffered=False)
    assert app.extensions["streams"].open == 3
    runs = [in_background(lambda r=r: drain(r)) for r in mine]
    assert post(tablet, "/unpair").status_code == 200
    for t, box in runs:
        t.join(10)
        assert "event: revoked" in box["out"] and "<still open>" not in box["out"]
    assert app.extensions["streams"].open == 1, "the removed tablet's slots are free at once"
    # Reconnecting, the page is a watcher's: its table has no paired controls.
    again = tablet.get("/api/events?html=1", buffered=False)
    assert again.status_code == 200
    theirs.close()
    again.close()


def test_removing_tablets_on_the_tablets_page_frees_their_slots(tmp_path, game_session):
    """Eight removed tablets' streams no longer keep a newly paired tablet out (503 with no end)."""
    app = stream_app(tmp_path, game_session, SSE_MAX_STREAMS=8)
    game_session.new_game(SETUP)
    old = [paired_client(app) for _ in range(8)]
    streams = [c.get("/api/events", buffered=False) for c in old]
    assert all(s.status_code == 200 for s in streams)
    local = app.test_client()           # the tablets' page (loopback)
    r = post(local, "/tablets/remove", {"tablet": "all"})
    assert r.status_code == 200 and r.json["removed"] == 8
    assert app.extensions["streams"].open == 0
    for s in streams:
        assert "event: revoked" in drain(s)
    new = paired_client(app)
    r = new.get("/api/events", buffered=False)
    assert r.status_code == 200
    r.close()
    # one tablet removed by id: only its stream ends
    before = {d["id"] for d in app.extensions["tablets"].listed()}
    a, b = paired_client(app), paired_client(app)
    sa, sb = a.get("/api/events", buffered=False), b.get("/api/events", buffered=False)
    did = sorted({d["id"] for d in app.extensions["tablets"].listed()} - before)[0]
    assert post(local, "/tablets/remove", {"tablet": did}).status_code == 200
    assert app.extensions["streams"].open == 1
    sa.close()
    sb.close()


def test_the_limit_is_a_setting_and_the_page_can_ask_why_it_was_refused(tmp_path, game_session):
    cfg = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_WEB_LIVE_STREAMS": "2"})
    assert cfg.web.live_streams == 2
    assert load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path)}).web.live_streams == 12
    app = stream_app(tmp_path, game_session, SSE_MAX_STREAMS=cfg.web.live_streams)
    watchers = [app.test_client().get("/api/events", buffered=False) for _ in range(2)]
    watcher = app.test_client()
    assert watcher.get("/api/events", buffered=False).status_code == 503
    for lang, said in (("en", "at most 2"), ("pt-BR", "no máximo 2")):
        r = watcher.get(f"/api/events/room?lang={lang}", headers=XHR)
        assert r.status_code == 200 and r.json["free"] is False and r.json["limit"] == 2
        assert said in r.json["message"]
    tablet = paired_client(app)
    assert tablet.get("/api/events/room", headers=XHR).json["free"] is True, "a tablet goes before a watcher"
    for w in watchers:
        w.close()
    assert watcher.get("/api/events/room", headers=XHR).json == {"limit": 2, "open": 0, "free": True, "message": None}


def test_twelve_tablets_get_a_stream_by_default(tmp_path, game_session):
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "SSE_HEARTBEAT": 0.1, "INSTANCE_PATH": tmp_path / "i"},
                     session=game_session)
    streams = [paired_client(app).get("/api/events", buffered=False) for _ in range(12)]
    assert [s.status_code for s in streams] == [200] * 12
    for s in streams:
        s.close()


def test_a_stream_ends_after_its_bytes_and_the_page_comes_back_missing_nothing(tmp_path, game_session):
    app = stream_app(tmp_path, game_session, SSE_STREAM_BYTES=20_000)
    game_session.new_game(SETUP)
    page = paired_client(app)
    r = page.get("/api/events?html=1", buffered=False)
    t, box = in_background(lambda: drain(r, limit=500))
    rolls = [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}]
    while t.is_alive():
        if game_session.game.version % 2:
            game_session.undo()
        else:
            play(game_session, rolls)
        t.join(0.05)
    t.join(10)
    got = box["out"]
    assert "<still open>" not in got and got.rstrip().endswith(": planned end, come back")
    assert "retry: 100" in got
    blocks = [b for b in got.split("\n\n") if "data: " in b]
    sizes = sum(len(b) for b in blocks)
    assert 20_000 <= sizes < 20_000 + max(len(b) for b in blocks) + 10
    last_id = [line[4:] for line in blocks[-1].splitlines() if line.startswith("id: ")][0]
    data = json.loads([line[6:] for line in blocks[-1].splitlines() if line.startswith("data: ")][0])
    assert set(data) == {"change_id", "boot", "version", "game_id", "game_changes", "html"}, \
        "the page's messages carry the table drawn and the counts it reads, not the state"
    # The page comes back with Last-Event-ID: nothing changed since, nothing is sent; the next change is.
    again = page.get("/api/events?html=1", headers={"Last-Event-ID": last_id}, buffered=False)
    chunks = iter(again.response)
    first = next(chunks)
    first = first.decode() if isinstance(first, bytes) else first
    assert first.startswith("retry: 1000") and "data:" not in first
    if game_session.game.version % 2:
        game_session.undo()
    else:
        play(game_session, rolls)
    text = ""
    for chunk in chunks:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "data: " in text:
            break
    assert f'"change_id":{game_session.change_id}' in text
    again.close()
