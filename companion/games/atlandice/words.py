"""Atlandice's events, inputs, prompts and refusals in words, from a catalog (i18n/en.json,
i18n/pt-BR.json) the caller has loaded: no file is read here.

    render(event, catalog, ["Ana", "Bruno", "Eric"])
    -> "Bruno ganha 3 PV: empatado com o maior estoque de Livros (Região vazia)."
    label(option, kind, catalog, names)    -> "Joia da Joalheria" (the words of its button)
    prompt(expected, catalog, names)       -> "Ana: pick a die to take"
    refusal(error, catalog, names)         -> why an input was refused
    names(state, catalog)                  -> the seats, the Neutral player named in the language
    page(catalog, key, **params)           -> a line of Atlandice's page

The Portuguese words are the printed pt-BR rulebook's (Meeple BR). A sentence's variant for a
count of one is its key with "/<param>=1" ("dice_count/got=1").
"""

from __future__ import annotations

from .inputs import KINDS, REFUSALS, kind_of
from .names import AREAS


def complete(catalog: dict, lang: str) -> dict:
    """The catalog as read, with the English of each input kind and its refusals, which is
    declared with the kind (inputs.py)."""
    if lang != "en":
        return catalog
    return dict(catalog, errors={**REFUSALS, **catalog["errors"]},
                kinds={name: kind.words for name, kind in KINDS.items()})


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def fill(fmt: str, params: dict) -> str:
    """`fmt` with its {placeholders} from params: one not given shows "?", never fails."""
    return fmt.format_map(_Missing(params))


def variant(group: dict, key: str, params: dict) -> str:
    """`key`, or its variant for a count of one ("key/got=1") when a parameter named there is 1."""
    for name, value in params.items():
        if value == 1 and type(value) is int and f"{key}/{name}=1" in group:
            return f"{key}/{name}=1"
    return key


def word(catalog: dict, group: str, key: object) -> str:
    """The name of a resource, Area, tile, … (the key itself when unknown)."""
    found = catalog[group].get(key)
    if found is None and group == "kinds" and key in KINDS:
        return KINDS[key].words       # a kind not yet translated: its declared English words
    return str(key) if found is None else found


def names(state: dict, catalog: dict) -> list[str]:
    """The seats' names, the Neutral player's in the catalog's language."""
    seats = list(state["players"])
    return seats + [catalog["words"]["neutral"]] if state["neutral"] else seats


def _names_list(catalog: dict, names: list[str]) -> str:
    if not names:
        return catalog["words"]["nobody"]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + catalog["words"]["and"] + names[-1]


def render(event: dict, catalog: dict, names: list[str]) -> str:
    """One event as a sentence; the ruling that decided it is named at the end."""
    p = dict(event["params"])
    key = event["key"]
    fmt = catalog["events"].get(key)
    # Variants chosen by a parameter, e.g. "visit.take/submarine", then "effect.roll/yes".
    choices = [p.get(k) for k in ("reason", "purpose", "place", "kind")]
    if "success" in p:
        outcome = "yes" if p["success"] else "no"
        if p.get("purpose"):              # what the roll did: "effect.roll/J-odd/yes"
            choices.insert(0, f"{p['purpose']}/{outcome}")
        choices.append(outcome)
    for choice in choices:
        if choice is not None and f"{key}/{choice}" in catalog["events"]:
            fmt = catalog["events"][f"{key}/{choice}"]
            break
    if fmt is None:
        return key
    text = fill(fmt, _words(p, catalog, names))
    rule = event.get("rule")
    if rule:
        text += f" ({catalog['rules'].get(rule, rule)})"
    return text


def _words(p: dict, catalog: dict, names: list[str]) -> dict:
    """An event's or a refusal's parameters as words (Areas with their prepositions:
    `area_at`, `area_from`, `area_into`)."""
    values = {}
    for k, v in p.items():
        if k in ("seat", "who") and isinstance(v, int):
            values[k] = names[v] if v < len(names) else str(v)
        elif k in ("winners", "first", "second", "tied"):
            values[k] = _names_list(catalog, [names[s] for s in v]) if isinstance(v, list) else v
        elif k in ("resource", "give", "take"):
            values[k] = word(catalog, "resource", v)
            values[k + "_plural"] = word(catalog, "resources", v)
        elif k == "subject":
            values[k] = word(catalog, "resources", v) if v != "total" else catalog["words"]["total"]
        elif k in ("area", "district", "source", "to"):
            values[k] = word(catalog, "area", v)
            for prep in ("at", "from", "into"):
                values[f"{k}_{prep}"] = word(catalog, prep, v)
        elif k == "tile":
            values[k] = word(catalog, "tile", v) if v else ""
        elif k == "pair":
            values[k] = _names_list(catalog, [word(catalog, "resource", r) for r in v]) if v else ""
        elif k == "gift" and isinstance(v, dict):
            values[k] = gift_words(catalog, v)
        elif k in ("counts", "total") and isinstance(v, list):
            values[k] = ", ".join(f"{names[s]} {n}" for s, n in enumerate(v) if s < len(names))
        elif k == "dice" and isinstance(v, list):
            values[k] = " ".join(str(f) for f in v)
        elif k == "areas" and isinstance(v, dict):
            values[k] = ", ".join(f"{word(catalog, 'area', a)} {n}" for a, n in v.items())
        elif k == "tiles" and isinstance(v, list):
            values[k] = "; ".join(word(catalog, "tile", t) for t in v)
        elif k == "options" and isinstance(v, list):     # a refusal's legal choices, as words
            values[k] = "; ".join(" ".join(_option_word(catalog, x) for x in o.values()) for o in v) + (
                catalog["words"]["more"] if p.get("more") else "")
        elif k in ("expected", "given", "what"):
            values[k] = word(catalog, "kinds", v)
        elif k == "skipped" and isinstance(v, dict):       # the event that stood for a step not asked
            values[k] = render(v, catalog, names)
        else:
            values[k] = v
    return values


