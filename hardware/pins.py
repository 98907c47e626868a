"""The panel's pin map and the choice of gpiozero pin factory."""

from __future__ import annotations

import dataclasses
import logging
import os
import warnings
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Mapping

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

log = logging.getLogger(__name__)

PinName = int | str

# Settings that live in the same configuration section ([gpio]) as the pins.
PANEL_SETTINGS = ("pin_factory", "hold_seconds", "debounce_ms", "hold_time", "bounce_time")
_OFF = {"", "none", "off", "no", "false"}


@dataclass(frozen=True)
class PinMap:
    """GPIO numbers (BCM) of the panel; gpiozero names like "GPIO17" or
    "BOARD11" work too. The LEDs and the buzzer are optional (None)."""

    confirm: PinName = 17
    undo: PinName = 27
    read: PinName = 22
    led_ready: PinName | None = 5
    led_reading: PinName | None = 6
    led_attention: PinName | None = 13
    buzzer: PinName | None = 19

    BUTTONS = ("confirm", "undo", "read")

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None) -> "PinMap":
        """Read the pins from the ``[gpio]`` section, as a dict or as the
        config's dataclass (its other settings are skipped). 0, "" or None
        means "not fitted" for a LED or the buzzer. A misspelt key is an
        error, not a silent default: a wrong pin map makes a button dead."""
        config = as_dict(config)
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(config) - fields - set(PANEL_SETTINGS)
        if unknown:
            raise ValueError(f"unknown panel setting(s): {', '.join(sorted(unknown))}")
        values: dict[str, PinName | None] = {}
        for name in fields:
            if name not in config:
                continue
            pin = _pin(config[name])
            if pin is None and name in cls.BUTTONS:
                raise ValueError(f"panel pin {name!r} is required")
            values[name] = pin
        pin_map = cls(**values)  # type: ignore[arg-type]
        pin_map.check()
        return pin_map

    def check(self) -> None:
        used: dict[str, str] = {}
        for name, pin in dataclasses.asdict(self).items():
            if pin is None:
                continue
            key = str(pin).upper().removeprefix("GPIO").removeprefix("BCM")
            if key in used:
                raise ValueError(f"pin {pin} is used by both {used[key]} and {name}")
            used[key] = name


def as_dict(config: Any) -> dict[str, Any]:
    """A configuration section given as a mapping or a dataclass, as a dict."""
    if config is None:
        return {}
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return dataclasses.asdict(config)
    return dict(config)


def _pin(value: Any) -> PinName | None:
    # 0 is how the configuration says "not fitted" (GPIO 0 is the HAT
    # EEPROM line, never a panel pin).
    if value is None or value is False or value == 0:
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a pin: {value!r}")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if text.lower() in _OFF or text == "0":
        return None
    return int(text) if text.isdigit() else text


def detect_pin_factory(name: str | None = None) -> tuple[Factory, bool]:
    """Return ``(factory, is_mock)``.

    ``name`` is "auto" (or None), "mock" or a gpiozero factory name (lgpio,
    rpigpio, pigpio, native). "auto" honours ``GPIOZERO_PIN_FACTORY`` (the
    service sets lgpio, which the Pi 5 needs), else tries gpiozero's own
    order. When no real factory loads (a PC) the mock factory is used, so the
    game runs with the on-screen buttons: this never raises.

    The global ``Device.pin_factory`` is left alone: the factory is passed to
    each device.
    """
    name = (name or "auto").strip().lower()
    if name == "auto":
        name = os.environ.get("GPIOZERO_PIN_FACTORY", "auto").strip().lower() or "auto"
    if name == "mock":
        return MockFactory(), True
    with warnings.catch_warnings(record=True) as caught:
        # gpiozero warns PinFactoryFallback for each factory it cannot load;
        # on a PC that is expected, so it goes to the log, not to stderr.
        warnings.simplefilter("always")
        try:
            factory = Device._default_pin_factory() if name == "auto" else _named_factory(name)
        except Exception as exc:
            reasons = "; ".join(str(w.message) for w in caught) or str(exc)
            log.warning("no GPIO (%s): using mock pins and the on-screen buttons", reasons)
            return MockFactory(), True
    for w in caught:
        log.info("gpiozero: %s", w.message)
    return factory, False


def _named_factory(name: str) -> Factory:
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name.lower() == name:
            return ep.load()()
    raise BadPinFactory(f"unknown pin factory {name!r}")
