"""Every visible string comes from the catalogs; both languages have every key. The frame's
words are the shared catalogs' (companion/i18n/), Atlandice's its own (its page's "page")."""

import json
import re
from pathlib import Path

import pytest

from companion import shelf
from companion.i18n import catalog

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"


def keys(tree, prefix=""):
    out = set()
    for k, v in tree.items():
        path = f"{prefix}.{k}"
        out.add(path)
        if isinstance(v, dict):
            out |= keys(v, path)
    return out


def load(lang):
    return json.loads((ROOT / "companion" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def test_both_catalogs_have_exactly_the_same_keys():
    en, pt = keys(catalog("en")), keys(catalog("pt-BR"))
    assert en - pt == set(), "missing in pt-BR"
    assert pt - en == set(), "missing in en"


def test_the_same_placeholders_in_both_languages():
    en, pt = load("en")["ui"], load("pt-BR")["ui"]
    for key in en:
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", pt[key])), key


@pytest.mark.parametrize("word", ["Joalheria", "Biblioteca", "Pousada", "Oficina", "Forja", "Mercado Negro",
                                  "Inventário", "Doação"])
def test_portuguese_uses_the_rulebook_words(word):
    own = shelf.catalog("atlandice", "pt-BR")
    text = json.dumps(own, ensure_ascii=False)
    assert word in text
    ui = json.dumps([own["page"], load("pt-BR")["ui"]], ensure_ascii=False)   # its page's, its profile's
    if word in ("Inventário", "Doação", "Mercado Negro"):
        assert word in ui, "the page's own words use the rulebook's too"


def used_keys():
    found = set()
    for path in list(WEB.glob("templates/*.html")) + list(WEB.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r"\bt\(['\"]([a-z0-9_]+)['\"]\s*[,)]", text))
        found |= set(re.findall(r"\bui\(lang, ['\"]([a-z0-9_]+)['\"]\s*[,)]", text))
    return found


def test_every_key_the_page_uses_is_in_the_catalogs():
    ui = catalog("en")["ui"]
    missing = sorted(k for k in used_keys() if k not in ui)
    assert missing == []


def test_dynamic_keys_exist():
    ui, page = catalog("en")["ui"], shelf.catalog("atlandice", "en")["page"]
    kinds = ["gate_roll", "pick", "resource", "roll", "swap", "move", "take_from", "submarine", "change_die",
             "tile_taker", "reveal", "donate", "over"]
    needed = [f"btn_{b}" for b in ("undo", "redo", "read", "confirm")]
    needed += ["camera_ok", "camera_unavailable", "proposal_camera", "proposal_default", "bd_first", "bd_second",
               "source_camera", "source_hand", "source_panel"]
    assert [k for k in needed if k not in ui] == []
    own = [f"prompt_{k}" for k in kinds] + ["space_start", "space_end", "space_empty", "space_donation"]
    own += ["kind_empty", "kind_donation", "kind_survey_total"] + [f"kind_survey_{r}" for r in
                                                                   ("gem", "book", "provision", "tool", "weapon")]
    assert [k for k in own if k not in page] == []


def test_every_line_atlandices_page_says_is_in_its_catalogs():
    # its templates call v.page("..."), its table view words.page("...") and page("...")
    own = ROOT / "companion" / "games" / "atlandice"
    found = set()
    for path in list((own / "templates").glob("*.html")) + [own / "table.py", own / "words.py"]:
        found |= set(re.findall(r"\bpage\(['\"]([a-z0-9_]+)['\"]\s*[,)]", path.read_text(encoding="utf-8")))
    assert len(found) > 20
    for lang in ("en", "pt-BR"):
        page = shelf.catalog("atlandice", lang)["page"]
        assert sorted(k for k in found if k not in page) == [], lang
