"""What CONFIRM may enter without a tap: never a decision nobody made."""

import pytest

from companion.games.atlandice import RuleError
from companion.session import Session
from companion.store import GameStore

from tests.games.atlandice.conftest import table


@pytest.fixture
def session(tmp_path, profile):
    return Session(GameStore(tmp_path / "g.sqlite3"), profile)


def seat(session, game):
    """Put a position-made game into the session (stored as a new record)."""
    session.load_record(game.record.to_jsonl())


def test_no_proposal_for_a_die_to_take_or_an_effect_target(session, profile):
    seat(session, table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], submarine="market", tops={"works": "E1"},
                        districts={"works": {"tool": 2, "gem": 1}}))
    assert session.proposal() is None
    with pytest.raises(RuleError):
        session.confirm()
    session.submit({"type": "pick", "area": "works"})
    assert session.proposal()["input"] == {"type": "resource", "resource": "tool"}   # R2
    session.confirm()
    assert session.game.expected()["kind"] == "submarine" and session.proposal() is None


def test_a_single_option_left_by_a_loaded_record_is_proposed(session, profile):
    # The session enters a forced step itself after an input; a record loaded as it was is not changed.
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], submarine="market", tops={"library": "L-market"})
    game.apply({"type": "pick", "area": "library"})
    seat(session, game)
    assert session.proposal()["input"] == {"type": "resource", "resource": "book"}
    session.confirm()   # the Book; then the only move there is, by the session
    assert session.game.record.inputs[-1] == {"type": "move", "resource": "book", "to": "market", "source": "auto"}


def test_donation_proposes_giving_nothing(session, profile):
    seat(session, table(profile, 3, dice=[2, 6], picks_done=5, clock=5 - profile["icons"]["L-high"],
                        tops={"library": "L-high"}, submarine="inn", stocks={0: {"gem": 2}}))
    session.submit({"type": "pick", "area": "market"})
    session.submit({"type": "resource", "resource": "gem"})
    assert session.game.expected()["kind"] == "donate"
    assert session.proposal()["input"] == {"type": "donate", "all": True}   # nobody donates: one press
    session.confirm()
    assert session.game.state["tokens"] == [0, 0, 0]
    assert session.game.expected()["kind"] == "gate_roll"


def test_no_proposal_for_a_revealed_tile_or_a_tie(session, profile):
    seat(session, table(profile, 3, dice=[2, 3, 4, 5, 6, 6, 1], submarine="market", tops={"library": "L-second"},
                        districts={"library": {"book": 1}}, stocks={0: {"book": 1}, 1: {"book": 2}}))
    session.submit({"type": "pick", "area": "library"})     # the last Book is taken with it
    assert session.game.expected()["kind"] == "tile_taker" and session.proposal() is None
    session.submit({"type": "tile_taker", "seat": 1})
    assert session.game.expected()["kind"] == "reveal" and session.proposal() is None
