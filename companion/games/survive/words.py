"""Events, prompts and refusals in words, from a catalog (i18n/en.json, i18n/pt-BR.json)
the caller has loaded: no file is read here.

    render(event, catalog, ["Ana", "Bruno"])   -> "Ana saves a red explorer ..."
    prompt(expected, catalog, names)          -> "Ana, step 3: remove a beach tile next to the sea."
    label(option, kind, catalog, names)       -> "beach tile removed" (the words of its button)
    face(face, catalog)                       -> "shark" (a face of the creature die)
    page(catalog, key, **params)              -> "1 point" (a page word with a count)

A sentence may have forms chosen by a count, and a word its plural ("{colour:other}"): the
shelf's one rule for both games (companion/games/plural.py).
"""

from ..plural import form, say, word as _agreeing


def _word(catalog: dict, group: str, value: object) -> str:
    return catalog.get(group, {}).get(str(value), str(value))


def _names(catalog: dict, names: list[str]) -> str:
    if not names:
        return catalog["words"]["nobody"]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + catalog["words"]["and"] + names[-1]


# Params naming a thing, and the catalog group that names it.
GROUPS = {"colour": "colour", "terrain": "terrain", "first": "terrain", "face": "creature",
          "creature": "creature", "back": "back", "tile": "back", "expected": "step"}


def fill(text: object, params: dict, catalog: dict, names: list[str]) -> str:
    """`text` (a sentence, or its forms by a count) with its params in words."""
    text = form(text, params)
    p = {}
    for key, value in params.items():
        if key == "seat":
            p[key] = names[value] if isinstance(value, int) and 0 <= value < len(names) else str(value)
        elif key == "seats":
            p[key] = _names(catalog, [names[s] for s in value])
        elif key in GROUPS:
            p[key] = _agreeing(catalog, GROUPS[key], value)
        elif isinstance(value, list):
            p[key] = ", ".join(map(str, value)) if value else catalog["words"]["none"]
        else:
            p[key] = value
    return text.format(**p)


def render(event: dict, catalog: dict, names: list[str]) -> str:
    """One event as a sentence, the rule it applies named at the end."""
    events = catalog["events"]
    variant = event["params"].get("variant")
    text = events.get(f"{event['key']}/{variant}") or events[event["key"]]
    sentence = fill(text, {k: v for k, v in event["params"].items() if k != "variant"}, catalog, names)
    if event.get("rule"):
        sentence += f" ({catalog['rules'].get(event['rule'], event['rule'])})"
    return sentence


def face(value: object, catalog: dict) -> str:
    """A face of the creature die: the creature's name."""
    return _word(catalog, "creature", value)


def refusal(error, catalog: dict, names: list[str]) -> str:
    """A RuleError in words (its key in the catalog's "errors")."""
    text = catalog["errors"].get(error.key) if error.key else None
    return fill(text, error.params, catalog, names) if text else error.message


def prompt(expected: dict, catalog: dict, names: list[str]) -> str:
    """What the game waits for, in words (the catalog's "prompts")."""
    seat = expected["seat"]
    params = dict(expected["context"], seat=seat if seat is not None else "")
    variant = params.pop("variant", None)       # a more precise sentence: "<kind>/<variant>"
    prompts = catalog["prompts"]
    text = (prompts.get(f"{expected['kind']}/{variant}") if variant else None) or prompts[expected["kind"]]
    params.pop("challenges", None)
    if isinstance(params.get("now"), list):       # the setup step's instructions: its events, said without a rule
        params["now"] = " ".join(render(dict(e, rule=None), catalog, names) for e in params["now"])
    return fill(text, params, catalog, names)


def label(option: dict, kind: str, catalog: dict, names: list[str], state: dict | None = None) -> str:
    """The words of an option's button (the catalog's "labels"): "<type>/<prompt kind>" or
    "<type>/surrounded" when there is one, else "<type>"."""
    labels = catalog["labels"]
    variant = "surrounded" if option.get("surrounded") else kind
    text = labels.get(f"{option['type']}/{variant}") or labels[option["type"]]
    params = {k: v for k, v in option.items() if k not in ("type", "surrounded")}
    if option["type"] == "values":
        params["total"] = sum(option["values"])
        params["values"] = " + ".join(map(str, option["values"])) if option["values"] else catalog["words"]["none"]
    return fill(text, params, catalog, names)


def page(catalog: dict, key: str, **params) -> str:
    """A page word or line, its form chosen by its count where it has forms ("1 point")."""
    value = catalog["page"].get(key, key)
    return say(value, params) if params or isinstance(value, dict) else value