def gift_words(catalog: dict, gift: dict) -> str:
    """What a Donation gives back: "2 Gems + 1 Book"."""
    return " + ".join(f"{n} {word(catalog, 'resource' if n == 1 else 'resources', r)}" for r, n in gift.items())


def _option_word(catalog: dict, value: object) -> str:
    """One field of a legal choice: an Area, a resource or a tile by its name, else as is."""
    for group in ("area", "resource", "tile"):
        if isinstance(value, str) and value in catalog[group]:
            return word(catalog, group, value)
    return str(value)


def refusal(error, catalog: dict, names: list[str]) -> str:
    """A RuleError in words (its key, or its variant for a count of one, in "errors"); the
    seats it names are its own `names` parameter's."""
    group = catalog["errors"]
    fmt = group.get(variant(group, error.key or "", error.params or {}))
    if fmt is None:
        return error.message
    params = error.params or {}
    return fill(fmt, _words(params, catalog, params.get("names") or []))


# --- inputs: their fields in words by each field's declared domain -----------------------

def input_words(inp: dict, catalog: dict, names: list[str]) -> dict:
    """An input's fields as words, chosen by each field's domain (never by its name)."""
    values = {}
    for f in kind_of(inp["type"]).fields:
        v = inp.get(f.name)
        if f.domain == "resource":
            values[f.name] = word(catalog, "resource", v)
            values[f.name + "_plural"] = word(catalog, "resources", v)
        elif f.domain == "area":
            values[f.name] = word(catalog, "area", v)
            for prep in ("at", "from", "into"):
                values[f"{f.name}_{prep}"] = word(catalog, prep, v)
        elif f.domain == "tile":
            values[f.name] = word(catalog, "tile", v)
        elif f.domain == "seat":
            values[f.name] = names[v] if isinstance(v, int) and v < len(names) else str(v)
        elif f.domain == "pair":
            values[f.name] = " + ".join(word(catalog, "resource", r) for r in v) if v else ""
        elif f.domain == "faces":
            values[f.name] = " ".join(str(x) for x in v)
        elif f.domain == "gift":
            values[f.name] = gift_words(catalog, v) if isinstance(v, dict) else ""
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


def label(option: dict, kind: str, catalog: dict, names: list[str], state: dict | None = None) -> str:
    """An input as the words of its button (the catalog's "labels"); the prompt's `kind` and the
    `state` change nothing in Atlandice's."""
    fmt = _variant(catalog["labels"], option)
    return fill(fmt, input_words(option, catalog, names)) if fmt else kind_of(option["type"]).notation(option)


def group_label(option: dict, catalog: dict, names: list[str]) -> str:
    """The heading of the group an option is shown in (the catalog's "groups"), or ""."""
    fmt = _variant(catalog["groups"], option)
    return fill(fmt, input_words(option, catalog, names)) if fmt else ""


# --- the page ------------------------------------------------------------------------------

def page(catalog: dict, key: str, **params) -> str:
    """A line of Atlandice's page, its variant for a count of one where the catalog has it;
    without params, as written (its {placeholders} left for the page's script)."""
    group = catalog["page"]
    text = group.get(variant(group, key, params), key)
    return fill(text, params) if params else text


def prompt(expected: dict, catalog: dict, names: list[str]) -> str:
    """What the game waits for, in words: who, and what ("Rui, for the Neutral player: …")."""
    ctx = expected.get("context") or {}
    seat = expected.get("seat")
    who = names[seat] if isinstance(seat, int) and seat < len(names) else page(catalog, "the_table")
    target = expected.get("for")
    if isinstance(target, int) and target != seat and target < len(names) and isinstance(seat, int):
        who = page(catalog, "seat_for", seat=who, target=names[target])
    params = {"seat": who,
              "for": names[target] if isinstance(target, int) and target < len(names) else who,
              "area": word(catalog, "area", ctx["area"]) if ctx.get("area") in AREAS else "",
              "area_at": word(catalog, "at", ctx["area"]) if ctx.get("area") in AREAS else "",
              "district": word(catalog, "area", ctx["district"]) if ctx.get("district") in AREAS else "",
              "count": expected.get("count", 1), "pick": ctx.get("pick", ""), "picks": ctx.get("picks", "")}
    return page(catalog, "prompt_" + expected["kind"], **params)
