"""The shared catalogs (the frame's and the session's words) in both languages, and the
page's language chosen from the browser's."""

from companion.i18n import LANGUAGES, best_language, catalog, explain


def keys_of(tree, prefix=""):
    out = set()
    for k, v in tree.items():
        out |= keys_of(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
    return out


def test_catalogs_have_the_same_keys():
    assert keys_of(catalog("en")) == keys_of(catalog("pt-BR"))


def test_the_shared_catalogs_hold_no_game_words():
    # a game's words are in its package (companion/games/<game>/i18n/): no events, no tiles here
    for lang in LANGUAGES:
        assert set(catalog(lang)) == {"language", "errors", "rules", "cli", "ui"}


def test_a_session_refusal_is_said_with_its_ruling():
    text = explain({"key": "dice_unsure", "params": {"n": 2}, "rule": "R1"}, "pt-BR")
    assert text == "2 dados não puderam ser lidos: olhe a bandeja e corrija-os. (uma rolagem nunca é inventada)"
    assert explain({"key": "no_such_key", "message": "as the engine said"}, "pt-BR") == "as the engine said"


def test_browser_language_choice():
    assert best_language("pt-BR,pt;q=0.9,en;q=0.8") == "pt-BR"
    assert best_language("de-DE,en;q=0.5") == "en"
    assert best_language(None) == "en"
    # q-values decide, not the order; q=0 means "not this one"
    assert best_language("en;q=0.3, pt-BR;q=0.9") == "pt-BR"
    assert best_language("pt;q=0, en-GB") == "en"
    assert best_language("fr, pt-PT;q=0.5, en;q=0.4") == "pt-BR"
    assert best_language("pt-BR;q=abc, en;q=0.2") == "en"
    assert best_language("pt-BR;q=0") == "en"
