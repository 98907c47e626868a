"""The frame's and the session's text in English and Brazilian Portuguese: one JSON catalog
per language (en.json, pt-BR.json): the page's words every game shares ("ui"), the command
line's ("cli") and the session's refusals ("errors": no game, nothing to undo, the games
file's trouble...) with the one ruling the session cites ("rules": R1, the dice are the
table's). Each game's own words are in its package (companion/games/<game>/i18n/,
said through companion/shelf.py).

    explain({"key": "dice_unsure", "params": {"n": 2}}, "pt-BR")
    -> "2 dados não puderam ser lidos: olhe a bandeja e corrija-os."
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
    params = error.get("params") or {}
    fmt = group.get(variant(group, error.get("key") or "", params))
    if fmt is None:
        return error.get("message") or ""
    text = fill(fmt, params)
    rule = error.get("rule")
    if rule:
        text += f" ({catalog(lang)['rules'].get(rule, rule)})"
    return text
