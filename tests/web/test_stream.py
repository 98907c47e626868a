"""GET /api/events: one message per change, replay after Last-Event-ID, heartbeats, a cap."""

import json
import pytest

from web import create_app
from web.stream import parse_event_id

from .conftest import SETUP, play


def read_messages(response, count):
    """The first `count` SSE messages (comments skipped) as (id, data) pairs."""
    out, buf = [], ""
    for chunk in response.response:
        buf += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
                          and ": " in line)
            if "data" in fields:
                out.append((fields["id"], json.loads(fields["data"])))
                if len(out) == count:
                    response.close()
                    return out
    return out


def test_the_first_message_is_the_current_table(client, game_session):
    game_session.new_game(SETUP)
    r = client.get("/api/events", buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    (eid, data), = read_messages(r, 1)
    assert parse_event_id(eid) == (game_session.change_id, 0, game_session.game_id, game_session.game_changes,
                                   game_session.boot)
    assert data["expected"]["kind"] == "gate_roll" and data["new"] == [] and data["reset"] is False


def next_message(chunks):
    """Read chunks until one whole SSE message with data; returns (id, data)."""
    buf = ""
    for chunk in chunks:
        buf += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "\n\n" in buf and "data: " in buf:
            block = [b for b in buf.split("\n\n") if "data: " in b][0]
            fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
            return fields["id"], json.loads(fields["data"])
    raise AssertionError("the stream ended")


def test_every_change_is_a_message(client, game_session):
    game_session.new_game(SETUP)
    r = client.get("/api/events", buffered=False)
    chunks = iter(r.response)
    first_id, first = next_message(chunks)
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    eid, data = next_message(chunks)
    r.close()
    assert data["version"] == 1 and data["change_id"] > first["change_id"]
    assert [e["index"] for e in data["new"]] == [0]
    assert data["new"][0]["text"][0].startswith("Round 1")


def test_reconnecting_replays_what_was_missed_from_the_record(client, game_session):
    game_session.new_game(SETUP)
    seen = f"{game_session.change_id}.0.{game_session.game_id}.{game_session.game_changes}.{game_session.boot}"
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]},
                        {"type": "pick", "area": "inn", "for": "self"}])
    r = client.get("/api/events", headers={"Last-Event-ID": seen}, buffered=False)
    (eid, data), = read_messages(r, 1)
    assert [e["index"] for e in data["new"]] == [0, 1, 2]     # with the Provision the session took
    assert data["new"][1]["input"]["area"] == "inn"
    assert data["new"][2]["input"] == {"type": "resource", "resource": "provision", "source": "auto"}
    assert data["reset"] is False


def test_after_an_undo_or_another_game_the_page_is_told_to_reload(client, game_session):
    game_session.new_game(SETUP)
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    seen = f"{game_session.change_id}.1.{game_session.game_id}.{game_session.game_changes}.{game_session.boot}"
    game_session.undo()
    (eid, data), = read_messages(client.get("/api/events", headers={"Last-Event-ID": seen}, buffered=False), 1)
    assert data["reset"] is True and data["version"] == 0
    # Taken back and replaced by another input: the same version, another history.
    play(game_session, [{"type": "gate_roll", "dice": [6, 6, 6, 5, 5, 4, 4]}])
    (eid, data), = read_messages(client.get("/api/events", headers={"Last-Event-ID": seen}, buffered=False), 1)
    assert data["version"] == 1 and data["reset"] is True, "it once sent nothing new and kept the old roll"
    (eid, data), = read_messages(client.get("/api/events?last_event_id=3.0.99", buffered=False), 1)
    assert data["reset"] is True


def test_heartbeats_keep_the_stream_alive(client, game_session):
    r = client.get("/api/events", buffered=False)
    chunks = []
    for chunk in r.response:
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if sum(c.count(": heartbeat") for c in chunks) >= 2:
            break
    r.close()
    assert any(c.startswith(": heartbeat") for c in chunks)


def test_streams_are_capped(tmp_path, game_session):
    app = create_app({"TESTING": True, "SSE_MAX_STREAMS": 2, "SSE_HEARTBEAT": 0.1,
                      "INSTANCE_PATH": tmp_path / "i"}, session=game_session)
    c = app.test_client()
    a = c.get("/api/events", buffered=False)
    b = c.get("/api/events", buffered=False)
    r = c.get("/api/events?lang=pt-BR", buffered=False)
    assert r.status_code == 503 and r.json["error"] == "busy"
    assert r.json["message"] == "Há páginas ao vivo demais abertas (no máximo 2): esta página tenta de novo sozinha daqui a pouco."
    a.close()
    d = c.get("/api/events", buffered=False)
    assert d.status_code == 200, "a closed stream gives its slot back"
    b.close()
    d.close()
    assert app.extensions["streams"].open == 0


