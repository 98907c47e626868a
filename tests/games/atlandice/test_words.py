"""What the players read of Atlandice says what happened, in both languages: no rule ids as
jargon, one die and one input in the singular, a roll that says what it did."""

import re
from pathlib import Path

import pytest

from companion import i18n
from companion.i18n import LANGUAGES, explain
from companion.shelf import catalog as own_catalog, words_for

ROOT = Path(__file__).resolve().parents[3]
NAMES = ["Ana", "Bruno", "Jogador Neutro"]


def catalog(lang):
    return own_catalog("atlandice", lang)


def render(event, lang, names):
    return words_for("atlandice", lang).event(event, names)


def cited_rulings(paths) -> set[str]:
    """Every ruling id the code in `paths` attaches to what it says."""
    found = set()
    for path in paths:
        found |= set(re.findall(r"""["'](R\d+)["']""", path.read_text(encoding="utf-8")))
    return found


OWN = list((ROOT / "companion" / "games" / "atlandice").rglob("*.py")) + [ROOT / "web" / "view.py"]
SHARED = [p for p in list((ROOT / "companion").rglob("*.py")) + list((ROOT / "web").glob("*.py"))
          if "games" not in p.relative_to(ROOT).parts and p.name != "view.py"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("paths, rules_of", [(OWN, catalog), (SHARED, lambda lang: i18n.catalog(lang))])
def test_every_ruling_cited_is_said_in_words(lang, paths, rules_of):
    # Atlandice's rulings in its catalog; the one the session cites (R1) in the shared one.
    rules = rules_of(lang)["rules"]
    cited = cited_rulings(paths)
    assert cited and cited - set(rules) == set()
    assert all(not re.search(r"R\d", rules[r]) and len(rules[r].split()) >= 3 for r in cited)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_shows_a_ruling_id(lang):
    cat = catalog(lang)
    for group, texts in (("page", cat["page"]), ("events", cat["events"]), ("errors", cat["errors"]),
                         ("ui", i18n.catalog(lang)["ui"]), ("errors", i18n.catalog(lang)["errors"])):
        for key, text in texts.items():
            assert not re.search(r"\bR\d+\b", text), (group, key, text)
    event = {"key": "empty.unclaimed", "params": {"resource": "book"}, "rule": "R7"}
    text = render(event, lang, NAMES)
    assert "R7" not in text and cat["rules"]["R7"] in text


@pytest.mark.parametrize("lang, singular, plural", [
    ("en", "only 1 was read", "3 were read"), ("pt-BR", "só 1 foi lido", "3 foram lidos")])
def test_one_die_read_is_said_in_the_singular(lang, singular, plural):
    def said(got):
        return explain({"key": "dice_read_count", "params": {"want": 7, "got": got}}, lang)
    assert singular in said(1) and plural in said(3)


@pytest.mark.parametrize("purpose, en", [
    ("J-odd", "one more Gem"), ("B-even", "one more Weapon"), ("B-six", "Black Market"),
    ("J-visit", "roll again"), ("L-high", "another District"), ("I-clock", "clock moves")])
def test_a_roll_that_works_says_what_it_does(purpose, en):
    event = {"key": "effect.roll", "params": {"purpose": purpose, "value": 4, "success": True}}
    assert en in render(event, "en", NAMES)
    for lang in LANGUAGES:
        text = render(event, lang, NAMES)
        assert text != catalog(lang)["events"]["effect.roll/yes"].format(value=4), (lang, text)


def test_no_donation_is_not_called_nothing_more():
    event = {"key": "donation.done", "params": {"seat": 1}}
    assert render(event, "en", NAMES) == "Bruno is done with the Donation."
    assert "mais" not in render(event, "pt-BR", NAMES)


def test_the_roll_and_an_empty_district_do_not_contradict():
    roll = render({"key": "effect.roll", "params": {"purpose": "B-even", "value": 2, "success": True}}, "en", NAMES)
    assert "it works" not in roll and "if one is left" in roll
