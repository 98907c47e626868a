"""Atlandice's words in both languages (its catalogs, companion/games/atlandice/i18n/): every
event the engine emits reads as a sentence, every refusal a player can meet is said."""

import random
import re

from companion.games.atlandice.simulate import play_random, random_setup
from companion.i18n import LANGUAGES
from companion.shelf import catalog as own_catalog, words_for


def catalog(lang):
    return own_catalog("atlandice", lang)


def keys_of(tree, prefix=""):
    out = set()
    for k, v in tree.items():
        out |= keys_of(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
    return out


def test_catalogs_have_the_same_keys():
    # as read: the English of each input kind and its refusals is declared with the kind
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
                    words = words_for("atlandice", lang)
                    names = words.names(dict(state, players=["Ana", "Bruno", "Eric", "Lola"][:len(state["players"])]))
                    text = words.event(event, names)
                    assert "?" not in text and "{" not in text and not re.fullmatch(r"[a-z_.]+", text), (lang, text)
    assert {"gates.open", "visit.pick", "visit.take", "empty.district", "clock.move", "final.winners"} <= seen


def test_neutral_player_named_in_each_language():
    assert words_for("atlandice", "pt-BR").names({"players": ["A", "B"], "neutral": True})[2] == "Jogador Neutro"
    assert words_for("atlandice", "en").names({"players": ["A", "B", "C"], "neutral": False}) == ["A", "B", "C"]


def _well_formed(rng: random.Random, kind: str, dice_count: int) -> dict:
    """An input a tablet could send: every field from its domain, legal now or not."""
    from companion.games.atlandice.names import AREAS, RESOURCES, TILES
    pick = {"area": AREAS, "district": AREAS, "to": AREAS, "resource": RESOURCES, "give": RESOURCES,
            "take": RESOURCES, "for": ("self", "neutral"), "value": range(1, 7), "from": range(1, 7),
            "seat": range(5), "tile": TILES}
    from companion.games.atlandice.inputs import FIELDS
    if kind == "donate":      # one of a Donation's shapes, whole: a pair, counts given, or all done
        return rng.choice([{"type": kind, "pair": rng.choice([None, rng.sample(RESOURCES, 2)])},
                           {"type": kind, "seat": rng.randrange(5), "give": {rng.choice(RESOURCES): rng.choice([2, 4])}},
                           {"type": kind, "all": True}])
    inp = {"type": kind}
    for field in FIELDS[kind]:
        if field == "dice":
            inp[field] = [rng.randint(1, 6) for _ in range(rng.choice([dice_count, dice_count - 1]))]
        elif field == "pair":
            inp[field] = rng.choice([None, rng.sample(RESOURCES, 2), [rng.choice(RESOURCES)] * 2])
        elif kind == "change_die":
            inp[field] = rng.randint(1, 6)
        else:
            inp[field] = rng.choice(list(pick[field]))
    return inp


def test_every_refusal_a_player_can_meet_is_said_in_both_languages(profile):
    """Each refused tap on the page (a well-formed input not allowed now) carries a key,
    and reads as a whole sentence in Portuguese, not the engine's English."""
    import copy

    from companion.games.atlandice import RuleError
    from companion.games.atlandice.engine import apply_in_place
    from companion.games.atlandice.inputs import FIELDS

    keys = set()
    for seed in range(12):
        rng = random.Random(seed)
        for state, _, _ in play_random(rng, random_setup(rng, 2 + seed % 3, profile)):
            if state["over"]:
                break
            for kind in rng.sample(sorted(FIELDS), 4):
                try:
                    apply_in_place(copy.deepcopy(state), _well_formed(rng, kind, state["dice_count"]))
                except RuleError as exc:
                    assert exc.kind == "illegal" and exc.key, exc.message
                    keys.add(exc.key)
                    pt = words_for("atlandice", "pt-BR").refusal(exc.to_dict())
                    en = words_for("atlandice", "en").refusal(exc.to_dict())
                    assert pt != en and "?" not in pt and "{" not in pt and "_" not in pt, pt
                    assert catalog("pt-BR")["errors"][exc.key]
    assert {"wrong_kind", "no_die_at", "no_resource_at", "dice_count", "not_possible"} <= keys


def test_a_refused_choice_lists_the_possible_ones_in_words():
    def explain(refusal, lang):
        return words_for("atlandice", lang).refusal(refusal)
    refusal = {"key": "not_possible", "rule": "Jeweller", "params": {
        "what": "swap", "options": [{"give": "gem", "district": "library", "take": "book"}], "more": True}}
    assert explain(refusal, "pt-BR") == ("Essa escolha não é possível agora (uma troca); são possíveis: "
                                         "Joia Biblioteca Livro e mais. (Joalheria)")
    assert explain(refusal, "en").startswith("That choice is not possible now (a swap); possible: Gem Library Book and more.")


def test_a_resource_taken_from_an_area_is_said_with_its_article():
    words = words_for("atlandice", "pt-BR")
    inp = {"type": "take_from", "area": "jeweller", "resource": "gem"}
    assert words.option(inp, "take_from", ["Ana", "Bruno"]) == "Joia da Joalheria"
    assert words.option(dict(inp, area="market"), "take_from", ["Ana", "Bruno"]) == "Joia do Mercado Negro"
