"""Plurals and agreement in both games' words (Survive and Atlantis, en and pt-BR): every
event, prompt, label and refusal sentence of the catalogs, rendered through the game's own
`words.fill` with every count at 1 and then at 2, says no "1 cards", "(s)", "spaces 1 to 1",
"sai de casa 9" or "Exploradores vermelho" (companion/games/plural.py, one rule for both)."""

from __future__ import annotations

import re
import string

import pytest

from companion.games import plural
from companion.games.atlantis import words as atlantis_words
from companion.games.survive import words as survive_words
from companion.shelf import catalog

GROUPS = ("events", "prompts", "labels", "errors")
# Params that name a thing, not a count, and what each game gives for them.
NAMED = {
    "survive": {"seat": 0, "seats": [0, 1], "colour": "red", "terrain": "beach", "first": "forest",
                "creature": "shark", "face": "whale", "back": "boat", "tile": "dolphin", "expected": "moves",
                "given": "remove", "values": [1, 4], "now": "", "field": "colour", "fields": "x",
                "game": "atlantis", "detail": "x", "low": 1, "high": 2},
    "atlantis": {"seat": 0, "seats": [0, 1], "colour": "blue", "expected": "turn", "given": "pay",
                 "cards": ["blue", "grey"], "faces": [], "split": [1, 0], "reason": "x", "half": "A",
                 "players": 3, "hands": [4, 5], "tile": "blue 5", "face": "blue 5"},
}
NAMES = ["Ana", "Bruno"]
COUNT_WORDS = {
    "en": "cards|points|crossings|tiles|explorers|boats|moves|players|serpents|sharks|whales|mountains|numbers|"
          "beaches|forests|colours|spaces|sea serpents",
    "pt-BR": "cartas|pontos|travessias|peças|Exploradores|Barcos|movimentos|jogadores|perdidos|salvos|números|"
             "cores|casas|Montanhas|Serpentes|Praias|Florestas|Tubarões|Baleias",
}
ONE_WORDS = {
    "en": "card|point|crossing|tile|explorer|boat|move|player|number|colour|space",
    "pt-BR": "carta|ponto|travessia|peça|Explorador|Barco|movimento|jogador|número|cor|casa|perdido|salvo",
}
AVOID = {
    "en": [r"\((s|es)\)", r"spaces? (\d+) ?(?:to|-) ?\1\b"],
    "pt-BR": [r"\((s|es|m|a)\)", r"casas (\d+) ?(?:a|-) ?\1\b", r"\brestam 1\b", r"\bfaltam 1\b", r"\bresta [02-9]",
              r"Exploradores (vermelho|azul|verde|amarelo)\b", r"\b(de|em) (casa \d|o continente)|\bpara casa \d"],
}


def forms_to_avoid(lang: str, n: int) -> list[str]:
    plural_after_one = rf"(?<![\d.])1 (?:(?!pel[ao]s|for\b|por\b)[\w-]+ )?(?:{COUNT_WORDS[lang]})\b"
    singular_after_two = rf"(?<![\d.])2 (?:{ONE_WORDS[lang]})\b"
    return AVOID[lang] + [plural_after_one if n == 1 else singular_after_two]


def sentences(game: str, lang: str):
    cat = catalog(game, lang)
    for group in GROUPS:
        for key, value in cat.get(group, {}).items():
            yield f"{group}.{key}", value


def params_for(game: str, value: object, n: int) -> dict:
    named = NAMED[game]
    params = {value["by"]: n} if isinstance(value, dict) else {}     # the count, said or not
    for text in plural.texts(value):
        for _, field, _, _ in string.Formatter().parse(text):
            if field:
                params[field] = named.get(field, n)
    if game == "atlantis":                 # places are said by words.place: a space, Atlantis
        params.update({k: 9 for k in ("position", "to") if k in params})
    return params


def fill(game: str, value: object, params: dict, lang: str) -> str:
    module = survive_words if game == "survive" else atlantis_words
    return module.fill(value, params, catalog(game, lang), NAMES)


@pytest.mark.parametrize("game", ["survive", "atlantis"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("n", [1, 2])
def test_every_sentence_says_its_counts_in_the_right_form(game, lang, n):
    said = 0
    for key, value in sentences(game, lang):
        text = fill(game, value, params_for(game, value, n), lang)
        assert "{" not in text and "}" not in text, (key, text)
        for pattern in forms_to_avoid(lang, n):
            assert not re.search(pattern, text), (key, pattern, text)
        said += 1
    assert said > 40


@pytest.mark.parametrize("game", ["survive", "atlantis"])
def test_forms_have_the_same_count_and_both_forms_in_both_languages(game):
    en, pt = catalog(game, "en"), catalog(game, "pt-BR")
    for group in GROUPS + ("page",):
        for key, value in en.get(group, {}).items():
            other = pt[group][key]
            assert isinstance(value, dict) == isinstance(other, dict), key
            if isinstance(value, dict):
                assert value["by"] == other["by"] and {"one", "other"} <= set(value), key


def test_the_shared_rule():
    value = {"by": "n", "one": "{n} card", "other": "{n} cards", "zero": "no card"}
    assert [plural.say(value, {"n": n}) for n in (0, 1, 2, 11)] == ["no card", "1 card", "2 cards", "11 cards"]
    assert plural.say({"by": "n", "one": "1 ponto", "other": "{n} pontos"}, {"n": 0}) == "0 pontos"
    word = plural.word({"colour": {"red": "vermelho"}, "colour/other": {"red": "vermelhos"}}, "colour", "red")
    assert f"{word} {word:other} {word:de}" == "vermelho vermelhos vermelho"
    pt = catalog("atlantis", "pt-BR")
    assert "{0:de} {1:em} {2:para}".format(*(atlantis_words.place(p, pt) for p in (24, 0, 99))) == \
        "da casa 24 em Atlântida para o continente"


def test_the_examples_the_issue_named_are_said_right():
    pt, en = catalog("atlantis", "pt-BR"), catalog("atlantis", "en")
    draw = {"key": "atlantis.draw", "params": {"seat": 0, "cards": 1}, "rule": None}
    assert atlantis_words.render(draw, en, NAMES) == "Ana draws 1 card."
    assert atlantis_words.render(draw, pt, NAMES) == "Ana compra 1 carta."
    bridge = {"key": "atlantis.bridge", "params": {"seat": 0, "first": 11, "last": 11, "saved": 2}, "rule": None}
    assert atlantis_words.render(bridge, en, NAMES) == "Ana builds their bridge over space 11 (saving 2)."
    move = {"key": "atlantis.move/mainland", "params": {"seat": 0, "cards": ["blue"], "citizen": 1, "position": 24},
            "rule": None}
    assert "sai da casa 24" in atlantis_words.render(move, pt, NAMES)
    spt, sen = catalog("survive", "pt-BR"), catalog("survive", "en")
    stranded = {"key": "end.stranded", "params": {"seat": 0, "colour": "red", "n": 7}, "rule": None}
    assert survive_words.render(stranded, spt, NAMES).startswith("7 Exploradores vermelhos de Ana")
    rolled = {"key": "creature.rolled/whale", "params": {"on_board": 1, "low": 1, "high": 3}, "rule": None}
    assert survive_words.render(rolled, sen, NAMES).startswith("Whale: move the one on the board")
    assert survive_words.page(sen, "points_n", n=1) == "point" and survive_words.page(spt, "lost_n", n=1) == "perdido"
    assert spt["page"]["turn_n"] == "Turno {n}"
