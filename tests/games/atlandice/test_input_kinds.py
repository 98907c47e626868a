"""Each input kind is declared once (companion/games/atlandice/inputs.py) and everything else asks it."""

import re
from pathlib import Path

import pytest

from companion.shelf import catalog, words_for
from companion.games.atlandice import RuleError
from companion.games.atlandice import inputs
from companion.games.atlandice.inputs import (FIELDS, KINDS, REFUSALS, Field, InputKind, describe_kind, from_notation,
                                    is_chance, normalize, notation)

from .conftest import pick, play, table

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def bet(monkeypatch):
    """A kind that does not exist in the game, declared the one way."""
    kind = InputKind("bet", (Field("stake", "resource"), Field("on", "face")), "a bet", "Survey", chance=True,
                     icons=(("res", "stake"),))
    monkeypatch.setitem(KINDS, "bet", kind)
    catalog.cache_clear()
    words_for.cache_clear()
    yield kind
    catalog.cache_clear()      # the English catalog lists the kinds declared when it was read
    words_for.cache_clear()


def test_a_new_kinds_fields_chance_and_words_come_from_its_declaration(bet):
    assert FIELDS["bet"] == ("stake", "on") and "bet" in FIELDS
    assert normalize({"type": "bet", "stake": "gem", "on": 6, "source": "hand", "x": 1}) == \
        {"type": "bet", "stake": "gem", "on": 6, "source": "hand"}
    with pytest.raises(RuleError) as err:
        normalize({"type": "bet", "stake": "gold", "on": 6})
    assert err.value.kind == "invalid" and "gem" in err.value.message
    assert is_chance("bet") and describe_kind("bet") == "a bet" and words_for("atlandice", "en").word("kinds", "bet") == "a bet"
    assert notation({"type": "bet", "stake": "gem", "on": 6}) == "bet gem 6"
    assert from_notation("bet gem 6") == {"type": "bet", "stake": "gem", "on": 6}
    # A kind with no catalog words yet is shown by its notation, never a crash.
    assert words_for("atlandice", "pt-BR").option({"type": "bet", "stake": "gem", "on": 6}, "bet", []) == "bet gem 6"


def test_a_refusal_for_the_wrong_kind_uses_the_declared_words(profile, bet):
    game = table(profile, 3, dice=[1, 2, 3, 4, 5, 6, 6])
    with pytest.raises(RuleError) as err:
        game.apply({"type": "bet", "stake": "gem", "on": 6})
    assert err.value.key == "wrong_kind" and "not a bet" in err.value.message


def test_chance_is_declared_only_on_the_kinds():
    assert sorted(k for k in KINDS if is_chance(k)) == ["gate_roll", "roll"]
    listed = re.compile(r"""["']gate_roll["'],\s*["']roll["']""")
    restated = [str(p.relative_to(ROOT)) for folder in ("companion", "web", "hardware")
                for p in (ROOT / folder).rglob("*.py") if listed.search(p.read_text(encoding="utf-8"))]
    assert restated == []


@pytest.mark.parametrize("inp", [
    {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}, {"type": "pick", "area": "inn", "for": "self"},
    {"type": "pick", "area": "inn", "for": "neutral"}, {"type": "resource", "resource": "book"},
    {"type": "roll", "value": 5}, {"type": "swap", "give": "gem", "district": "library", "take": "gem"},
    {"type": "move", "resource": "weapon", "to": "market"}, {"type": "take_from", "area": "inn", "resource": "provision"},
    {"type": "submarine", "area": "market"}, {"type": "change_die", "from": 4, "to": 2},
    {"type": "tile_taker", "seat": 1}, {"type": "reveal", "tile": "L-market"},
    {"type": "donate", "pair": ["gem", "book"]}, {"type": "donate", "pair": None},
])
def test_notation_both_ways(inp):
    assert from_notation(notation(inp)) == inp


def test_every_kind_has_words_labels_and_refusal_texts_in_both_languages():
    for lang in ("en", "pt-BR"):
        cat = catalog("atlandice", lang)
        assert set(cat["kinds"]) == set(KINDS)
        assert {key.split("/")[0] for key in cat["labels"]} == set(KINDS)
        assert set(REFUSALS) <= set(cat["errors"])
    assert catalog("atlandice", "en")["errors"]["neutral_due"] == REFUSALS["neutral_due"]


def test_the_engine_message_and_the_english_catalog_are_one_text(profile):
    game = table(profile, 3, dice=[1, 1, 2, 2, 5, 6, 6], submarine="market")
    with pytest.raises(RuleError) as err:
        game.apply(pick("inn"))
    assert err.value.message == "There is no die at the inn: you cannot visit an Area where there is no die."
    assert REFUSALS["no_die_at"].replace("{area_at}", "at the inn") == err.value.message


def test_the_page_labels_options_from_the_declarations():
    from companion.games.atlandice.table import option_label
    en, pt = words_for("atlandice", "en"), words_for("atlandice", "pt-BR")
    swap = option_label({"type": "swap", "give": "gem", "district": "library", "take": "book"}, {}, {}, pt, [])
    assert swap["text"] == "dar Joia, pegar Livro" and swap["icons"] == [("res", "gem"), ("text", "⇄"), ("res", "book")]
    done = option_label({"type": "donate", "pair": None}, {}, {}, en, [])
    assert done["text"] == "Done: no more" and done["icons"] == []
    give = option_label({"type": "pick", "area": "inn", "for": "neutral"}, {}, {}, en, [])
    assert give["text"] == "Inn → Neutral" and give["icons"] == [("die", "3")]


def test_position_knows_the_engines_steps():
    from companion.games.atlandice import engine, position
    assert position.KNOWN_TASKS == set(engine.AUTO) | set(engine.ASK)
    assert not hasattr(inputs, "_KIND_WORDS") and not hasattr(engine, "_KIND_WORDS")
