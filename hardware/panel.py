"""The button panel: three push buttons, status LEDs and a buzzer, on gpiozero.

Every input, from a physical button or from the tablet's on-screen buttons
and keyboard (``Panel.inject``), becomes one :class:`PanelInput` on the same
``queue.Queue``; the game session drains it in its own thread. Callbacks do
nothing else: real pin factories call them from their own thread, gpiozero's
mock pins from whichever thread drives the pin.

Threading: pin callbacks and ``inject`` may come from any thread; they take
the panel's lock, run the debounce logic and queue the result, so the queue
order is the order the inputs were handled. A "panel-ticker" thread (started
unless ``autopoll=False``) wakes at the next debounce or hold deadline and
queues what became due (a hold gives REDO while the button is still down).
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from gpiozero import Buzzer, DigitalInputDevice
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from .debounce import Gesture, PressLogic
from .lights import StatusLights
from .pins import PinMap, as_dict, detect_pin_factory

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class PanelEvent(str, enum.Enum):
    CONFIRM = "confirm"  # accept the dice reading or the proposed choice, go on
    UNDO = "undo"        # take back the last input
    REDO = "redo"        # UNDO held down: put it back
    READ = "read"        # read the dice now
    PAIR = "pair"        # CONFIRM held down, when enabled: show the pairing code


@dataclass(frozen=True)
class PanelInput:
    event: PanelEvent
    source: str   # "button", or what inject() was told ("screen", "keyboard")
    time: float   # panel clock


# What a short press of each button gives.
_PRESSES: dict[str, PanelEvent] = {
    "confirm": PanelEvent.CONFIRM,
    "undo": PanelEvent.UNDO,
    "read": PanelEvent.READ,
}
# What holding a button gives. A button with a hold action reports its press
# on release (only then is it known not to be a hold), so only UNDO has one
# by default: CONFIRM and READ act the moment they go down.
DEFAULT_HOLDS: dict[str, PanelEvent] = {"undo": PanelEvent.REDO}


class Panel:
    def __init__(
        self,
        pin_map: PinMap | None = None,
        *,
        pin_factory: Factory,
        bounce_time: float = 0.05,
        hold_time: float = 1.0,
        clock: Clock = time.monotonic,
        autopoll: bool = True,
        is_mock: bool | None = None,
        holds: Mapping[str, PanelEvent] | None = None,
    ) -> None:
        self.pin_map = pin_map or PinMap()
        self.pin_map.check()
        self.pin_factory = pin_factory
        self.is_mock = isinstance(pin_factory, MockFactory) if is_mock is None else is_mock
        self.events: queue.Queue[PanelInput] = queue.Queue()
        self.ignored = 0  # inputs dropped because nothing expected them
        self._clock = clock
        self._cond = threading.Condition()
        self._expected: frozenset[PanelEvent] | None = None  # None: everything
        self._closed = False
        self._logic: dict[str, PressLogic] = {}
        self.buttons: dict[str, DigitalInputDevice] = {}
        self.lights: StatusLights | None = None
        self.buzzer: Buzzer | None = None
        self._ticker: threading.Thread | None = None
        holds = dict(DEFAULT_HOLDS if holds is None else holds)
        if set(holds) - set(_PRESSES):
            raise ValueError(f"hold actions only for {', '.join(_PRESSES)}")
        self._actions: dict[str, dict[Gesture, PanelEvent]] = {
            name: {Gesture.PRESS: event}
            | ({Gesture.HOLD: PanelEvent(holds[name])} if name in holds else {})
            for name, event in _PRESSES.items()
        }
        try:
            for name, actions in self._actions.items():
                self._logic[name] = PressLogic(
                    bounce_time=bounce_time,
                    hold_time=hold_time if Gesture.HOLD in actions else None,
                    clock=clock,
                )
                # Buttons to GND with the internal pull-up. A plain input
                # device, not gpiozero's Button: Button adds a hold thread per
                # button, polling 10 times a second, for what PressLogic does.
                # bounce_time stays None: debouncing is PressLogic's job too.
                button = DigitalInputDevice(
                    getattr(self.pin_map, name), pull_up=True, bounce_time=None,
                    pin_factory=pin_factory,
                )
                self.buttons[name] = button
                button.when_activated = self._edge_callback(name, True)
                button.when_deactivated = self._edge_callback(name, False)
            pm = self.pin_map
            if any(p is not None for p in (pm.led_ready, pm.led_reading, pm.led_attention)):
                self.lights = StatusLights(
                    pm.led_ready, pm.led_reading, pm.led_attention, pin_factory=pin_factory
                )
            if pm.buzzer is not None:
                self.buzzer = Buzzer(pm.buzzer, pin_factory=pin_factory)
        except Exception:
            self.close()  # release the pins already reserved
            raise
        if autopoll:
            self._ticker = threading.Thread(target=self._tick, name="panel-ticker", daemon=True)
            self._ticker.start()

    # ---- inputs -----------------------------------------------------------

    def inject(self, event: PanelEvent | str, source: str = "screen") -> bool:
        """An input from the tablet (on-screen button or keyboard): it goes
        on the same queue as the physical buttons. Returns False if it was
        ignored (nothing expects it, or the panel is closed)."""
        event = PanelEvent(event)
        with self._cond:
            return self._put(event, source)

    def get(self, timeout: float | None = None) -> PanelInput | None:
        """The next input, or None after ``timeout`` seconds."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def expect(self, events: Iterable[PanelEvent | str] | None) -> None:
        """Only these events are queued from now on (None: all of them).

        Lets the session say what the current step can use, so a press while
        nothing is expected is dropped here instead of lingering on the queue
        and being applied to a later step."""
        with self._cond:
            self._expected = None if events is None else frozenset(PanelEvent(e) for e in events)

    def clear(self) -> int:
        """Drop the queued inputs; returns how many."""
        dropped = 0
        with self._cond:
            while True:
                try:
                    self.events.get_nowait()
                except queue.Empty:
                    return dropped
                dropped += 1

    def poll(self) -> None:
        """Queue the gestures due by now. The ticker thread does this; tests
        with a fake clock and ``autopoll=False`` call it themselves."""
        with self._cond:
            for name, logic in self._logic.items():
                for gesture in logic.poll():
                    self._put(self._actions[name][gesture], "button")

    # ---- outputs ------------------------------------------------------------

    def set_lights(self, state: str) -> None:
        if self.lights is not None:
            self.lights.set(state)  # type: ignore[arg-type]

    def beep(self, times: int = 1) -> None:
        """Short beeps (in the background) if a buzzer is fitted."""
        if self.buzzer is not None and not self._closed:
            self.buzzer.beep(on_time=0.08, off_time=0.08, n=times, background=True)

    # ---- life cycle ---------------------------------------------------------

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(2.0)
        for button in self.buttons.values():
            button.close()
        if self.lights is not None:
            self.lights.close()
        if self.buzzer is not None:
            self.buzzer.close()

    def __enter__(self) -> "Panel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- internals ------------------------------------------------------------

    def _edge_callback(self, name: str, pressed: bool) -> Callable[[], None]:
        logic = self._logic[name]

        def callback() -> None:
            with self._cond:
                if self._closed:
                    return
                for gesture in logic.edge(pressed):
                    self._put(self._actions[name][gesture], "button")
                self._cond.notify_all()  # deadlines changed: wake the ticker

        return callback

    def _put(self, event: PanelEvent, source: str) -> bool:
        # Called with the lock held, so inputs are queued in handling order.
        if self._closed:
            return False
        if self._expected is not None and event not in self._expected:
            self.ignored += 1
            log.debug("%s from %s ignored: not expected now", event.value, source)
            return False
        self.events.put(PanelInput(event, source, self._clock()))
        return True

    def _next_deadline(self) -> float | None:
        deadlines = [d for d in (l.deadline() for l in self._logic.values()) if d is not None]
        return min(deadlines) if deadlines else None

    def _tick(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                deadline = self._next_deadline()
                # The small margin keeps float rounding from waking it just early.
                timeout = None if deadline is None else max(0.0, deadline - self._clock()) + 0.001
                self._cond.wait(timeout)
                if self._closed:
                    return
            self.poll()


def open_panel(
    pin_map: PinMap | Mapping[str, Any] | None = None,
    pin_factory: Factory | str | None = None,
    **kwargs: Any,
) -> Panel:
    """The panel of the configuration's ``[gpio]`` section (a dict or the
    config's dataclass), or of a :class:`PinMap`.

    ``pin_factory`` is a gpiozero factory, a factory name, or None to use the
    section's ``pin_factory`` setting ("auto" by default): off the Pi the mock
    factory is picked automatically and ``panel.is_mock`` is True, which the
    page uses to show its on-screen buttons. The section's ``debounce_ms``
    and ``hold_seconds`` apply unless ``bounce_time``/``hold_time`` are given.
    """
    settings: dict[str, Any] = {}
    if isinstance(pin_map, PinMap) or pin_map is None:
        pins = pin_map or PinMap()
    else:
        settings = as_dict(pin_map)
        pins = PinMap.from_config(settings)
    if "bounce_time" not in kwargs:
        if "debounce_ms" in settings:
            kwargs["bounce_time"] = float(settings["debounce_ms"]) / 1000
        elif "bounce_time" in settings:
            kwargs["bounce_time"] = float(settings["bounce_time"])
    if "hold_time" not in kwargs:
        for key in ("hold_seconds", "hold_time"):
            if key in settings:
                kwargs["hold_time"] = float(settings[key])
                break
    if pin_factory is None or isinstance(pin_factory, str):
        factory, is_mock = detect_pin_factory(pin_factory or settings.get("pin_factory"))
        kwargs.setdefault("is_mock", is_mock)
    else:
        factory = pin_factory
    return Panel(pins, pin_factory=factory, **kwargs)
