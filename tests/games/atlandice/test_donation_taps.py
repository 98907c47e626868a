"""A Donation at the table (issue 43 item 2): nobody donates in one tap; a player gives in a
tap per kind of resource (a count beside each), for the whole table at once; the first shape
(a pair, then "done", one player at a time) still replays the same."""

import pytest

from companion.games.atlandice import RuleError
from companion.games.atlandice.inputs import from_notation, normalize, notation

from .conftest import find, pick, play, table, take


def donation(profile, stocks):
    game = table(profile, 3, dice=[2, 6], picks_done=5, clock=5 - profile["icons"]["L-high"],
                 tops={"library": "L-high"}, submarine="inn", first=1, stocks=stocks)
    play(game, pick("market"), take("gem"))
    assert game.expected()["kind"] == "donate"
    return game


def test_nobody_donates_is_one_tap(profile):
    game = donation(profile, {0: {"gem": 2}, 1: {"book": 3}, 2: {"weapon": 2, "tool": 2}})
    assert {"type": "donate", "all": True} in game.expected()["options"]
    events = play(game, {"type": "donate", "all": True})
    assert find(events, "donation.over") and game.expected()["kind"] == "gate_roll"
    assert game.state["tokens"] == [0, 0, 0]


def test_a_players_donation_is_a_tap_per_kind_with_a_count(profile):
    game = donation(profile, {0: {"tool": 1}, 1: {"book": 3}, 2: {"weapon": 2, "tool": 2}})
    options = game.expected()["options"]     # seat 0 took the Black Market's Gem: Gem 1, Tool 1
    # every player still in the Donation, in one prompt: a count of one kind, or a pair of two
    for gift in ({"seat": 1, "give": {"book": 2}}, {"seat": 2, "give": {"weapon": 2}},
                 {"seat": 2, "give": {"tool": 2}}, {"seat": 0, "give": {"gem": 1, "tool": 1}}):
        assert dict(type="donate", **gift) in options
    blacksmith = game.state["districts"]["blacksmith"]["resources"]["weapon"]
    events = play(game, {"type": "donate", "seat": 2, "give": {"weapon": 2}})   # one tap
    assert find(events, "donation.give")[0]["params"] == {"seat": 2, "gift": {"weapon": 2}, "tokens": 1}
    assert game.state["tokens"][2] == 1 and game.state["stocks"][2]["weapon"] == 0
    assert game.state["districts"]["blacksmith"]["resources"]["weapon"] == blacksmith + 2
    play(game, {"type": "donate", "seat": 2, "give": {"tool": 2}},            # a tap per kind
         {"type": "donate", "seat": 1, "give": {"book": 2}},
         {"type": "donate", "seat": 0, "give": {"gem": 1, "tool": 1}})
    assert game.state["tokens"] == [1, 1, 2]
    assert game.expected()["kind"] == "gate_roll", "nobody holds a pair any more: the Donation ended by itself"


def test_a_gift_must_be_held_and_in_pairs(profile):
    game = donation(profile, {0: {"gem": 1}, 1: {"book": 2}, 2: {}})
    with pytest.raises(RuleError):
        play(game, {"type": "donate", "seat": 1, "give": {"book": 4}})
    with pytest.raises(RuleError):
        play(game, {"type": "donate", "seat": 1, "give": {"book": 1}})
    with pytest.raises(RuleError):
        normalize({"type": "donate", "seat": 1, "give": {"book": 2}, "pair": None})
    with pytest.raises(RuleError):
        normalize({"type": "donate", "all": False})


def test_the_first_shape_still_works_and_the_notation_reads_both(profile):
    game = donation(profile, {0: {"gem": 2}, 1: {"book": 2}, 2: {}})
    play(game, {"type": "donate", "pair": ["book", "book"]})
    assert game.state["tokens"][1] == 1
    for inp in ({"type": "donate", "all": True}, {"type": "donate", "seat": 2, "give": {"gem": 1, "tool": 1}},
                {"type": "donate", "pair": None}, {"type": "donate", "pair": ["gem", "book"]}):
        assert from_notation(notation(normalize(inp))) == normalize(inp)
    assert notation(normalize({"type": "donate", "seat": 0, "give": {"tool": 2}})) == "donate 0 tool 2"
