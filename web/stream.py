"""GET /api/events: the live stream (Server-Sent Events), one per open page.

Each message is

    id: <change_id>.<version>.<game_id>
    event: change
    data: {"change_id", "version", "game_id", "reset", "new": [history entries], "state",
           "expected", "can_undo", "can_redo", "camera", "refusal"}

`html` (only with ?html=1, for the page itself) is the live table drawn.
`new` holds the history entries (input, events and their text) the page has
not seen yet. On reconnect the browser sends the last id back
(Last-Event-ID): the entries applied since that version are replayed from
the record. `reset` is true when the page's view cannot be patched (another
game, or inputs taken back): reload the whole state. A comment line is sent
every SSE_HEARTBEAT seconds so dead connections are noticed.

With waitress each open stream holds a server thread, so at most
SSE_MAX_STREAMS run at once. A paired tablet gets one even when all are
taken: the oldest stream of a mere watcher ends (its page reconnects later),
or else the oldest of a tablet holding several (only when every slot is a
different paired tablet's is it refused like a watcher). A watcher beyond the limit
gets 503 with Retry-After (the page's script tries again later). A watcher's
stream ends after SSE_WATCHER_LIFETIME seconds (its browser reconnects at
once, sending Last-Event-ID), so streams that nobody reads do not hold their
slots for ever. Serve with waitress's `channel_request_lookahead=1` so a
stream notices within half a second that its page was closed
(waitress.client_disconnected).
"""

from __future__ import annotations

import json
import threading
import time

from flask import Blueprint, Response, current_app, render_template, request

from companion import games
from companion.shelf import words_for

from . import i18n, security, view
from .errors import ApiError, said

bp = Blueprint("stream", __name__)

POLL = 0.5  # seconds between checks that the client is still there


RETRY_AFTER = 10  # seconds a watcher turned away waits before it tries again


class Slot:
    def __init__(self, tablet: str | None, opened: float):
        self.tablet = tablet          # the paired tablet's id; None for a watcher
        self.opened = opened
        self.ended = threading.Event()  # set when a paired tablet needs the slot, or on revocation
        self.revoked = False          # the tablet was unpaired: its page is told to reload


