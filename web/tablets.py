"""Paired tablets, kept in the games file so that one can be unpaired at once.

Pairing gives a browser a random secret in its signed session cookie; the
games file keeps only the secret's hash (`id`) with what the browser said it
is, its address and when it was last seen (its table `devices`, whose code is
all here). A cookie is worth something only while its row exists: `POST
/unpair`, or removing the tablet on the tablets' page (/tablets), deletes the
row, and every copy of that cookie is refused from the next request on,
restarts included.

    tablets = PairedTablets(store)
    secret = tablets.pair(user_agent, address)    # put `secret` in the cookie
    tablets.check(secret, address)                # -> the id, or None once removed
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from datetime import datetime, timezone
from typing import Callable

from companion.store import GameStore, StoreError, now

SEEN_EVERY = 60.0  # seconds: "last seen" is written at most this often per tablet (an SD card wears)

# Created by the first pairing (a file from before it, or one that cannot be written, has none:
# no tablet is paired there). A tablet's cookie holds a secret whose hash is `id`.
TABLE = """
CREATE TABLE IF NOT EXISTS devices (
    id        TEXT PRIMARY KEY,
    label     TEXT NOT NULL,
    address   TEXT NOT NULL,
    paired    TEXT NOT NULL,
    last_seen TEXT NOT NULL
)"""
COLUMNS = ("id", "label", "address", "paired", "last_seen")


class TabletRows:
    """The paired tablets' rows in the games file, through the store's lock and transactions."""

    def __init__(self, store: GameStore):
        self.store = store

    def add(self, tablet_id: str, label: str, address: str) -> None:
        when = now()
        with self.store.transaction() as cur:
            cur.execute(TABLE)
            cur.execute("INSERT INTO devices (id, label, address, paired, last_seen) VALUES (?, ?, ?, ?, ?)",
                        (tablet_id, label, address, when, when))

    def has(self, tablet_id: str) -> bool:
        with self.store.reading() as db:
            if not self.store.has_table(db, "devices"):
                return False
            return db.execute("SELECT 1 FROM devices WHERE id = ?", (tablet_id,)).fetchone() is not None

    def seen(self, tablet_id: str, when: str, address: str) -> None:
        with self.store.transaction() as cur:
            cur.execute(TABLE)
            cur.execute("UPDATE devices SET last_seen = ?, address = ? WHERE id = ?", (when, address, tablet_id))

    def listed(self) -> list[dict]:
        """The paired tablets, the one seen last first."""
        with self.store.reading() as db:
            if not self.store.has_table(db, "devices"):
                return []
            rows = db.execute(f"SELECT {', '.join(COLUMNS)} FROM devices "
                              "ORDER BY last_seen DESC, paired DESC").fetchall()
        return [dict(zip(COLUMNS, r)) for r in rows]

    def remove(self, tablet_id: str | None = None) -> int:
        """Unpair one tablet (by id), or every one (None); how many were removed."""
        with self.store.transaction() as cur:
            cur.execute(TABLE)
            if tablet_id is None:
                cur.execute("DELETE FROM devices")
            else:
                cur.execute("DELETE FROM devices WHERE id = ?", (tablet_id,))
            return cur.rowcount


def tablet_id(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


_SYSTEMS = (("iPad", "iPad"), ("iPhone", "iPhone"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Macintosh", "macOS"), ("Linux", "Linux"))
_BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
             ("Chrome/", "Chrome"), ("Safari/", "Safari"))


def label(user_agent: str | None) -> str:
    """'Android · Chrome' from a User-Agent header, enough to tell two tablets apart."""
    ua = user_agent or ""
    system = next((name for key, name in _SYSTEMS if key in ua), "")
    browser = next((name for key, name in _BROWSERS if key in ua), "")
    text = " · ".join(p for p in (system, browser) if p)
    return text or re.sub(r"[^\w .;/()-]", "", ua)[:40] or "?"


class PairedTablets:
    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time):
        self.rows = TabletRows(store)
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, float] = {}     # id -> when "last seen" was last written
        # Tablets paired while the games file could not be written (damaged, read-only, full):
        # kept until the next restart, so the table's tablet can still read what happened.
        self._unsaved: set[str] = set()
        # Told the id of each tablet unpaired (None: all of them), after it is removed: its live
        # streams end at once (web/stream.py), so a removed tablet keeps neither controls nor a slot.
        self.on_remove: list[Callable[[str | None], object]] = []

    def pair(self, user_agent: str | None, address: str) -> str:
        """A new paired tablet; returns the secret for its cookie."""
        secret = secrets.token_urlsafe(32)
        try:
            self.rows.add(tablet_id(secret), label(user_agent), address or "")
        except StoreError:
            with self._lock:
                self._unsaved.add(tablet_id(secret))
        return secret

    def check(self, secret: object, address: str = "") -> str | None:
        """The tablet's id while it is paired, else None; notes that it was seen."""
        if not isinstance(secret, str) or not secret:
            return None
        did = tablet_id(secret)
        with self._lock:
            if did in self._unsaved:
                return did
        try:
            if not self.rows.has(did):
                return None
        except StoreError:
            return None
        now = self._clock()
        with self._lock:
            due = now - self._seen.get(did, 0.0) >= SEEN_EVERY
            if due:
                self._seen[did] = now
        if due:
            when = datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="seconds")
            try:
                self.rows.seen(did, when, address or "")
            except StoreError:      # "last seen" is worth no refusal
                pass
        return did

    def listed(self) -> list[dict]:
        return self.rows.listed()

    def remove(self, did: str | None = None) -> int:
        """Unpair one tablet (its id), or all of them (None); its live streams end at once."""
        unsaved = False
        with self._lock:
            if did is None:
                self._seen.clear()
                self._unsaved.clear()
            else:
                self._seen.pop(did, None)
                if did in self._unsaved:
                    self._unsaved.discard(did)
                    unsaved = True
        removed = 1 if unsaved else self.rows.remove(did)
        for told in list(self.on_remove):
            told(did)
        return removed
