"""The 2-player game: alternate picks, three dice each, one given to the neutral player."""

from companion.games.atlandice.names import STACKS

from .conftest import find, pick, play, table, take


def test_setup_two_players_has_a_neutral_seat_seven_dice_and_ten_of_each(profile):
    game = table(profile, 2)
    state = game.state
    assert state["neutral"] and len(state["stocks"]) == 3 and state["dice_count"] == 7
    assert state["in_play"] == 10 and state["turn"]["order"] == [0, 1, 0, 1, 0, 1]
    assert game.names == ["Anna", "Bruno", "Neutral"]


def test_giving_a_die_the_neutral_player_takes_the_resources(profile):
    game = table(profile, 2, dice=[1, 2, 3, 4, 5, 6, 6], submarine="blacksmith", tops={"blacksmith": "B-even"},
                 districts={"blacksmith": {"weapon": 7, "gem": 1}, "jeweller": {"gem": 6}})
    prompt = game.expected()
    assert {o["for"] for o in prompt["options"]} == {"self", "neutral"}
    play(game, pick("blacksmith", "neutral"))
    prompt = game.expected()
    assert prompt["seat"] == 0 and prompt["for"] == 2   # Anna chooses, for the neutral player
    play(game, take("weapon"), take("gem"), {"type": "roll", "value": 4}, take("weapon"))
    assert game.state["stocks"][2]["weapon"] == 2 and game.state["stocks"][2]["gem"] == 1
    assert game.state["stocks"][0] == {r: 0 for r in ("gem", "book", "provision", "tool", "weapon")}
    assert game.state["turn"]["given"] == [True, False]


def test_each_player_gives_exactly_one_die(profile):
    game = table(profile, 2, dice=[1, 1, 2, 2, 3, 6, 6], submarine="market", tops={"jeweller": "J-odd"})
    play(game, pick("jeweller", "neutral"), take("gem"), {"type": "roll", "value": 2})  # Anna gives her first
    play(game, pick("jeweller"), take("gem"), {"type": "roll", "value": 2})             # Bruno keeps
    # Anna has given: only "self" now.
    assert {o["for"] for o in game.expected()["options"]} == {"self"}
    play(game, pick("library"), take("book"), {"type": "roll", "value": 1})              # L-high fails
    play(game, pick("library"), take("book"), {"type": "roll", "value": 1})              # Bruno keeps again
    play(game, pick("inn"), take("provision"), {"type": "roll", "value": 6})             # Anna's third: self
    # Bruno's third pick with no die given: it must go to the neutral player.
    assert {o["for"] for o in game.expected()["options"]} == {"neutral"}
    refused = None
    try:
        game.apply(pick("market", "self"))
    except Exception as exc:  # RuleError
        refused = exc
    assert refused is not None and refused.rule == "Two players"


def test_neutral_second_die_counts_for_l_second(profile):
    # R5 counted per recipient: the neutral player's second die this round.
    game = table(profile, 2, dice=[2, 2, 3, 4, 5, 6, 6], submarine="market", tops={"library": "L-second"})
    events = play(game, pick("library", "neutral"), take("book"))
    assert find(events, "effect.not_second")
    play(game, pick("library", "neutral"), take("book"))
    prompt = game.expected()
    assert prompt["context"]["reason"] == "L-second" and prompt["for"] == 2 and prompt["seat"] == 1


def test_neutral_competes_in_empty_district_payouts(profile):
    game = table(profile, 2, dice=[2, 3, 4, 5, 6, 6, 1], submarine="market", tops={"library": "L-second"},
                 districts={"library": {"book": 1}}, stocks={2: {"book": 3}, 1: {"book": 1}})
    play(game, pick("library"), take("book"))
    assert game.state["tiles"][2] == ["L-second"]  # the neutral player has the most Books
    assert game.state["tokens"][0] == 1 and game.state["tokens"][1] == 1


def test_seven_dice_one_left_for_the_clock(profile):
    game = table(profile, 2, dice=[1, 2, 3, 4, 5, 6, 6], submarine="market",
                 tops={d: s[0] for d, s in STACKS.items()})
    assert len(game.state["turn"]["order"]) == 6
