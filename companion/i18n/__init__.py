"""The interface text in English and Brazilian Portuguese: one JSON catalog per language.

Each catalog (en.json, pt-BR.json) holds the names of the game's things, the
events in words, and the text of the page and the command line. The rules
engine emits events as data; this turns them into sentences:

    render(event, "pt-BR", ["Ana", "Bruno", "Eric"])
    -> "Bruno ganha 3 PV: empatado com o maior estoque de Livros (Região vazia)."

The Portuguese words are the printed pt-BR rulebook's (Meeple BR).
"""

import json
from functools import cache
from pathlib import Path

from companion.games.atlandice.inputs import KINDS, REFUSALS, kind_of

LANGUAGES = ("en", "pt-BR")
DEFAULT_LANGUAGE = "en"
_HERE = Path(__file__).resolve().parent


@cache
def catalog(lang: str) -> dict:
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    data = json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8"))
    if lang == "en":  # the English of each input kind and its refusals is declared with the kind
        data["errors"] = {**REFUSALS, **data["errors"]}
        data["kinds"] = {name: kind.words for name, kind in KINDS.items()}
    return data


def best_language(accept_language: str | None) -> str:
    """The one of LANGUAGES the browser prefers (Accept-Language, by its q-values), else English."""
    asked = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0      # a q we cannot read: not preferred
        lang = "pt-BR" if tag.lower().startswith("pt") else "en" if tag.lower().startswith("en") else None
        if lang and q > 0:
            asked.append((-q, order, lang))
    return min(asked)[2] if asked else DEFAULT_LANGUAGE


def word(lang: str, group: str, key: object) -> str:
    """The name of a resource, Area, tile, … in `lang` (the key itself when unknown)."""
    found = catalog(lang)[group].get(key)
    if found is None and group == "kinds" and key in KINDS:
        return KINDS[key].words       # a kind not yet translated: its declared English words
    return str(key) if found is None else found


def seat_labels(names: list[str], neutral: bool, lang: str) -> list[str]:
    """Seat names with the neutral player's name in `lang`."""
    if not neutral:
        return list(names)
    return list(names[:-1]) + [catalog(lang)["words"]["neutral"]]


def _names_list(lang: str, names: list[str]) -> str:
    if not names:
        return catalog(lang)["words"]["nobody"]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + catalog(lang)["words"]["and"] + names[-1]


def render(event: dict, lang: str, names: list[str]) -> str:
    """One event as a sentence; the ruling that decided it is named at the end."""
    cat = catalog(lang)
    p = dict(event["params"])
    key = event["key"]
    fmt = cat["events"].get(key)
    # Variants chosen by a parameter, e.g. "visit.take/submarine", then "effect.roll/yes".
    choices = [p.get(k) for k in ("reason", "purpose", "place", "kind")]
    if "success" in p:
        outcome = "yes" if p["success"] else "no"
        if p.get("purpose"):              # what the roll did: "effect.roll/J-odd/yes"
            choices.insert(0, f"{p['purpose']}/{outcome}")
        choices.append(outcome)
    for choice in choices:
        if choice is not None and f"{key}/{choice}" in cat["events"]:
            fmt = cat["events"][f"{key}/{choice}"]
            break
    if fmt is None:
        return key
    text = fill(fmt, _words(p, lang, names))
    rule = event.get("rule")
    if rule:
        text += f" ({cat['rules'].get(rule, rule)})"
    return text


def _words(p: dict, lang: str, names: list[str]) -> dict:
    """An event's or a refusal's parameters as words of `lang` (Areas with their
    prepositions: `area_at`, `area_from`, `area_into`)."""
    cat = catalog(lang)
    values = {}
    for k, v in p.items():
        if k in ("seat", "who") and isinstance(v, int):
            values[k] = names[v] if v < len(names) else str(v)
        elif k in ("winners", "first", "second", "tied"):
            values[k] = _names_list(lang, [names[s] for s in v]) if isinstance(v, list) else v
        elif k in ("resource", "give", "take"):
            values[k] = word(lang, "resource", v)
            values[k + "_plural"] = word(lang, "resources", v)
        elif k == "subject":
            values[k] = word(lang, "resources", v) if v != "total" else cat["words"]["total"]
        elif k in ("area", "district", "source", "to"):
            values[k] = word(lang, "area", v)
            for prep in ("at", "from", "into"):
                values[f"{k}_{prep}"] = word(lang, prep, v)
        elif k == "tile":
            values[k] = word(lang, "tile", v) if v else ""
        elif k == "pair":
            values[k] = _names_list(lang, [word(lang, "resource", r) for r in v]) if v else ""
        elif k == "gift" and isinstance(v, dict):
            values[k] = gift_words(lang, v)
        elif k == "counts" and isinstance(v, list):
            values[k] = ", ".join(f"{names[s]} {n}" for s, n in enumerate(v) if s < len(names))
        elif k == "total" and isinstance(v, list):
            values[k] = ", ".join(f"{names[s]} {n}" for s, n in enumerate(v) if s < len(names))
        elif k == "dice" and isinstance(v, list):
            values[k] = " ".join(str(f) for f in v)
        elif k == "areas" and isinstance(v, dict):
            values[k] = ", ".join(f"{word(lang, 'area', a)} {n}" for a, n in v.items())
        elif k == "tiles" and isinstance(v, list):
            values[k] = "; ".join(word(lang, "tile", t) for t in v)
        elif k == "options" and isinstance(v, list):     # a refusal's legal choices, as words
            values[k] = "; ".join(" ".join(_option_word(lang, x) for x in o.values()) for o in v) + (
                cat["words"]["more"] if p.get("more") else "")
        elif k in ("expected", "given", "what"):
            values[k] = word(lang, "kinds", v)
        elif k == "skipped" and isinstance(v, dict):       # the event that stood for a step not asked
            values[k] = render(v, lang, names)
        else:
            values[k] = v
    return values


