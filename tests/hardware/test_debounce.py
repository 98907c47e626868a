"""The debounce and hold logic, on a clock the test moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.debounce import Gesture, PressLogic

PRESS, HOLD = Gesture.PRESS, Gesture.HOLD


def test_a_clean_press_gives_one_press_when_it_goes_down(clock) -> None:
    logic = PressLogic(bounce_time=0.05, clock=clock)
    assert logic.edge(True) == [PRESS]
    clock.advance(0.2)
    assert logic.edge(False) == []
    clock.advance(5)
    assert logic.poll() == []


def test_a_bouncing_contact_gives_one_press(clock) -> None:
    logic = PressLogic(bounce_time=0.05, clock=clock)
    out = logic.edge(True)
    for level in (False, True, False, True):  # contact chatter, 2 ms apart
        clock.advance(0.002)
        out += logic.edge(level)
    clock.advance(0.3)
    out += logic.poll()
    for level in (False, True, False):        # chatter on release
        out += logic.edge(level)
        clock.advance(0.003)
    clock.advance(0.1)
    out += logic.poll()
    assert out == [PRESS]
    assert not logic.pressed


def test_a_second_push_after_a_quiet_gap_counts(clock) -> None:
    logic = PressLogic(bounce_time=0.05, clock=clock)
    out = logic.edge(True)
    clock.advance(0.1)
    out += logic.edge(False)
    clock.advance(0.06)
    out += logic.edge(True)
    assert out == [PRESS, PRESS]


def test_a_tap_shorter_than_the_bounce_time_settles_released(clock) -> None:
    logic = PressLogic(bounce_time=0.05, clock=clock)
    assert logic.edge(True) == [PRESS]
    clock.advance(0.01)
    assert logic.edge(False) == []
    assert logic.pressed                      # not settled yet
    assert logic.deadline() == pytest.approx(clock() + 0.05)
    clock.advance(0.05)
    assert logic.poll() == []
    assert not logic.pressed and logic.deadline() is None


def test_a_pending_release_is_settled_before_the_next_press_even_unpolled(clock) -> None:
    logic = PressLogic(bounce_time=0.05, clock=clock)
    logic.edge(True)
    clock.advance(0.01)
    logic.edge(False)                         # pending: nobody polls
    clock.advance(1)
    assert logic.edge(True) == [PRESS]        # the second push is not lost


def test_hold_fires_once_while_the_button_is_down(clock) -> None:
    logic = PressLogic(bounce_time=0.05, hold_time=1.0, clock=clock)
    assert logic.edge(True) == []             # could still become a hold
    assert logic.deadline() == pytest.approx(clock() + 1.0)
    clock.advance(0.5)
    assert logic.poll() == []
    clock.advance(0.5)
    assert logic.poll() == [HOLD]
    clock.advance(3)
    assert logic.poll() == []                 # held on: no repeat
    assert logic.edge(False) == []


def test_a_hold_nobody_polled_is_reported_on_release(clock) -> None:
    logic = PressLogic(bounce_time=0.05, hold_time=1.0, clock=clock)
    logic.edge(True)
    clock.advance(1.5)
    assert logic.edge(False) == [HOLD]


def test_a_short_push_of_a_hold_button_is_a_press_on_release(clock) -> None:
    logic = PressLogic(bounce_time=0.05, hold_time=1.0, clock=clock)
    assert logic.edge(True) == []
    clock.advance(0.3)
    assert logic.edge(False) == [PRESS]


def test_hold_time_must_exceed_bounce_time() -> None:
    with pytest.raises(ValueError):
        PressLogic(bounce_time=0.5, hold_time=0.2)


class StepClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# One push: chatter going down, a time held, chatter coming up, a quiet gap.
chatter = st.lists(st.floats(min_value=0.0001, max_value=0.009), max_size=6)
push = st.tuples(chatter, st.floats(min_value=0.06, max_value=2.5), chatter,
                 st.floats(min_value=0.06, max_value=1.0))


@settings(max_examples=150, deadline=None)
@given(pushes=st.lists(push, min_size=1, max_size=6), hold=st.booleans())
def test_every_push_gives_exactly_one_gesture(pushes, hold: bool) -> None:
    clock = StepClock()
    logic = PressLogic(bounce_time=0.05, hold_time=1.0 if hold else None, clock=clock)
    out: list[Gesture] = []
    expected: list[Gesture] = []

    def toggle_through(gaps: list[float], final: bool) -> None:
        # Odd chatter edges alternate away from and back to the final level.
        level = final
        out.extend(logic.edge(level))
        for gap in gaps:
            clock.now += gap
            level = not level
            out.extend(logic.edge(level))
        if level != final:
            clock.now += 0.001
            out.extend(logic.edge(final))

    for down, held, up, quiet in pushes:
        toggle_through(down, True)
        # Poll like the ticker would, every 10 ms.
        end = clock.now + held
        while clock.now + 0.01 < end:
            clock.now += 0.01
            out.extend(logic.poll())
        clock.now = end
        toggle_through(up, False)
        clock.now += quiet
        out.extend(logic.poll())
        bouncing = sum(down) + 0.001
        expected.append(HOLD if hold and held - bouncing >= 1.0 else PRESS)
    assert len(out) == len(pushes)
    # Pushes held well clear of the hold time are classified as such.
    for got, want, (down, held, _, _) in zip(out, expected, pushes):
        if abs(held - 1.0) > 0.1:
            assert got == want
