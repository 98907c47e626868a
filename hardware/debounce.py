"""Debounce and hold detection for one push button: the project's own logic.

gpiozero's ``bounce_time`` is not implemented by its mock pins, and its hold
thread cannot be driven by a test clock, so both are done here, as plain
logic over timestamps from an injected clock. :class:`PressLogic` is not
thread-safe: the panel calls it under its lock.

Debounce rule: a change of the contact is taken at once if the contact had
been quiet for ``bounce_time`` before it (no delay on a clean press);
changes inside a burst of bounces are taken only once the contact has been
quiet for ``bounce_time`` (``poll()`` settles them).

Gestures:
- a button without a hold action gives PRESS when it goes down;
- a button with one (``hold_time`` set) gives HOLD once it has been down
  ``hold_time`` seconds (or on release if nobody polled in time), and PRESS
  on a shorter release.
A held button never repeats: one gesture per push.
"""

from __future__ import annotations

import enum
import math
import time
from typing import Callable

Clock = Callable[[], float]

# Clock values are floats: 1000.01 + 0.05 - 1000.01 < 0.05. Spans this much
# short still count as elapsed, so a deadline reached is a deadline met.
_EPSILON = 1e-9


def _elapsed(now: float, since: float, span: float) -> bool:
    return now - since >= span - _EPSILON


class Gesture(enum.Enum):
    PRESS = "press"
    HOLD = "hold"


class PressLogic:
    def __init__(
        self,
        *,
        bounce_time: float = 0.05,
        hold_time: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if bounce_time < 0:
            raise ValueError("bounce_time must be 0 or more")
        if hold_time is not None and hold_time <= bounce_time:
            raise ValueError("hold_time must be longer than bounce_time")
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self._clock = clock
        self._pressed = False        # debounced state
        self._pressed_at = -math.inf  # when the debounced state last changed
        self._raw = False            # last level seen on the contact
        self._raw_at = -math.inf     # when it was seen
        self._held = False           # HOLD already given for this push

    @property
    def pressed(self) -> bool:
        """The debounced state."""
        return self._pressed

    def edge(self, pressed: bool) -> list[Gesture]:
        """The contact changed to ``pressed`` now."""
        now = self._clock()
        out = self._due(now)  # a settled change or a hold that nobody polled
        quiet = _elapsed(now, self._raw_at, self.bounce_time)
        self._raw, self._raw_at = pressed, now
        if quiet and pressed != self._pressed:
            out += self._change(pressed, now)
        return out

    def poll(self) -> list[Gesture]:
        """Gestures that became due with time alone (settling, holding)."""
        return self._due(self._clock())

    def deadline(self) -> float | None:
        """Clock time at which ``poll()`` next has something to do."""
        times = []
        if self._raw != self._pressed:
            times.append(self._raw_at + self.bounce_time)
        if self._pressed and self.hold_time is not None and not self._held:
            times.append(self._pressed_at + self.hold_time)
        return min(times) if times else None

    def _due(self, now: float) -> list[Gesture]:
        out: list[Gesture] = []
        if self._raw != self._pressed and _elapsed(now, self._raw_at, self.bounce_time):
            # The contact settled: the change happened when it last moved.
            out += self._change(self._raw, self._raw_at)
        if (
            self._pressed
            and self.hold_time is not None
            and not self._held
            and _elapsed(now, self._pressed_at, self.hold_time)
        ):
            self._held = True
            out.append(Gesture.HOLD)
        return out

    def _change(self, pressed: bool, at: float) -> list[Gesture]:
        down_for = at - self._pressed_at
        self._pressed, self._pressed_at = pressed, at
        if pressed:
            self._held = False
            return [Gesture.PRESS] if self.hold_time is None else []
        if self.hold_time is None or self._held:
            return []
        if down_for >= self.hold_time - _EPSILON:
            self._held = True
            return [Gesture.HOLD]
        return [Gesture.PRESS]
