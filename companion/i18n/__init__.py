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

LANGUAGES = ("en", "pt-BR")
DEFAULT_LANGUAGE = "en"
_HERE = Path(__file__).resolve().parent


@cache
def catalog(lang: str) -> dict:
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    return json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8"))


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
    return catalog(lang)[group].get(key, str(key))


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
        else:
            values[k] = v
    return values


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
    text = fill(fmt, _words(error.get("params") or {}, lang, []))
    rule = error.get("rule")
    if rule:
        text += f" ({catalog(lang)['rules'].get(rule, rule)})"
    return text
