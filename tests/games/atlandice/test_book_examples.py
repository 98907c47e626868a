"""Every worked example of the rulebook, as it is printed."""

from .conftest import find, keys, pick, play, roll, table, take


def test_alex_at_the_blacksmith_with_the_submarine(profile):
    # Alex takes the "5" die, takes a Weapon and a Gem (the Submarine is there),
    # rolls 6 on the Blacksmith (2, 4, 6) and takes another Weapon.
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 5, 6], submarine="blacksmith",
                 districts={"blacksmith": {"weapon": 7, "gem": 1}, "jeweller": {"gem": 6}},
                 tops={"jeweller": "J-odd", "library": "L-high", "inn": "I-clock", "works": "E1",
                       "blacksmith": "B-even"})
    events = play(game, pick("blacksmith"), take("weapon"), take("gem"), roll(6), take("weapon"))
    alex = game.state["stocks"][0]
    assert alex["weapon"] == 2 and alex["gem"] == 1
    assert game.state["districts"]["blacksmith"]["resources"]["weapon"] == 5
    assert [e["params"]["reason"] for e in find(events, "visit.take")] == ["visit", "submarine", "B-even"]
    assert game.expected()["kind"] == "pick" and game.expected()["seat"] == 1


def test_anna_empty_library_tie_for_first(profile):
    # The Library empties. 1 Book at the Black Market, 1 at the Inn; Anna 3, Bruno 3,
    # Eric 1, Lola 0. Anna takes the tile, Bruno 3 VP, Eric nothing; 7 Books come
    # back: 2 refill the Black Market to 3, 5 go on the new Library tile.
    # (The 3 other Books of the 12 in play lie on the Blacksmith, out of the way.)
    game = table(profile, 4, dice=[2, 3, 3, 4, 4, 5, 6, 6, 1],
                 tops={"jeweller": "J-odd", "library": "L-market", "inn": "I-clock", "works": "E1",
                       "blacksmith": "B-even"},
                 districts={"library": {"book": 1}, "inn": {"provision": 9, "book": 1},
                            "blacksmith": {"weapon": 9, "book": 3}},
                 market={"gem": 3, "book": 1, "provision": 3, "tool": 3, "weapon": 3},
                 stocks={0: {"book": 2}, 1: {"book": 3}, 2: {"book": 1}})
    events = play(game, pick("library"), take("book"))
    # L-market has nothing left to move: skipped with its reason (R3), then the payout.
    assert "effect.skipped" in keys(events)
    prompt = game.expected()
    assert prompt["kind"] == "tile_taker" and sorted(o["seat"] for o in prompt["options"]) == [0, 1]
    events = play(game, {"type": "tile_taker", "seat": 0})
    state = game.state
    assert state["tiles"][0] == ["L-market"] and state["tokens"] == [0, 3, 0, 0]
    assert game.expected()["kind"] == "reveal"
    events += play(game, {"type": "reveal", "tile": "L-second"})
    state = game.state
    assert state["market"]["book"] == 3
    assert state["districts"]["library"] == {"top": "L-second", "below": ["L-high"],
                                             "resources": {"gem": 0, "book": 5, "provision": 0, "tool": 0, "weapon": 0}}
    assert state["districts"]["inn"]["resources"]["book"] == 1
    assert all(stock["book"] == 0 for stock in state["stocks"])
    reveal = find(events, "empty.reveal")[0]["params"]
    assert (reveal["returned"], reveal["to_market"], reveal["on_tile"]) == (7, 2, 5)


def test_anna_swaps_a_gem_for_a_weapon(profile):
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6], tops={"jeweller": "J-swap"})
    play(game, pick("jeweller"), take("gem"), {"type": "swap", "give": "gem", "district": "blacksmith",
                                               "take": "weapon"})
    d = game.state["districts"]
    assert d["jeweller"]["resources"]["gem"] == 5 and d["jeweller"]["resources"]["weapon"] == 1
    assert d["blacksmith"]["resources"]["weapon"] == 6 and d["blacksmith"]["resources"]["gem"] == 1
    assert game.state["stocks"][0]["gem"] == 1


def test_bruno_double_six_visits_the_black_market(profile):
    # Bruno takes the "1" die, a Gem, rolls 6, rolls 6 again: he visits the Black
    # Market and takes another Gem there. The Black Market has no effect.
    game = table(profile, 3, first=1, dice=[1, 2, 3, 4, 5, 6, 6], tops={"jeweller": "J-visit"})
    events = play(game, pick("jeweller"), take("gem"), roll(6), roll(6))
    assert game.expected()["kind"] == "resource" and game.expected()["context"]["area"] == "market"
    events += play(game, take("gem"))
    assert game.state["stocks"][1]["gem"] == 2
    assert game.state["market"]["gem"] == 2
    assert "effect.market" in keys(events)
    assert game.expected()["kind"] == "pick" and game.expected()["seat"] == 2


def test_eric_moves_the_submarine(profile):
    # Eric takes a "4" die, a Tool, then moves the Submarine from the Library to the Black Market.
    game = table(profile, 3, first=2, dice=[1, 2, 3, 4, 5, 6, 6], submarine="library")
    play(game, pick("works"), take("tool"))
    prompt = game.expected()
    assert prompt["kind"] == "submarine"
    assert {o["area"] for o in prompt["options"]} == {"jeweller", "inn", "works", "blacksmith", "market"}
    play(game, {"type": "submarine", "area": "market"})
    assert game.state["submarine"] == "market"


def test_last_die_at_the_engineering_works_moves_the_clock_three_to_a_donation(profile):
    # "The Clock hand is moved by 3 spaces, since there are 3 Clock hand icons on the tile.
    # The Clock hand now points a Donation space."
    assert profile["track"][5] == "donation" and profile["icons"]["E3"] == 3
    game = table(profile, 3, dice=[4, 6], picks_done=5, clock=2, tops={"works": "E3"},
                 stocks={0: {"gem": 2, "book": 1}, 1: {"tool": 1}})
    # Seat 2 takes the last-but-one die (the 6); the 4 stays at the Engineering Works.
    events = play(game, pick("market"), take("weapon"))
    move = find(events, "clock.move")[0]["params"]
    assert (move["area"], move["steps"], move["space"], move["kind"]) == ("works", 3, 5, "donation")
    prompt = game.expected()
    assert prompt["kind"] == "donate" and prompt["seat"] == 0
