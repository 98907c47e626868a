"""The status LEDs of the button panel: ready, reading, needs attention."""

from __future__ import annotations

import threading
from typing import Literal

from gpiozero import LED
from gpiozero.pins import Factory

LightState = Literal["ready", "reading", "attention", "off"]
STATES: tuple[LightState, ...] = ("ready", "reading", "attention", "off")

PinName = int | str


class StatusLights:
    """One LED per state, at most one lit.

    - ready: waiting for the players (press CONFIRM or READ);
    - reading: the camera is reading the dice;
    - attention: look at the tablet (a choice to make, the camera is
      unavailable, the reading needs checking).

    A pin given as None means that LED is not fitted; ``set`` still records
    the state. LEDs are wired active-high (GPIO -> resistor -> LED -> GND).
    """

    def __init__(
        self,
        ready: PinName | None,
        reading: PinName | None,
        attention: PinName | None,
        *,
        pin_factory: Factory,
    ) -> None:
        self._lock = threading.Lock()
        self._state: LightState = "off"
        self._leds: dict[LightState, LED] = {}
        try:
            for state, pin in (("ready", ready), ("reading", reading), ("attention", attention)):
                if pin is not None:
                    self._leds[state] = LED(pin, pin_factory=pin_factory)
        except Exception:
            self.close()  # give back the pins already reserved
            raise

    @property
    def state(self) -> LightState:
        return self._state

    def set(self, state: LightState) -> None:
        if state not in STATES:
            raise ValueError(f"light state must be one of {', '.join(STATES)}, not {state!r}")
        # The session and the web page may both set it: one change at a time,
        # so two LEDs are never left on.
        with self._lock:
            for name, led in self._leds.items():
                if name != state:
                    led.off()
            if state in self._leds:
                self._leds[state].on()
            self._state = state

    def lit(self) -> dict[str, bool]:
        """Which LEDs are on (for the status page and the tests)."""
        return {name: bool(led.is_lit) for name, led in self._leds.items()}

    def close(self) -> None:
        with self._lock:
            for led in self._leds.values():
                led.close()
            self._leds.clear()
