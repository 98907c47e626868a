"""Pairing: only a tablet that proved physical presence may change the game.

The proof is a short code. Either the configuration sets it (PAIRING_CODE:
whoever can read the configuration file stands at the machine), or the
companion makes one up: a new random code every time a pairing window opens,
valid for `window` seconds and shown only at the machine itself (hold CONFIRM on
the panel; the tablets' page /tablets, loopback only). `companion serve` opens a window
with::

    code = app.extensions["pairing"].open_window()   # show `code` on the Pi

and may register `pairing.on_window(callback)` to be told the code (for a
display, a log line or a beep pattern).

A tablet that types the right code gets a signed, HttpOnly, SameSite=Strict
session cookie naming a tablet the companion keeps (web/tablets.py).

Wrong codes are counted per client address: after MAX_FAILURES, that
address must wait LOCKOUT_SECONDS before its next try, twice as long after
each further wrong code (up to MAX_LOCKOUT). So guessing stays slow, and one
client guessing never locks out the table's own tablet: the code and its
window stay as they were for everybody else. An IPv6 device can take any
address of its /64 network, so wrong codes are also counted per /64, against
NETWORK_FAILURES; past it, a wrong code from any address of that network
locks that address at once (one try per address), but an address that made no
wrong code of its own is still heard: the table's tablet, in the same /64 as a
guessing neighbour, pairs with the right code.

And all clients together may make GLOBAL_FAILURES wrong codes in GLOBAL_PERIOD:
past that (guessing from more addresses than any table has), every try waits
until the period has passed, or until the table shows physical presence again
(a new pairing window: CONFIRM held), which starts every count afresh. The
clients remembered are bounded (REMEMBERED_CLIENTS): the quiet ones are
forgotten first, then those not waiting, and a client made to wait only when
every one remembered is.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections import deque
import secrets
import threading
import time
from typing import Callable

CODE_DIGITS = 6
WINDOW_SECONDS = 120.0
MAX_FAILURES = 5            # wrong codes a client may type before it has to wait
NETWORK_FAILURES = 50       # wrong codes from one IPv6 /64 network before all of it has to wait
LOCKOUT_SECONDS = 60.0      # the first wait; it doubles with every further wrong code
MAX_LOCKOUT = 3600.0
REMEMBERED_CLIENTS = 1024   # clients with wrong codes kept in memory (the quiet, then the free, go first)
GLOBAL_FAILURES = 100       # wrong codes from all clients together in GLOBAL_PERIOD before every try waits
GLOBAL_PERIOD = 3600.0


def new_code(digits: int = CODE_DIGITS) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def client_keys(address: str | None) -> list[tuple[str, int]]:
    """Whom wrong codes are counted against, with how many each may make: the client's address,
    and for IPv6 its /64 network too (a single device can take any address of its /64)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return [(address or "", MAX_FAILURES)]
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if ip.version == 6:
        return [(str(ip), MAX_FAILURES),
                (str(ipaddress.ip_network(f"{ip}/64", strict=False)), NETWORK_FAILURES)]
    return [(str(ip), MAX_FAILURES)]


class _Guesses:
    __slots__ = ("failures", "until", "last")

    def __init__(self):
        self.failures = 0
        self.until = 0.0   # no try before this time
        self.last = 0.0


