"""The button panel through gpiozero's real Button class on MockFactory pins."""

from __future__ import annotations

import logging
import queue
import threading
import warnings
from dataclasses import dataclass

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from hardware import pins as pins_module
from hardware.panel import Panel, PanelEvent, open_panel
from hardware.pins import PinMap, detect_pin_factory

CONFIRM, UNDO, REDO, READ = PanelEvent.CONFIRM, PanelEvent.UNDO, PanelEvent.REDO, PanelEvent.READ
WAIT = 2.0  # the most any test waits for an event that should come


@pytest.fixture
def panel(factory, clock):
    panel = Panel(PinMap(), pin_factory=factory, clock=clock, autopoll=False,
                  bounce_time=0.05, hold_time=1.0)
    yield panel
    panel.close()


def events(panel: Panel) -> list[PanelEvent]:
    out = []
    while (item := panel.get(timeout=0)) is not None:
        out.append(item.event)
    return out


def push(factory, clock, pin: int, held: float = 0.1) -> None:
    factory.pin(pin).drive_low()   # buttons pull up: pressed is low
    clock.advance(held)
    factory.pin(pin).drive_high()
    clock.advance(0.2)


def test_a_press_confirms_once(panel, factory, clock) -> None:
    factory.pin(17).drive_low()
    item = panel.get(timeout=0)
    assert item is not None and item.event is CONFIRM and item.source == "button"
    clock.advance(5)               # held down a long time: no repeat
    panel.poll()
    factory.pin(17).drive_high()
    panel.poll()
    assert events(panel) == []


def test_a_bouncing_contact_does_not_double_the_press(panel, factory, clock) -> None:
    pin = factory.pin(17)
    for _ in range(4):             # chatter, 3 ms apart
        pin.drive_low()
        clock.advance(0.003)
        pin.drive_high()
        clock.advance(0.003)
    pin.drive_low()
    clock.advance(0.2)
    panel.poll()
    pin.drive_high()
    clock.advance(0.002)
    pin.drive_low()                # chatter on release
    clock.advance(0.002)
    pin.drive_high()
    clock.advance(0.2)
    panel.poll()
    assert events(panel) == [CONFIRM]


def test_each_button_gives_its_event(panel, factory, clock) -> None:
    push(factory, clock, 22)
    push(factory, clock, 27)       # short UNDO: reported on release
    push(factory, clock, 17)
    assert events(panel) == [READ, UNDO, CONFIRM]


def test_holding_undo_redoes_once(panel, factory, clock) -> None:
    factory.pin(27).drive_low()
    clock.advance(0.5)
    panel.poll()
    assert events(panel) == []
    clock.advance(0.5)
    panel.poll()
    assert events(panel) == [REDO]
    clock.advance(3)
    panel.poll()
    factory.pin(27).drive_high()
    panel.poll()
    assert events(panel) == []     # no UNDO on release, no repeat


def test_the_ticker_gives_redo_while_the_button_is_still_down(factory) -> None:
    with Panel(PinMap(), pin_factory=factory, hold_time=0.1, bounce_time=0.01) as panel:
        factory.pin(27).drive_low()
        item = panel.get(timeout=WAIT)
        assert item is not None and item.event is REDO
        assert factory.pin(27).state == 0  # still held
        factory.pin(27).drive_high()
        assert panel.get(timeout=0.2) is None


def test_presses_from_another_thread_are_handled_in_order(panel, factory, clock) -> None:
    sequence = [17, 22, 27, 22, 17, 17, 27, 22] * 5
    names = {17: CONFIRM, 22: READ, 27: UNDO}

    def player() -> None:
        for pin in sequence:
            push(factory, clock, pin)

    thread = threading.Thread(target=player)
    thread.start()
    received = []
    for _ in sequence:
        item = panel.get(timeout=WAIT)
        assert item is not None, f"only {len(received)} inputs arrived"
        received.append(item.event)
    thread.join(WAIT)
    assert received == [names[pin] for pin in sequence]


def test_screen_and_keyboard_inputs_share_the_buttons_queue(panel, factory, clock) -> None:
    factory.pin(22).drive_low()
    assert panel.inject("confirm", source="keyboard")
    assert panel.inject(PanelEvent.UNDO)
    got = [panel.get(timeout=0) for _ in range(3)]
    assert [(g.event, g.source) for g in got] == [
        (READ, "button"), (CONFIRM, "keyboard"), (UNDO, "screen")]
    with pytest.raises(ValueError):
        panel.inject("launch")


def test_a_press_nothing_expects_is_dropped(panel, factory, clock) -> None:
    panel.expect([READ, CONFIRM])
    push(factory, clock, 27)
    assert not panel.inject("redo")
    push(factory, clock, 22)
    assert events(panel) == [READ]
    assert panel.ignored == 2
    panel.expect(None)
    push(factory, clock, 27)
    assert events(panel) == [UNDO]


def test_clear_drops_stale_inputs(panel, factory, clock) -> None:
    push(factory, clock, 17)
    push(factory, clock, 17)
    assert panel.clear() == 2
    assert panel.get(timeout=0) is None


def test_lights_show_one_state_at_a_time(panel, factory) -> None:
    ready, reading, attention = factory.pin(5), factory.pin(6), factory.pin(13)
    panel.set_lights("reading")
    assert (ready.state, reading.state, attention.state) == (0, 1, 0)
    panel.set_lights("attention")
    assert (ready.state, reading.state, attention.state) == (0, 0, 1)
    assert panel.lights.lit() == {"ready": False, "reading": False, "attention": True}
    panel.set_lights("off")
    assert (ready.state, reading.state, attention.state) == (0, 0, 0)
    with pytest.raises(ValueError):
        panel.set_lights("blue")


