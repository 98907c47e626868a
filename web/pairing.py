"""Pairing: only a device that proved physical presence may change the game.

The proof is a short code. Either the configuration sets it (PAIRING_CODE:
whoever can read the configuration file stands at the machine), or the
companion makes one up: a new random code every time a pairing window opens,
valid for `window` seconds and shown only on the device side (hold CONFIRM on
the panel; the Pi's own screen at /device). `companion serve` opens a window
with::

    code = app.extensions["pairing"].open_window()   # show `code` on the device

and may register `pairing.on_window(callback)` to be told the code (for a
display, a log line or a beep pattern).

A tablet that types the right code gets a signed, HttpOnly, SameSite=Strict
session cookie (Flask's session) that stays valid across restarts (the secret
key lives in the instance folder). Wrong codes are counted: after
MAX_FAILURES the window closes (a generated code) or pairing is locked for
LOCKOUT seconds (a configured code), so a code cannot be guessed.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Callable

CODE_DIGITS = 6
WINDOW_SECONDS = 120.0
MAX_FAILURES = 5
LOCKOUT_SECONDS = 60.0


def new_code(digits: int = CODE_DIGITS) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class Pairing:
    def __init__(self, code: str | None = None, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.fixed = bool(code)
        self._code = str(code).strip() if code else new_code()
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until = 0.0
        self._failures = 0
        self._locked_until = 0.0
        self._listeners: list[Callable[[str, float], None]] = []

    @property
    def code(self) -> str:
        """The code in force (show it only on the device side)."""
        return self._code

    def is_open(self) -> bool:
        """Whether a code typed now can be accepted."""
        now = self._clock()
        with self._lock:
            if self.fixed:
                return now >= self._locked_until
            return now < self._open_until

    def remaining(self) -> float:
        with self._lock:
            return max(0.0, self._open_until - self._clock()) if not self.fixed else 0.0

    def on_window(self, callback: Callable[[str, float], None]) -> None:
        """Call `callback(code, seconds)` whenever a pairing window opens."""
        self._listeners.append(callback)

    def open_window(self, seconds: float | None = None) -> str:
        """Physical presence was shown (CONFIRM held): accept the code for a while.

        A generated code is renewed at every window, so an old one never works again.
        Returns the code to show on the device."""
        seconds = self.window if seconds is None else seconds
        with self._lock:
            if not self.fixed:
                self._code = new_code()
            self._open_until = self._clock() + seconds
            self._failures = 0
            self._locked_until = 0.0
            code = self._code
        for listener in list(self._listeners):
            listener(code, seconds)
        return code

    def close_window(self) -> None:
        with self._lock:
            self._open_until = 0.0

    def attempt(self, typed: object) -> bool:
        """Check a typed code; counts failures and closes/locks after too many."""
        typed = str(typed or "").strip().replace(" ", "")
        now = self._clock()
        with self._lock:
            if self.fixed:
                if now < self._locked_until:
                    return False
            elif now >= self._open_until:
                return False
            if typed and hmac.compare_digest(typed.encode(), self._code.encode()):
                self._failures = 0
                return True
            self._failures += 1
            if self._failures >= MAX_FAILURES:
                self._failures = 0
                if self.fixed:
                    self._locked_until = now + LOCKOUT_SECONDS
                else:
                    self._open_until = 0.0
                    self._code = new_code()  # the guessed-at code is gone for good
            return False