def gift_words(lang: str, gift: dict) -> str:
    """What a Donation gives back: "2 Gems + 1 Book"."""
    return " + ".join(f"{n} {word(lang, 'resource' if n == 1 else 'resources', r)}" for r, n in gift.items())


def _option_word(lang: str, value: object) -> str:
    """One field of a legal choice: an Area, a resource or a tile by its name, else as is."""
    for group in ("area", "resource", "tile"):
        if isinstance(value, str) and value in catalog(lang)[group]:
            return word(lang, group, value)
    return str(value)


def variant(group: dict, key: str, params: dict) -> str:
    """`key`, or its variant for a count of one ("key/got=1") when a parameter named there is 1."""
    for name, value in params.items():
        if value == 1 and type(value) is int and f"{key}/{name}=1" in group:
            return f"{key}/{name}=1"
    return key


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def fill(fmt: str, params: dict) -> str:
    """`fmt` with its {placeholders} from params: one not given shows "?", never fails."""
    return fmt.format_map(_Missing(params))


def explain(error: dict, lang: str) -> str:
    """A refusal ({"message", "rule", "key", "params"}) in `lang`; the English message when no key fits."""
    group = catalog(lang)["errors"]
    fmt = group.get(variant(group, error.get("key") or "", error.get("params") or {}))
    if fmt is None:
        return error.get("message") or ""
    params = error.get("params") or {}
    text = fill(fmt, _words(params, lang, params.get("names") or []))
    rule = error.get("rule")
    if rule:
        text += f" ({catalog(lang)['rules'].get(rule, rule)})"
    return text


# --- inputs: their fields in words by each field's declared domain -----------------------

def input_words(inp: dict, lang: str, names: list[str]) -> dict:
    """An input's fields as words of `lang`, chosen by each field's domain (never by its name)."""
    values = {}
    for f in kind_of(inp["type"]).fields:
        v = inp.get(f.name)
        if f.domain == "resource":
            values[f.name] = word(lang, "resource", v)
            values[f.name + "_plural"] = word(lang, "resources", v)
        elif f.domain == "area":
            values[f.name] = word(lang, "area", v)
            for prep in ("at", "from", "into"):
                values[f"{f.name}_{prep}"] = word(lang, prep, v)
        elif f.domain == "tile":
            values[f.name] = word(lang, "tile", v)
        elif f.domain == "seat":
            values[f.name] = names[v] if isinstance(v, int) and v < len(names) else str(v)
        elif f.domain == "pair":
            values[f.name] = " + ".join(word(lang, "resource", r) for r in v) if v else ""
        elif f.domain == "faces":
            values[f.name] = " ".join(str(x) for x in v)
        elif f.domain == "gift":
            values[f.name] = gift_words(lang, v) if isinstance(v, dict) else ""
        elif f.domain == "flag":
            values[f.name] = ""
        else:
            values[f.name] = str(v)
    return values


def _variant(section: dict, inp: dict) -> str | None:
    """The template for `inp`: "<type>/<a field's value>" when there is one (None reads "none")."""
    kind = kind_of(inp["type"])
    for f in kind.fields:
        if f.name not in inp:       # a field of another shape of the input (a Donation's)
            continue
        v = inp.get(f.name)
        if f.domain in ("gift", "flag"):    # the shape itself chooses: "donate/give", "donate/all"
            return section.get(f"{kind.name}/{f.name}", section.get(kind.name))
        key = f"{kind.name}/{'none' if v is None else v}"
        if isinstance(v, (str, type(None))) and key in section:
            return section[key]
    return section.get(kind.name)


def label(inp: dict, lang: str, names: list[str]) -> str:
    """An input as the words of its button (the catalog's "labels")."""
    fmt = _variant(catalog(lang)["labels"], inp)
    return fill(fmt, input_words(inp, lang, names)) if fmt else kind_of(inp["type"]).notation(inp)


def group_label(inp: dict, lang: str, names: list[str]) -> str:
    """The heading of the group an option is shown in (the catalog's "groups"), or ""."""
    fmt = _variant(catalog(lang)["groups"], inp)
    return fill(fmt, input_words(inp, lang, names)) if fmt else ""
