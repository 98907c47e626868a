"""What CONFIRM may enter without a tap: never a decision nobody made."""

import pytest

from companion.rules import RuleError
from companion.session import Session
from companion.store import GameStore

from ..rules.conftest import table


@pytest.fixture
def session(tmp_path, profile):
    return Session(GameStore(tmp_path / "g.sqlite3"), profile)


def seat(session, game):
    """Put a position-made game into the session (stored as a new record)."""
    session.load_record(game.record.to_jsonl())


def test_no_proposal_for_a_die_to_take_or_an_effect_target(session, profile):
    seat(session, table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], submarine="market", tops={"works": "E1"}))
    assert session.proposal() is None
    with pytest.raises(RuleError):
        session.confirm()
    session.submit({"type": "pick", "area": "works"})
    assert session.proposal()["input"] == {"type": "resource", "resource": "tool"}   # R2
    session.confirm()
    assert session.game.expected()["kind"] == "submarine" and session.proposal() is None


def test_a_single_option_is_proposed(session, profile):
    seat(session, table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], submarine="market",
                        tops={"library": "L-market"}))
    session.submit({"type": "pick", "area": "library"})
    session.confirm()   # the Book
    assert session.proposal()["input"] == {"type": "move", "resource": "book", "to": "market"}


def test_donation_proposes_giving_nothing(session, profile):
    seat(session, table(profile, 3, dice=[2, 6], picks_done=5, clock=5 - profile["icons"]["L-high"],
                        tops={"library": "L-high"}, submarine="inn", stocks={0: {"gem": 2}}))
    session.submit({"type": "pick", "area": "market"})
    session.submit({"type": "resource", "resource": "gem"})
    assert session.game.expected()["kind"] == "donate"
    assert session.proposal()["input"] == {"type": "donate", "pair": None}
    session.confirm()
    assert session.game.state["tokens"] == [0, 0, 0]


def test_no_proposal_for_a_revealed_tile_or_a_tie(session, profile):
    seat(session, table(profile, 3, dice=[2, 3, 4, 5, 6, 6, 1], submarine="market", tops={"library": "L-second"},
                        districts={"library": {"book": 1}}, stocks={0: {"book": 1}, 1: {"book": 2}}))
    session.submit({"type": "pick", "area": "library"})
    session.submit({"type": "resource", "resource": "book"})
    assert session.game.expected()["kind"] == "tile_taker" and session.proposal() is None
    session.submit({"type": "tile_taker", "seat": 1})
    assert session.game.expected()["kind"] == "reveal" and session.proposal() is None
