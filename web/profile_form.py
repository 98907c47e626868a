"""A shelf game's profile as an HTML form, and back: laid out from the fields the game
describes (its package's `profile_fields.FIELDS`, plain data), read back from the posted
form into the profile the game then checks (its `validate_profile`).

    fields = fields_of(game_id)
    layout(fields, profile, words)     -> what profile_game.html draws, every input with its text
    read(fields, form, profile)        -> the profile the form says; FormError for a cell that is no number

No rule here: what a good profile is stays the game's.
"""

from __future__ import annotations

import importlib
import re

from companion import games

_SPLIT = re.compile(r"[\s,;]+")
_WHOLE = re.compile(r"[0-9]{1,4}")


class FormError(ValueError):
    """A field the form cannot read (a number that is none): `field` is its key, `text` what was typed."""

    def __init__(self, field: str, text: str):
        super().__init__(f"{field}: {text!r} is not a whole number")
        self.field = field
        self.text = text


def fields_of(game_id: str) -> tuple:
    """The fields a game's profile page edits (none: the game describes none)."""
    try:
        module = importlib.import_module(games.load(game_id).package + ".profile_fields")
    except ModuleNotFoundError:
        return ()
    return tuple(module.FIELDS)


def _items(field: dict, profile: dict) -> list:
    return list(profile.get(field["items_from"], ())) if "items_from" in field else list(field["items"])


def _numbers(values) -> str:
    return " ".join(str(v) for v in values)


def layout(fields: tuple, profile: dict, words, values: dict | None = None) -> list[dict]:
    """Each field with its label and its inputs (name, text shown, label); `values` (a posted
    form) shows what was typed instead of the profile's own."""
    def text(name: str, own: str) -> str:
        return values.get(name, "") if values is not None else own

    def said(group: str | None, key) -> str:
        return words.word(group, key) if group else str(key)

    out = []
    for field in fields:
        key, kind = field["key"], field["kind"]
        entry = {"key": key, "kind": kind, "label": words.word("profile", key),
                 "hint": words.catalog.get("profile", {}).get(key + "_hint", "")}
        own = profile.get(key)
        if kind == "pick":
            entry["inputs"] = [{"name": f"{key}.{i}", "text": text(f"{key}.{i}", own[i] if i < len(own or ()) else ""),
                                "label": f"{entry['label']} {i + 1}",
                                "choices": [{"id": c, "text": said(field.get("words"), c)} for c in field["among"]]}
                               for i in range(field["length"])]
        elif kind in ("numbers", "words"):
            shown = _numbers(own or ()) if kind == "numbers" else ", ".join(own or ())
            entry["inputs"] = [{"name": key, "text": text(key, shown), "label": entry["label"]}]
        elif kind == "number":
            entry["inputs"] = [{"name": key, "text": text(key, str(own if own is not None else "")),
                                "label": entry["label"], "min": field.get("min"), "max": field.get("max")}]
        elif kind == "table":
            entry["cell"] = field["cell"]
            entry["columns"] = [{"id": k, "text": said(field.get("key_words"), k)} for k in field["keys"]]
            entry["rows"] = []
            for item in _items(field, profile):
                row = {"id": item, "text": said(field.get("item_words"), item), "inputs": []}
                for col in entry["columns"]:
                    cell = ((own or {}).get(col["id"]) or {}).get(item)
                    shown = _numbers(cell or ()) if field["cell"] == "numbers" else str(cell if cell is not None else 0)
                    name = f"{key}.{col['id']}.{item}"
                    row["inputs"].append({"name": name, "text": text(name, shown),
                                          "label": f"{row['text']}, {col['text']}",
                                          "min": field.get("min"), "max": field.get("max")})
                entry["rows"].append(row)
        out.append(entry)
    return out


def _whole(field: str, text: str):
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        raise FormError(field, text)
    return int(text)


def _list(field: str, text: str) -> list[int]:
    return [_whole(field, part) for part in _SPLIT.split(text.strip()) if part]


def read(fields: tuple, form, profile: dict) -> dict:
    """The profile a posted form says: the game's fields, its name kept, `confirmed` its box.
    FormError names the first field whose text is no whole number; the game checks the rest."""
    out = {"name": profile.get("name", "custom"), "confirmed": form.get("confirmed") == "1"}
    for field in fields:
        key, kind = field["key"], field["kind"]
        if kind == "pick":
            out[key] = [form.get(f"{key}.{i}", "") for i in range(field["length"])]
        elif kind == "numbers":
            out[key] = _list(key, form.get(key, ""))
        elif kind == "number":
            out[key] = _whole(key, form.get(key, ""))
        elif kind == "words":
            out[key] = [w.strip() for w in form.get(key, "").split(",") if w.strip()]
        elif kind == "table":
            items = _items(field, profile)          # the rows the page drew
            cell = _list if field["cell"] == "numbers" else _whole
            out[key] = {k: {item: cell(key, form.get(f"{key}.{k}.{item}", "")) for item in items}
                        for k in field["keys"]}
    return out
