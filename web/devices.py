"""Paired devices, kept server-side so that one can be unpaired at once.

Pairing gives a browser a random secret in its signed session cookie; the
store keeps only the secret's hash (`id`) with what the browser said it is,
its address and when it was last seen. A cookie is worth something only while
its row exists: `POST /unpair`, or removing the device on the device's own
screen (/device), deletes the row, and every copy of that cookie is refused
from the next request on, restarts included.

    devices = PairedDevices(store)
    secret = devices.pair(user_agent, address)    # put `secret` in the cookie
    devices.check(secret, address)                # -> the id, or None once removed
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from datetime import datetime, timezone
from typing import Callable

from companion.store import StoreError

SEEN_EVERY = 60.0  # seconds: "last seen" is written at most this often per device (an SD card wears)


def device_id(secret: str) -> str:
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


class PairedDevices:
    def __init__(self, store, clock: Callable[[], float] = time.time):
        self.store = store
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, float] = {}     # id -> when "last seen" was last written
        # Devices paired while the games file could not be written (damaged, read-only, full):
        # kept until the next restart, so the table's tablet can still read what happened.
        self._unsaved: set[str] = set()
        # Told the id of each device unpaired (None: all of them), after it is removed: its live
        # streams end at once (web/stream.py), so a removed tablet keeps neither controls nor a slot.
        self.on_remove: list[Callable[[str | None], object]] = []

    def pair(self, user_agent: str | None, address: str) -> str:
        """A new paired device; returns the secret for its cookie."""
        secret = secrets.token_urlsafe(32)
        try:
            self.store.add_device(device_id(secret), label(user_agent), address or "")
        except StoreError:
            with self._lock:
                self._unsaved.add(device_id(secret))
        return secret

    def check(self, secret: object, address: str = "") -> str | None:
        """The device's id while it is paired, else None; notes that it was seen."""
        if not isinstance(secret, str) or not secret:
            return None
        did = device_id(secret)
        with self._lock:
            if did in self._unsaved:
                return did
        try:
            if not self.store.has_device(did):
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
                self.store.device_seen(did, when, address or "")
            except StoreError:      # "last seen" is worth no refusal
                pass
        return did

    def listed(self) -> list[dict]:
        return self.store.devices()

    def remove(self, did: str | None = None) -> int:
        """Unpair one device (its id), or all of them (None); its live streams end at once."""
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
        removed = 1 if unsaved else self.store.remove_devices(did)
        for told in list(self.on_remove):
            told(did)
        return removed
