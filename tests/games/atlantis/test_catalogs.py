"""Both catalogs have every key the engine can emit: events, refusals, prompts, colours."""

import json
import re
from pathlib import Path

import pytest

from companion.games.atlantis import events, refusals
from companion.games.atlantis.engine import ACCEPTS

from .conftest import PROFILE

I18N = Path(__file__).resolve().parents[3] / "companion" / "games" / "atlantis" / "i18n"
LANGS = ("en", "pt-BR")


def catalog(lang):
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def keys_of(tree, prefix=""):
    out = set()
    for k, v in tree.items():
        out |= keys_of(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
    return out


def test_both_catalogs_have_the_same_keys():
    assert keys_of(catalog("en")) == keys_of(catalog("pt-BR"))


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_refusal_prompt_and_colour_is_in_the_catalog(lang):
    words = catalog(lang)
    assert set(events.KEYS) == set(words["events"])
    assert {f"atlantis.{k}" for k in refusals.KEYS} == set(words["errors"])
    assert set(ACCEPTS) == set(words["prompts"])
    assert set(PROFILE["colours"]) == set(words["colours"])


def test_the_engine_uses_only_registered_keys():
    """Every key written in the package's code is registered (so the catalogs cover it)."""
    package = I18N.parent
    code = "\n".join(p.read_text(encoding="utf-8") for p in package.glob("*.py"))
    emitted = set(re.findall(r'"(atlantis\.[a-z_/]+)"', code))
    assert emitted <= set(events.KEYS)
    refused = set(re.findall(r'refuse\("([a-z_]+)"', code))
    assert refused and refused <= set(refusals.KEYS)
    assert set(refusals.KEYS) <= refused | {"setup", "position", "malformed"}
