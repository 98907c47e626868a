"""Both catalogs (en, pt-BR) hold every event, prompt and refusal key the engine can emit,
and every sentence renders without a hole."""

import ast
import random
import re

import pytest

from companion.games.survive import RuleError, apply, expected, new_state, start
from companion.games.survive.names import CREATURES, DEFENSIVE, START_OF_TURN
from companion.games.survive.simulate import play_random, random_setup
from companion.games.survive.words import refusal, render
from companion.games.survive.words import prompt as say_prompt

from .conftest import PACKAGE, load_catalog, load_profile, setup_of

LANGS = ("en", "pt-BR")
CATALOGS = {lang: load_catalog(lang) for lang in LANGS}
NAMES = ["Ana", "Bruno", "Caio", "Dora"]
STEPS = ("setup", "tile", "moves", "remove", "reveal", "whirlpool", "roll", "creature", "values", "over")


def keys_of(tree, prefix=""):
    out = set()
    for k, v in tree.items():
        out |= keys_of(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
    return out


def calls_in_source(names: set[str]) -> list[ast.Call]:
    found = []
    for file in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in names:
                found.append(node)
    return found


def test_both_catalogs_have_the_same_keys():
    assert keys_of(CATALOGS["en"]) == keys_of(CATALOGS["pt-BR"])


def test_every_event_key_in_the_code_is_in_both_catalogs():
    keys = set()
    for call in calls_in_source({"event"}):
        first = call.args[0]
        if isinstance(first, ast.Constant):
            keys.add(first.value)
        else:   # f"setup.challenge_{number}"
            assert isinstance(first, ast.JoinedStr)
            keys |= {f"setup.challenge_{n}" for n in (1, 2, 3, 4)}
    assert len(keys) > 35
    for lang in LANGS:
        assert keys <= set(CATALOGS[lang]["events"]), (lang, keys - set(CATALOGS[lang]["events"]))


def test_every_variant_has_its_sentence():
    variants = ({f"tile.played/{k}" for k in START_OF_TURN} | {f"tile.defended/{k}" for k in DEFENSIVE}
                | {f"creature.rolled/{c}" for c in CREATURES} | {f"reveal.placed/{b}" for b in ("shark", "whale", "boat")}
                | {f"end.game/{w}" for w in ("volcano", "last_explorer", "last_tile")}
                | {"remove.tile/surrounded", "reveal.volcano/whirlpool", "setup.place_explorers/overpopulation",
                   "final.score/explorers", "final.winners/shared"})
    for lang in LANGS:
        events = CATALOGS[lang]["events"]
        assert variants <= set(events), variants - set(events)
        assert {k.split("/")[0] for k in events if "/" in k} <= set(events)    # a variant of a key that exists


def test_every_refusal_key_in_the_code_is_in_both_catalogs():
    keys = set()
    for call in calls_in_source({"illegal", "invalid"}):
        key = next((kw.value for kw in call.keywords if kw.arg == "key"), None)
        if key is None and len(call.args) >= 3:
            key = call.args[2]
        assert isinstance(key, ast.Constant), ast.dump(call)[:200]       # every refusal has a key
        keys.add(key.value)
    assert len(keys) > 35
    for lang in LANGS:
        assert keys <= set(CATALOGS[lang]["errors"]), (lang, keys - set(CATALOGS[lang]["errors"]))


def test_every_prompt_has_its_sentence():
    for lang in LANGS:
        prompts = set(CATALOGS[lang]["prompts"])
        assert {k.split("/")[0] for k in prompts} == set(STEPS)
        assert prompts - set(STEPS) == {"roll/shark"} | {f"creature/{c}" for c in CREATURES}


def readable(text: str) -> bool:
    return "{" not in text and "}" not in text and not re.fullmatch(r"[a-z_.]+", text)


def test_every_event_prompt_and_rule_of_many_games_renders_in_both_languages():
    profile = load_profile()
    seen, prompts = set(), set()
    for seed in range(40):
        rng = random.Random(seed)
        setup = random_setup(rng, 2 + seed % 3, profile)
        state, first = start(new_state(setup))
        batches = [first]
        for state, _, events in play_random(rng, setup):
            batches.append(events)
            prompt = expected(state)
            prompts.add(prompt["kind"])
            for lang in LANGS:
                assert readable(say_prompt(prompt, CATALOGS[lang], NAMES)), (lang, prompt["kind"])
        for events in batches:
            for e in events:
                seen.add(e["key"])
                assert e["rule"] is None or e["rule"] in CATALOGS["en"]["rules"], e
                for lang in LANGS:
                    assert readable(render(e, CATALOGS[lang], NAMES)), (lang, e)
    assert {"setup.serpents", "turn.begin", "remove.tile", "creature.rolled", "final.winners"} <= seen
    assert {"moves", "remove", "reveal", "roll", "creature", "values", "over"} <= prompts


def test_refusals_render_in_both_languages():
    profile = load_profile()
    state, _ = start(new_state(setup_of(profile, 3)))
    for inp in ({"type": "setup", "step": 4}, {"type": "done"}, {"type": "wave"}):
        with pytest.raises(RuleError) as err:
            apply(state, inp)
        for lang in LANGS:
            text = refusal(err.value, CATALOGS[lang], NAMES)
            assert readable(text) and text != err.value.message or lang == "en", text
    assert "passo 1" in refusal(RuleError("illegal", "", None, "setup_step", {"step": 1, "given": 4}),
                                CATALOGS["pt-BR"], NAMES)


def test_portuguese_uses_the_rulebooks_words():
    pt = CATALOGS["pt-BR"]
    assert pt["creature"] == {"serpent": "Serpente Marinha", "shark": "Tubarão", "whale": "Baleia"}
    assert pt["terrain"] == {"beach": "Praia", "forest": "Floresta", "mountain": "Montanha"}
    assert pt["back"]["whirlpool"] == "Redemoinho" and pt["back"]["volcano"] == "Erupção Vulcânica"
