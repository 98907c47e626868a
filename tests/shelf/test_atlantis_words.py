"""Atlantis on the shelf: registered with its names; every prompt, option and event of random
games has its words in both languages; places and citizens said for people."""

import random

from companion import games
from companion.game import Game
from companion.games.atlantis.simulate import random_input, random_setup
from companion.shelf import default_profile, listing, words_for

LANGS = ("en", "pt-BR")


def readable(text: str) -> bool:
    return bool(text.strip()) and "{" not in text and "}" not in text


def test_atlantis_is_on_the_shelf_with_its_names_and_protocol():
    entry = next(g for g in listing() if g["id"] == "atlantis")
    assert entry["names"] == {"en": "Atlantis", "pt-BR": "Atlantis"}
    rules = games.load("atlantis")
    assert rules.module.GAME == "atlantis"
    assert default_profile("atlantis")["colours"] == rules.module.default_profile()["colours"]
    # The record keeps the clean input and the table's note; the rules ignore the note.
    assert rules.normalize({"type": "move", "citizen": 1, "cards": ["blue"], "source": "hand", "x": 1}) == \
        {"type": "move", "citizen": 1, "cards": ["blue"], "bridge": None, "source": "hand"}


def test_every_prompt_option_and_event_of_random_games_has_words_in_both_languages():
    profile = default_profile("atlantis")
    seen = set()
    for seed in range(4):
        rng = random.Random(seed)
        game = Game.new(random_setup(rng, 2 + seed % 3, profile, "shuffle" if seed % 2 else "table"),
                        game="atlantis")
        while True:
            prompt = game.expected()
            for lang in LANGS:
                words = words_for("atlantis", lang)
                names = words.names(game.state)
                assert readable(words.prompt(prompt, names)), (lang, prompt["kind"])
                for option in (prompt["options"] or [])[:60]:
                    assert readable(words.option(option, prompt["kind"], names)), (lang, option)
                for entry in game.history[-1:]:
                    for ev in entry["events"]:
                        assert readable(words.event(ev, names)), (lang, ev)
            seen.add(prompt["kind"])
            if prompt["kind"] == "over":
                break
            game.apply(random_input(rng, game.state))
    assert seen == {"lay", "shuffle", "turn", "pay", "reveal", "cards_left", "over"}


def test_places_and_citizens_are_said_for_people():
    en, pt = words_for("atlantis", "en"), words_for("atlantis", "pt-BR")
    move = {"key": "atlantis.move", "rule": "Move",
            "params": {"seat": 0, "citizen": 0, "cards": ["blue", "grey"], "position": 0, "to": 9, "jumped": [4]}}
    assert en.event(move, ["Ana"]) == "Ana plays blue, grey: citizen 1 goes from Atlantis to space 9. (moving)"
    assert pt.event(move, ["Ana"]) == \
        "Ana joga azul, cinza: o cidadão 1 sai de Atlântida e vai para a casa 9. (movimento)"
    bridge = {"type": "move", "citizen": 2, "cards": ["pink"], "bridge": 27}
    assert en.option(bridge, "turn", []) == "Citizen 3: pink, building the bridge at space 27"
    error = {"error": "illegal", "key": "atlantis.wrong_kind", "params": {"expected": "pay", "given": "move"},
             "rule": None, "message": "x"}
    assert en.refusal(error) == "The companion waits for a payment now, not a move."


def test_a_one_space_bridge_is_said_as_one_space_in_both_languages():
    from companion.shelf import words_for
    for lang, one, many in (("en", "over space 11 ", "over spaces 11-13 "),
                            ("pt-BR", "sobre a casa 11 ", "sobre as casas 11-13 ")):
        words = words_for("atlantis", lang)
        said = words.page("finish_bridge", first=11, last=11, cost=3, span=1)
        assert one in said and "11-11" not in said
        assert many in words.page("finish_bridge", first=11, last=13, cost=3, span=3)
