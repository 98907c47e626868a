"""Plural and agreement in a game's catalogs, said once for every game's `words` module (pure).

A catalog sentence is a string, or its forms chosen by a count:

    "atlantis.draw": {"by": "cards", "one": "{seat} draws 1 card.", "other": "{seat} draws {cards} cards."}

`by` names the parameter that counts; `one` is said for 1, `other` for any other number
(and for a count that is not a whole number); an optional `zero` for 0. The same rule in
English and Brazilian Portuguese: "1 carta", "0 cartas", "2 cartas".

A word of a catalog group (a colour, a terrain, a place) may have other forms, in groups
named `<group>/<form>`: with `"colour": {"red": "vermelho"}` and `"colour/other": {"red":
"vermelhos"}`, a sentence says `{colour}` for "vermelho" and `{colour:other}` for
"vermelhos" (plural agreement), or `{position:de}` for "da casa 9" (a preposition and its
article): `word(catalog, "colour", "red")` gives the word with its forms, and a form a
language does not have is the word itself.

    say(value, params)          the sentence `value` (a string or its forms) filled with params
    form(value, params)         only the text chosen, unfilled
    word(catalog, group, key)   a word with the other forms its catalog gives it
"""

from __future__ import annotations

FORMS = ("zero", "one", "other")


def category(n: object) -> str:
    """"one" for exactly 1, "zero" for 0, else "other" (both languages of the catalogs)."""
    if isinstance(n, bool) or not isinstance(n, int):
        return "other"
    return "one" if n == 1 else "zero" if n == 0 else "other"


def form(value: object, params: dict) -> str:
    """The text of a catalog value: itself when a string, else the form its count picks."""
    if not isinstance(value, dict):
        return value
    kind = category(params.get(value.get("by")))
    if kind == "zero" and "zero" not in value:
        kind = "other"
    return value.get(kind, value["other"])


def say(value: object, params: dict) -> str:
    return form(value, params).format(**params)


class Word(str):
    """A word that is itself, with its other forms said through a format spec: `{colour:other}`."""

    forms: dict

    def __new__(cls, text: str, forms: dict | None = None):
        word = super().__new__(cls, text)
        word.forms = dict(forms or {})
        return word

    def __format__(self, spec: str) -> str:
        if spec in self.forms:
            return self.forms[spec]
        if spec and spec.isidentifier():        # a form this language does not need: the word itself
            return str(self)
        return format(str(self), spec)


def word(catalog: dict, group: str, key: object, default: str | None = None) -> Word:
    """`catalog[group][key]` with the forms of the groups `<group>/<form>` that have `key`."""
    key = str(key)
    text = catalog.get(group, {}).get(key, key if default is None else default)
    prefix = group + "/"
    forms = {name[len(prefix):]: words[key] for name, words in catalog.items()
             if name.startswith(prefix) and isinstance(words, dict) and key in words}
    return Word(text, forms)


def texts(value: object) -> list[str]:
    """Every text a catalog value may say (its forms), for the catalogs' tests."""
    if isinstance(value, dict):
        return [value[k] for k in FORMS if k in value]
    return [value]
