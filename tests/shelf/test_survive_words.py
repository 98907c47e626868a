"""Survive on the page: every option of many random games has its button words, and every
prompt its sentence, in both languages."""

import random

from companion.games.survive.simulate import random_input, random_setup
from companion.game import Game
from companion.shelf import default_profile, words_for


def readable(text: str) -> bool:
    return text.strip() and "{" not in text and "}" not in text


def test_every_option_and_prompt_of_random_games_has_words_in_both_languages():
    profile = default_profile("survive")
    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        game = Game.new(random_setup(rng, 2 + seed % 3, profile), game="survive")
        while True:
            prompt = game.expected()
            for lang in ("en", "pt-BR"):
                words = words_for("survive", lang)
                names = words.names(game.state)
                assert readable(words.prompt(prompt, names)), (lang, prompt["kind"])
                for option in prompt["options"]:
                    text = words.option(option, prompt["kind"], names)
                    assert readable(text), (lang, option)
            seen |= {(prompt["kind"], o["type"]) for o in prompt["options"]}
            if prompt["kind"] == "over":
                break
            game.apply(random_input(rng, prompt))
    kinds = {t for _, t in seen}
    assert {"setup", "done", "saved", "lost", "remove", "reveal", "creature_roll", "value"} <= kinds
    en, pt = words_for("survive", "en"), words_for("survive", "pt-BR")
    assert en.option({"type": "done"}, "moves", []) != en.option({"type": "done"}, "tile", [])
    assert pt.option({"type": "remove", "terrain": "beach", "surrounded": False}, "remove", []) == "Peça de Praia removida"
