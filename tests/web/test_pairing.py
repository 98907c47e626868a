"""Pairing needs physical presence: a code from the configuration, or one shown on the device."""

from web.pairing import MAX_FAILURES, Pairing


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_configured_code_is_always_accepted():
    p = Pairing("4711")
    assert p.fixed and p.code == "4711" and p.is_open()
    assert p.attempt(" 4711 ")
    assert not p.attempt("4712")


def test_a_generated_code_works_only_inside_a_window_and_is_renewed_each_time():
    clock = Clock()
    p = Pairing(None, window=60, clock=clock)
    assert not p.fixed and len(p.code) == 6 and p.code.isdigit()
    assert not p.attempt(p.code), "no window open: no code works, not even the right one"
    shown = []
    p.on_window(lambda code, seconds: shown.append((code, seconds)))
    first = p.open_window()
    assert shown == [(first, 60)]
    assert p.is_open() and p.attempt(first)
    clock.now += 61
    assert not p.is_open() and not p.attempt(first)
    for _ in range(5):  # a new window brings a new code (almost surely different)
        second = p.open_window()
        if second != first:
            break
    assert second != first
    assert p.attempt(second) and not p.attempt(first)


def test_guessing_closes_the_window_and_burns_the_code():
    clock = Clock()
    p = Pairing(None, clock=clock)
    code = p.open_window()
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(MAX_FAILURES):
        assert not p.attempt(wrong)
    assert not p.is_open()
    assert not p.attempt(code)


def test_guessing_a_configured_code_locks_pairing_for_a_while():
    clock = Clock()
    p = Pairing("4711", clock=clock)
    for _ in range(MAX_FAILURES):
        assert not p.attempt("0000")
    assert not p.attempt("4711"), "locked out"
    clock.now += 61
    assert p.attempt("4711")


def test_empty_codes_never_pair():
    p = Pairing("4711")
    assert not p.attempt("") and not p.attempt(None)