class StreamSlots:
    """The live streams running, at most `limit` (see the module's docstring)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._slots: list[Slot] = []
        self._lock = threading.Lock()

    @property
    def open(self) -> int:
        with self._lock:
            return len(self._slots)

    def take(self, tablet: str | None = None) -> Slot | None:
        """A slot for a stream of `tablet` (None: a watcher), or None when there is none."""
        with self._lock:
            if len(self._slots) >= self.limit:
                victim = self._victim(tablet) if tablet is not None else None
                if victim is None:
                    return None
                self._slots.remove(victim)
                victim.ended.set()
            slot = Slot(tablet, time.monotonic())
            self._slots.append(slot)
            return slot

    def would_take(self, tablet: str | None) -> bool:
        """Whether `take(tablet)` would give a slot now (nothing is taken)."""
        with self._lock:
            return len(self._slots) < self.limit or (tablet is not None and self._victim(tablet) is not None)

    def _victim(self, tablet: str) -> Slot | None:
        """The stream a paired tablet's new one replaces: a watcher's, else one of a tablet with several."""
        watchers = [s for s in self._slots if s.tablet is None]
        if watchers:
            return watchers[0]
        counts: dict = {}
        for s in self._slots:
            counts[s.tablet] = counts.get(s.tablet, 0) + 1
        several = [s for s in self._slots if counts[s.tablet] > 1 or s.tablet == tablet]
        return several[0] if several else None

    def revoke(self, tablet: str | None) -> int:
        """End at once the streams of `tablet` (None: every paired tablet's), unpaired on
        /unpair or /tablets: their slots are free now, and their pages reload as watchers."""
        with self._lock:
            gone = [s for s in self._slots if s.tablet is not None and (tablet is None or s.tablet == tablet)]
            for s in gone:
                self._slots.remove(s)
                s.revoked = True
                s.ended.set()
        return len(gone)

    def give_back(self, slot: Slot) -> None:
        with self._lock:
            if slot in self._slots:
                self._slots.remove(slot)


def parse_event_id(text: str | None) -> tuple | None:
    """'12.5.3.7.5f3a9c1e' -> (change_id 12, version 5, game_id 3, game_changes 7, boot
    '5f3a9c1e'); None when absent or not ours. An older id of three or four parts gives
    None for what it lacks."""
    if not text:
        return None
    parts = text.strip().split(".")
    if not 3 <= len(parts) <= 5:
        return None
    boot = parts.pop(4) if len(parts) == 5 else None
    try:
        out = tuple(int(p) if p not in ("", "-") else None for p in parts)
    except ValueError:
        return None
    if any(p is not None and p < 0 for p in out):
        return None
    return out + (None,) * (4 - len(out)) + (boot or None,)


def event_id(snap: dict) -> str:
    def part(v):
        return "-" if v is None else str(v)
    return ".".join(part(snap.get(k)) for k in ("change_id", "version", "game_id", "game_changes", "boot"))


class FragmentCache:
    """The live table as HTML, rendered once per (change, language, paired) for every page showing it."""

    def __init__(self, size: int = 8):
        self.size = size
        self._items: dict = {}
        self._lock = threading.Lock()

    def get(self, key, make):
        with self._lock:
            if key in self._items:
                return self._items[key]
        html = make()
        with self._lock:
            self._items[key] = html
            while len(self._items) > self.size:
                self._items.pop(next(iter(self._items)))
        return html


def fragment(app, sess, snap: dict, lang: str, paired: bool) -> str:
    """The table drawn as GET /live draws it (the stream outlives its request: a context of its own)."""
    v = view.table(snap, lang)
    v["image_id"] = sess.desk.image_id()     # None: no picture yet
    with app.test_request_context("/live", query_string={"lang": lang}):
        return render_template("live.html", v=v, paired=paired)


def message(snap: dict, seen: tuple | None, lang: str, html: str | None = None) -> str:
    """One SSE message: what changed since `seen` (change_id, version, game_id). With `html` (the
    page's own stream) only the table drawn and the counts the page reads: the state, the prompt
    and the history's entries, which the page never reads, are left out (a message a fraction
    of the size)."""
    if html is not None:
        data = {k: snap.get(k) for k in ("change_id", "boot", "version", "game_id", "game_changes")}
        data["html"] = html
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return f"id: {event_id(snap)}\nevent: change\ndata: {payload}\n\n"
    state = snap.get("state")
    words = words_for(snap.get("game") or games.DEFAULT, lang)
    names = words.names(state) if state else []
    history = snap.get("history") or []
    reset = False
    new: list = []
    if seen is not None:
        _, version, game_id, changes, boot = seen
        # Only inputs added since: as many changes as new inputs. An undo (then another input,
        # to the same version) makes more changes than that, and the page must reload; so must
        # one from before a restart, where the counts began again.
        if (game_id != snap["game_id"] or version is None or snap["version"] is None or changes is None
                or boot != snap["boot"] or version > snap["version"]
                or snap["game_changes"] - changes != snap["version"] - version):
            reset = True
        else:
            new = history[version:]
    new = [dict(entry, text=[words.event(ev, names) for ev in entry["events"]]) for entry in new]
    data = {k: snap.get(k) for k in ("change_id", "boot", "version", "game_id", "state", "expected", "can_undo",
                                       "can_redo", "camera", "refusal", "proposal")}
    data["reset"] = reset
    data["new"] = new
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event_id(snap)}\nevent: change\ndata: {payload}\n\n"


@bp.record_once
def _setup(state) -> None:
    """The app's stream slots, told when a tablet is unpaired (web/tablets.py)."""
    app = state.app
    slots = app.extensions.setdefault("streams", StreamSlots(int(app.config["SSE_MAX_STREAMS"])))
    tablets = app.extensions.get("tablets")
    if tablets is not None:
        tablets.on_remove.append(slots.revoke)


def slots_of(app) -> StreamSlots:
    return app.extensions.setdefault("streams", StreamSlots(int(app.config["SSE_MAX_STREAMS"])))


@bp.get("/api/events/room")
def room():
    """Whether this client would get a live stream now: {"limit", "open", "free", "message"}
    (the page asks when its stream was refused, to say why instead of "offline")."""
    slots = slots_of(current_app)
    tablet = security.paired_tablet()
    free = slots.would_take(tablet)
    return {"limit": slots.limit, "open": slots.open, "free": free,
            "message": None if free else said("err_busy", limit=slots.limit)}


@bp.get("/api/events")
def events():
    app = current_app._get_current_object()
    slots = slots_of(app)
    sess = app.extensions["session"]
    heartbeat = float(app.config["SSE_HEARTBEAT"])
    lang = i18n.current()
    seen = parse_event_id(request.headers.get("Last-Event-ID") or request.args.get("last_event_id"))
    # ?html=1 (the page itself): each message carries the table drawn, so one message redraws it.
    want_html = request.args.get("html") == "1"
    tablet = security.paired_tablet()
    paired = tablet is not None
    lifetime = None if paired else float(app.config["SSE_WATCHER_LIFETIME"])
    budget = int(app.config["SSE_STREAM_BYTES"])
    cache: FragmentCache = app.extensions.setdefault("fragments", FragmentCache())
    slot = slots.take(tablet)
    if slot is None:
        raise ApiError(503, "busy", said("err_busy", limit=slots.limit), headers={"Retry-After": str(RETRY_AFTER)})

    released = threading.Event()

    def release():
        if not released.is_set():
            released.set()
            slots.give_back(slot)

    # waitress tells a running request that its client left (with channel_request_lookahead >= 1):
    # then a closed page gives its slot back within POLL seconds, not at the next heartbeat.
    disconnected = request.environ.get("waitress.client_disconnected")

    def generate():
        nonlocal seen
        try:
            yield "retry: 1000\n: atlandice live stream\n\n"
            beat = time.monotonic()
            sent = 0
            while True:
                snap = sess.snapshot()
                now = (snap["change_id"], snap["version"], snap["game_id"], snap["game_changes"], snap["boot"])
                if seen != now or not want_html:   # the page back after a planned end, missing nothing: nothing
                    html = None
                    if want_html:
                        html = cache.get((snap["change_id"], lang, paired),
                                         lambda: fragment(app, sess, snap, lang, paired))
                    text = message(snap, seen, lang, html)
                    sent += len(text)
                    yield text
                seen = now
                since = snap["change_id"]
                if sent >= budget:
                    # a stream ends after SSE_STREAM_BYTES and the browser comes back at once
                    # with Last-Event-ID, missing nothing (what waitress keeps of a connection
                    # is bounded by web/server.py's OUTBUF)
                    yield "retry: 100\n: planned end, come back\n\n"
                    return
                while True:
                    if slot.revoked:
                        yield "event: revoked\ndata: {}\n\n"    # unpaired: the page reloads as a watcher
                        return
                    if disconnected is not None and disconnected() or slot.ended.is_set():
                        return
                    if lifetime is not None and time.monotonic() - slot.opened >= lifetime:
                        return  # a watcher's browser reconnects at once: a stream nobody reads ends
                    if sess.wait_for_change(since, min(POLL, heartbeat)) > since:
                        break
                    if time.monotonic() - beat >= heartbeat:
                        beat = time.monotonic()
                        yield ": heartbeat\n\n"
        finally:
            release()

    class Body:
        """Gives the slot back even when the stream is closed before it starts."""
        def __init__(self):
            self.gen = generate()

        def __iter__(self):
            return self.gen

        def close(self):
            self.gen.close()
            release()

    response = Response(Body(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
