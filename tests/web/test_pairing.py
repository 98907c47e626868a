"""Pairing needs physical presence: a code from the configuration, or one shown on the device."""

import pytest

from web import pairing
from web.pairing import (GLOBAL_FAILURES, GLOBAL_PERIOD, LOCKOUT_SECONDS, MAX_FAILURES, MAX_LOCKOUT,
                         NETWORK_FAILURES, REMEMBERED_CLIENTS, Pairing, client_keys)


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


def test_guessing_makes_only_the_guessing_client_wait_and_the_window_stays_open():
    clock = Clock()
    p = Pairing(None, clock=clock)
    code = p.open_window()
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(MAX_FAILURES):
        assert not p.attempt(wrong, "192.168.1.66")
    assert p.wait("192.168.1.66") == LOCKOUT_SECONDS
    assert not p.attempt(code, "192.168.1.66"), "the guesser waits, even with the right code"
    assert p.is_open() and p.attempt(code, "192.168.1.20"), "the table's tablet still pairs"


def test_guessing_a_configured_code_gets_slower_and_slower_for_that_client():
    clock = Clock()
    p = Pairing("4711", clock=clock)
    for _ in range(MAX_FAILURES):
        assert not p.attempt("0000", "10.0.0.9")
    assert not p.attempt("4711", "10.0.0.9"), "locked out"
    assert p.attempt("4711", "10.0.0.8"), "another client is not"
    waits = []
    for _ in range(4):
        clock.now += p.wait("10.0.0.9")
        assert not p.attempt("1234", "10.0.0.9")
        waits.append(p.wait("10.0.0.9"))
    assert waits == [2 * LOCKOUT_SECONDS, 4 * LOCKOUT_SECONDS, 8 * LOCKOUT_SECONDS, 16 * LOCKOUT_SECONDS]
    for _ in range(20):
        clock.now += p.wait("10.0.0.9")
        p.attempt("1234", "10.0.0.9")
    assert p.wait("10.0.0.9") == MAX_LOCKOUT
    clock.now += p.wait("10.0.0.9")
    assert p.attempt("4711", "10.0.0.9") and p.wait("10.0.0.9") == 0


def test_an_ipv6_client_is_counted_by_its_address_and_its_network():
    assert client_keys("2001:db8:1:2:aaaa::1") == [("2001:db8:1:2:aaaa::1", MAX_FAILURES),
                                                   ("2001:db8:1:2::/64", NETWORK_FAILURES)]
    assert client_keys("::ffff:192.168.1.5") == [("192.168.1.5", MAX_FAILURES)]
    p = Pairing("4711", clock=Clock())
    # A neighbour's wrong codes on the same home network do not lock out the table's tablet ...
    for _ in range(MAX_FAILURES):
        p.attempt("0000", "2001:db8:1:2::66")
    assert not p.attempt("4711", "2001:db8:1:2::66")
    assert p.attempt("4711", "2001:db8:1:2::99")
    # ... and a device hopping across the addresses of its /64 is held back by the network's count:
    # past it, one try per address, each wrong one a lock-out at once.
    for i in range(NETWORK_FAILURES):
        p.attempt("0000", f"2001:db8:1:2::{i + 1000:x}")
    assert not p.attempt("0000", "2001:db8:1:2::beef") and p.wait("2001:db8:1:2::beef") >= LOCKOUT_SECONDS
    assert not p.attempt("4711", "2001:db8:1:2::beef")
    assert p.attempt("4711", "2001:db8:1:3::1")


def test_a_neighbours_wrong_codes_never_lock_out_the_tablet_beside_it():
    """50 wrong codes from the table's /64 once locked its tablet out (429, doubling to an hour)."""
    clock = Clock()
    p = Pairing("4711", clock=clock)
    for round_ in range(3):
        for i in range(NETWORK_FAILURES + 10):
            clock.now += p.wait(f"2001:db8:1:2::{i % 12 + 100:x}")
            p.attempt("0000", f"2001:db8:1:2::{i % 12 + 100:x}")
        assert p.wait("2001:db8:1:2::99") == 0                         # never made a wrong code itself
        assert p.attempt("4711", "2001:db8:1:2::99")


def test_the_guessers_kept_in_memory_are_bounded(monkeypatch):
    monkeypatch.setattr(pairing, "GLOBAL_FAILURES", 10**6)         # the memory bound alone
    clock = Clock()
    p = Pairing("4711", clock=clock)
    for i in range(REMEMBERED_CLIENTS + 50):
        clock.now += 1
        p.attempt("0000", f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(p._guesses) == REMEMBERED_CLIENTS
    for _ in range(MAX_FAILURES):
        p.attempt("0000", "10.9.9.9")  # a newcomer is kept, and counted
    assert p.wait("10.9.9.9") == LOCKOUT_SECONDS and len(p._guesses) == REMEMBERED_CLIENTS


def test_empty_codes_never_pair():
    p = Pairing("4711")
    assert not p.attempt("") and not p.attempt(None)


def test_a_locked_out_guesser_is_not_forgotten_to_make_room(monkeypatch):
    """Past 1,024 addresses the lock-outs were evicted first: a locked guesser guessed again at once."""
    monkeypatch.setattr(pairing, "GLOBAL_FAILURES", 10**6)         # the memory bound alone
    clock = Clock()
    p = Pairing("4711", clock=clock)
    for _ in range(MAX_FAILURES):
        p.attempt("0000", "10.9.9.9")
    for i in range(2 * REMEMBERED_CLIENTS):
        clock.now += 0.01
        p.attempt("0000", f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(p._guesses) == REMEMBERED_CLIENTS
    assert p.wait("10.9.9.9") > 0 and not p.attempt("4711", "10.9.9.9")
    clock.now += LOCKOUT_SECONDS
    assert p.attempt("4711", "10.9.9.9")


@pytest.mark.parametrize("fixed", [True, False])
def test_all_clients_together_have_a_bound_on_wrong_codes(fixed):
    clock = Clock()
    p = Pairing("4711" if fixed else None, clock=clock)
    code = p.code if fixed else p.open_window(10 * GLOBAL_PERIOD)
    wrong = "0000" if code != "0000" else "1111"
    for i in range(GLOBAL_FAILURES):                   # one wrong code each from as many addresses
        clock.now += 1
        assert not p.attempt(wrong, f"10.1.{i // 256}.{i % 256}")
    assert 0 < p.wait("10.2.0.1") <= GLOBAL_PERIOD     # a new address waits too ...
    assert not p.attempt(code, "10.2.0.1")             # ... its code not even checked
    clock.now += GLOBAL_PERIOD
    assert p.wait("10.2.0.1") == 0 and p.attempt(code, "10.2.0.1")
    for i in range(GLOBAL_FAILURES):
        p.attempt(wrong, f"10.3.{i // 256}.{i % 256}")
    assert not p.attempt(code, "10.2.0.2")
    code = p.open_window()                             # physical presence: every count starts afresh
    assert p.wait("10.2.0.2") == 0 and p.attempt(code, "10.2.0.2")