@pytest.mark.parametrize("text, parsed", [("12.5.3.7.ab12", (12, 5, 3, 7, "ab12")), ("12.5.3.7", (12, 5, 3, 7, None)),
                                          ("12.5.3", (12, 5, 3, None, None)), ("4.-.-.-.-", (4, None, None, None, "-")),
                                          ("x", None), ("", None), (None, None), ("1.2", None), ("a.b.c", None),
                                          ("1.-3.1.2", None)])
def test_event_ids(text, parsed):
    assert parse_event_id(text) == parsed


def test_the_page_gets_the_table_drawn_in_each_message(client, game_session):
    game_session.new_game(SETUP)
    r = client.get("/api/events?html=1&lang=pt-BR", buffered=False)
    chunks = iter(r.response)
    _, data = next_message(chunks)
    assert data["html"].startswith('\n<div id="live"') or '<div id="live"' in data["html"]
    assert "Joalheria" in data["html"]
    r.close()
    r = client.get("/api/events", buffered=False)
    _, data = next_message(iter(r.response))
    r.close()
    assert "html" not in data, "other clients get the data alone"


def test_a_page_from_before_a_restart_is_told_to_reload(client, game_session):
    game_session.new_game(SETUP)
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    same = f"{game_session.change_id}.1.{game_session.game_id}.{game_session.game_changes}"
    (_, data), = read_messages(client.get("/api/events", headers={"Last-Event-ID": same + "." + game_session.boot},
                                          buffered=False), 1)
    assert data["reset"] is False and data["new"] == []
    # The same counts from another run (they begin again after a restart): not the same history.
    (_, data), = read_messages(client.get("/api/events", headers={"Last-Event-ID": same + ".0ther0ne"},
                                          buffered=False), 1)
    assert data["reset"] is True


def stream_app(tmp_path, game_session, **config):
    from .conftest import CODE
    return create_app(dict({"TESTING": True, "PAIRING_CODE": CODE, "SSE_MAX_STREAMS": 3, "SSE_HEARTBEAT": 0.1,
                            "INSTANCE_PATH": tmp_path / "i"}, **config), session=game_session)


def paired_client(app):
    from .conftest import CODE, post
    c = app.test_client()
    assert post(c, "/pair", {"code": CODE}).status_code == 200
    return c


def runs_to_its_end(response, limit: int = 200) -> bool:
    """Whether the stream ends by itself within `limit` chunks (heartbeats every 0.1 s)."""
    for n, _ in enumerate(response.response):
        if n >= limit:
            return False
    return True


def test_a_paired_device_gets_a_stream_when_watchers_hold_every_slot(tmp_path, game_session):
    app = stream_app(tmp_path, game_session)
    watchers = [app.test_client().get("/api/events", buffered=False) for _ in range(3)]
    assert all(w.status_code == 200 for w in watchers)
    turned_away = app.test_client().get("/api/events", buffered=False)
    assert turned_away.status_code == 503 and turned_away.headers["Retry-After"] == "10"
    tablet = paired_client(app)
    mine = tablet.get("/api/events", buffered=False)
    assert mine.status_code == 200, "a paired device keeps a slot"
    next_message(iter(mine.response))
    assert runs_to_its_end(watchers[0]), "the oldest watcher's stream ends"
    assert app.extensions["streams"].open == 3
    # All slots held by paired streams: one device with several gives one up, a watcher still waits.
    other = paired_client(app)
    streams = [tablet.get("/api/events", buffered=False) for _ in range(2)]
    assert all(s.status_code == 200 for s in streams)
    theirs = other.get("/api/events", buffered=False)
    assert theirs.status_code == 200
    assert app.test_client().get("/api/events", buffered=False).status_code == 503
    for r in watchers[1:] + [mine, theirs] + streams:
        r.close()


def test_a_watchers_stream_is_reaped_after_its_lifetime(tmp_path, game_session):
    app = stream_app(tmp_path, game_session, SSE_WATCHER_LIFETIME=0.3)
    watcher = app.test_client().get("/api/events", buffered=False)
    assert runs_to_its_end(watcher), "a stream nobody reads does not hold its slot for ever"
    assert app.extensions["streams"].open == 0
    tablet = paired_client(app).get("/api/events", buffered=False)
    assert not runs_to_its_end(tablet, limit=8), "a paired device's stream is not reaped"
    tablet.close()