class Pairing:
    def __init__(self, code: str | None = None, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.fixed = bool(code)
        self._code = str(code).strip() if code else new_code()
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until = 0.0
        self._guesses: dict[str, _Guesses] = {}
        self._wrong: deque = deque(maxlen=GLOBAL_FAILURES)   # when the last wrong codes came, all clients
        self._listeners: list[Callable[[str, float], None]] = []

    @property
    def code(self) -> str:
        """The code in force (show it only at the machine itself)."""
        return self._code

    def is_open(self) -> bool:
        """Whether a code typed now can be accepted (from a client that need not wait)."""
        with self._lock:
            return self.fixed or self._clock() < self._open_until

    def wait(self, client: str | None = "") -> float:
        """Seconds `client` must wait before its next try (0: it may try now)."""
        with self._lock:
            return self._wait(client_keys(client), self._clock())

    def _wait(self, keys: list, now: float) -> float:
        """The client's own wait; its network's only when it made wrong codes of its own (an
        address a neighbour's guesses never came from is heard); every client's past the global bound."""
        waits = [0.0, self._global_wait(now)]
        own = self._guesses.get(keys[0][0])
        if own is not None:
            waits += [g.until - now for key, _ in keys if (g := self._guesses.get(key)) is not None]
        return max(waits)

    def _global_wait(self, now: float) -> float:
        if len(self._wrong) < GLOBAL_FAILURES:
            return 0.0
        return max(0.0, self._wrong[0] + GLOBAL_PERIOD - now)

    def remaining(self) -> float:
        with self._lock:
            return max(0.0, self._open_until - self._clock()) if not self.fixed else 0.0

    def on_window(self, callback: Callable[[str, float], None]) -> None:
        """Call `callback(code, seconds)` whenever a pairing window opens."""
        self._listeners.append(callback)

    def open_window(self, seconds: float | None = None) -> str:
        """Physical presence was shown (CONFIRM held): accept the code for a while.

        A generated code is renewed at every window, so an old one never works again.
        Returns the code to show on the Pi."""
        seconds = self.window if seconds is None else seconds
        with self._lock:
            if not self.fixed:
                self._code = new_code()
            self._open_until = self._clock() + seconds
            self._guesses.clear()  # physical presence shown: a new code, a clean slate
            self._wrong.clear()
            code = self._code
        for listener in list(self._listeners):
            listener(code, seconds)
        return code

    def close_window(self) -> None:
        with self._lock:
            self._open_until = 0.0

    def attempt(self, typed: object, client: str | None = "") -> bool:
        """Check a code typed by `client` (its address); a wrong one makes that client wait."""
        typed = str(typed or "").strip().replace(" ", "")
        keys = client_keys(client)
        now = self._clock()
        with self._lock:
            for key, _ in keys:
                g = self._guesses.get(key)
                if g is not None and now - max(g.last, g.until) > MAX_LOCKOUT:
                    del self._guesses[key]  # quiet for an hour: its old mistakes are forgiven
            if self._wait(keys, now) > 0:
                return False
            if not self.fixed and now >= self._open_until:
                return False
            if typed and hmac.compare_digest(typed.encode(), self._code.encode()):
                self._guesses.pop(keys[0][0], None)     # the client's own slate; not its network's
                return True
            self._wrong.append(now)
            network_waits = any(g.until > now for key, _ in keys[1:] if (g := self._guesses.get(key)))
            for i, (key, allowed) in enumerate(keys):
                g = self._guesses.get(key)
                if g is None:
                    self._forget_old(now)
                    g = self._guesses[key] = _Guesses()
                g.failures += 1
                g.last = now
                if i == 0 and network_waits:
                    allowed = 1             # a guessing network: one try per address of it
                if g.failures >= allowed:
                    g.until = now + min(MAX_LOCKOUT, LOCKOUT_SECONDS * 2 ** (g.failures - allowed))
            return False

    def _forget_old(self, now: float) -> None:
        """Keep the table of guessing clients bounded: drop those quiet for MAX_LOCKOUT, then the
        oldest of those not waiting; one made to wait only when every one is (the soonest free
        first), so a lock-out is never forgotten to make room for a newcomer while another can go."""
        if len(self._guesses) < REMEMBERED_CLIENTS:
            return
        for key in [k for k, g in self._guesses.items() if now - max(g.last, g.until) > MAX_LOCKOUT]:
            del self._guesses[key]
        if len(self._guesses) < REMEMBERED_CLIENTS:
            return
        free = sorted((g.last, k) for k, g in self._guesses.items() if g.until <= now)
        waiting = sorted((g.until, k) for k, g in self._guesses.items() if g.until > now)
        for _, key in (free + waiting)[:len(self._guesses) - REMEMBERED_CLIENTS + 1]:
            del self._guesses[key]
