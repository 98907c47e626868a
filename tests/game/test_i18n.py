"""Every event the engine emits reads as a sentence in both languages."""

import random
import re

from companion.i18n import LANGUAGES, best_language, catalog, render, seat_labels
from companion.rules.simulate import play_random, random_setup


def keys_of(tree, prefix=""):
    out = set()
    for k, v in tree.items():
        out |= keys_of(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
    return out


def test_catalogs_have_the_same_keys():
    assert keys_of(catalog("en")) == keys_of(catalog("pt-BR"))


def test_portuguese_uses_the_rulebook_words():
    pt = catalog("pt-BR")
    assert list(pt["area"].values()) == ["Joalheria", "Biblioteca", "Pousada", "Oficina", "Forja", "Mercado Negro"]
    assert list(pt["resource"].values()) == ["Joia", "Livro", "Provisão", "Ferramenta", "Arma"]
    assert pt["rules"]["Survey"] == "Inventário" and pt["rules"]["Donation"] == "Doação"


def test_every_event_of_many_games_renders_without_holes(profile):
    seen = set()
    for seed in range(60):
        rng = random.Random(seed)
        for state, _, events in play_random(rng, random_setup(rng, 2 + seed % 3, profile)):
            for event in events:
                seen.add(event["key"])
                for lang in LANGUAGES:
                    names = seat_labels(["Ana", "Bruno", "Eric", "Lola"][:len(state["players"])] +
                                        (["Neutral"] if state["neutral"] else []), state["neutral"], lang)
                    text = render(event, lang, names)
                    assert "?" not in text and "{" not in text and not re.fullmatch(r"[a-z_.]+", text), (lang, text)
    assert {"gates.open", "visit.pick", "visit.take", "empty.district", "clock.move", "final.winners"} <= seen


def test_neutral_player_named_in_each_language():
    assert seat_labels(["A", "B", "Neutral"], True, "pt-BR")[2] == "Jogador Neutro"


def test_browser_language_choice():
    assert best_language("pt-BR,pt;q=0.9,en;q=0.8") == "pt-BR"
    assert best_language("de-DE,en;q=0.5") == "en"
    assert best_language(None) == "en"