def test_closing_gives_the_pins_back_and_stops_inputs(factory, clock) -> None:
    panel = Panel(PinMap(), pin_factory=factory, clock=clock, autopoll=False)
    panel.close()
    assert not panel.inject("confirm")
    again = Panel(PinMap(), pin_factory=factory, clock=clock, autopoll=False)  # pins free
    again.close()


def test_a_panel_that_fails_half_built_releases_its_pins(factory, clock) -> None:
    with pytest.raises(Exception):
        Panel(PinMap(buzzer="GPIO99"), pin_factory=factory, clock=clock, autopoll=False)
    Panel(PinMap(), pin_factory=factory, clock=clock, autopoll=False).close()


def test_buzzer_and_leds_are_optional(factory, clock) -> None:
    pin_map = PinMap(led_ready=None, led_reading=None, led_attention=None, buzzer=None)
    with Panel(pin_map, pin_factory=factory, clock=clock, autopoll=False) as panel:
        assert panel.lights is None and panel.buzzer is None
        panel.set_lights("ready")
        panel.beep()
        factory.pin(17).drive_low()
        assert events(panel) == [CONFIRM]


# ---- configuration and pin factory -----------------------------------------


def test_pin_map_from_the_config_section() -> None:
    pin_map = PinMap.from_config({"confirm": "23", "undo": "GPIO24", "buzzer": 0,
                                  "led_ready": "", "hold_seconds": 2, "pin_factory": "auto"})
    assert (pin_map.confirm, pin_map.undo, pin_map.read) == (23, "GPIO24", 22)
    assert pin_map.buzzer is None and pin_map.led_ready is None
    assert pin_map.led_reading == 6


@pytest.mark.parametrize("config, needle", [
    ({"confrim": 17}, "confrim"),
    ({"confirm": 22}, "used by both"),
    ({"read": 0}, "required"),
    ({"undo": "GPIO17"}, "used by both"),
])
def test_a_wrong_pin_map_is_refused(config, needle) -> None:
    with pytest.raises(ValueError, match=needle):
        PinMap.from_config(config)


@dataclass(frozen=True)
class GpioSection:  # shaped like the configuration's [gpio] section
    pin_factory: str = "mock"
    confirm: int = 17
    undo: int = 27
    read: int = 22
    led_ready: int = 5
    led_reading: int = 6
    led_attention: int = 13
    buzzer: int = 0
    hold_seconds: float = 2.5
    debounce_ms: int = 20


def test_open_panel_reads_the_config_dataclass() -> None:
    with open_panel(GpioSection(), autopoll=False) as panel:
        assert panel.is_mock and panel.buzzer is None
        assert panel._logic["undo"].hold_time == 2.5
        assert panel._logic["confirm"].bounce_time == pytest.approx(0.02)


def fail_like_a_pc():
    for name in ("lgpio", "rpigpio", "pigpio", "native"):
        warnings.warn(PinFactoryFallback(f"Falling back from {name}: nope"))
    raise BadPinFactory("Unable to load any default pin factory!")


def test_off_the_pi_the_mock_factory_is_used_quietly(monkeypatch, caplog) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(fail_like_a_pc))
    global_factory = Device.pin_factory
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a warning escaping fails the test
        with caplog.at_level(logging.WARNING, logger="hardware.pins"):
            with open_panel({}, autopoll=False) as panel:
                assert panel.is_mock
                assert isinstance(panel.pin_factory, MockFactory)
    assert "Falling back from lgpio" in caplog.text
    assert Device.pin_factory is global_factory   # injected, the global is left alone


def test_the_environment_chooses_the_factory(monkeypatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory, is_mock = detect_pin_factory("auto")
    assert is_mock and isinstance(factory, MockFactory)


def test_a_factory_that_cannot_load_falls_back_to_mock(monkeypatch) -> None:
    monkeypatch.setattr(pins_module, "_named_factory",
                        lambda name: (_ for _ in ()).throw(ImportError("no lgpio")))
    factory, is_mock = detect_pin_factory("lgpio")
    assert is_mock and isinstance(factory, MockFactory)


def test_a_real_factory_is_not_reported_as_mock(monkeypatch) -> None:
    real = object()
    monkeypatch.setattr(pins_module, "_named_factory", lambda name: real)
    assert detect_pin_factory("lgpio") == (real, False)


def test_confirm_can_be_given_a_hold_action(factory, clock) -> None:
    holds = {"undo": REDO, "confirm": PanelEvent.PAIR}
    with Panel(PinMap(), pin_factory=factory, clock=clock, autopoll=False,
               holds=holds) as panel:
        factory.pin(17).drive_low()
        assert events(panel) == []     # not known yet: a press or a hold?
        clock.advance(0.2)
        factory.pin(17).drive_high()
        assert events(panel) == [CONFIRM]
        clock.advance(1)
        factory.pin(17).drive_low()
        clock.advance(1.0)
        panel.poll()
        assert events(panel) == [PanelEvent.PAIR]
    with pytest.raises(ValueError):
        Panel(PinMap(), pin_factory=MockFactory(), holds={"buzzer": REDO})
