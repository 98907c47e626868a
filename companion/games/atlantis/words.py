"""Events, prompts, options and refusals in words, from a catalog (i18n/en.json,
i18n/pt-BR.json) the caller has loaded: no file is read here.

    render(event, catalog, ["Ana", "Bruno"])  -> "Ana plays blue, grey: citizen 2 goes from space 4 to space 9. (Move)"
    prompt(expected, catalog, names)         -> "Ana pays 3 for the crossings: tiles and/or cards."
    label(option, kind, catalog, names)      -> "Citizen 2: blue, grey" (the words of its button)
    place(position, catalog)                 -> "space 9", "Atlantis", "the mainland"
    notation(inp)                            -> "move 2 blue,grey" (an input's line, citizens from 1)

Citizens are numbered from 1 for the table (the engine and the record count from 0);
tiles are said by their face ("grey 5"), never by their id ("10.1"); a crossing of
several gaps is said gap by gap ("7 = 2 + 0 + 5"). A sentence may have forms chosen by a
count ("1 card", "2 cards"), and a place its forms with a preposition ("{position:de}": "da casa
9", "do continente"): the shelf's one rule for both games (companion/games/plural.py).
"""

from ..plural import Word, form
from .path import ATLANTIS, MAINLAND


def _names(catalog: dict, names: list[str]) -> str:
    if not names:
        return catalog["words"]["nobody"]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + catalog["words"]["and"] + names[-1]


def colour(value: object, catalog: dict) -> str:
    return catalog["colours"].get(str(value), str(value))


def place(position: int, catalog: dict) -> str:
    """A place, with its forms from the catalog's groups "place/<form>" ("{to:para}")."""
    key = "atlantis" if position == ATLANTIS else "mainland" if position >= MAINLAND else "space"
    text = catalog["page"]["space_n"] if key == "space" else catalog["words"][key]
    forms = {name.split("/", 1)[1]: group[key].format(n=position) for name, group in catalog.items()
             if name.startswith("place/") and isinstance(group, dict) and key in group}
    return Word(text.format(n=position), forms)


def tile(t: dict, catalog: dict) -> str:
    """A tile by its face: "blue 5"."""
    return catalog["page"]["tile_face"].format(colour=colour(t["colour"], catalog), value=t["value"])


def fill(text: object, params: dict, catalog: dict, names: list[str]) -> str:
    """`text` (a sentence, or its forms by a count) with its params in words; `span`, the spaces
    from `first` to `last`, chooses the forms of a stretch ("space 11", "spaces 11 to 13")."""
    if isinstance(params.get("first"), int) and isinstance(params.get("last"), int):
        params = dict(params, span=params["last"] - params["first"] + 1)
    text = form(text, params)
    p = {}
    for key, value in params.items():
        if key == "seat":
            p[key] = names[value] if isinstance(value, int) and 0 <= value < len(names) else str(value)
        elif key == "seats":
            p[key] = _names(catalog, [names[s] for s in value])
        elif key == "colour":
            p[key] = colour(value, catalog)
        elif key == "cards" and isinstance(value, list):
            p[key] = ", ".join(colour(c, catalog) for c in value)
        elif key == "faces" and isinstance(value, list):
            p[key] = ", ".join(tile(t, catalog) for t in value) if value else catalog["words"]["none"]
        elif key == "split" and isinstance(value, list):
            p[key] = " + ".join(map(str, value))
        elif key == "citizen" and isinstance(value, int):
            p[key] = value + 1
        elif key in ("position", "to") and isinstance(value, int):
            p[key] = place(value, catalog)
        elif key in ("expected", "given"):
            p[key] = catalog["steps"].get(str(value), str(value))
        elif isinstance(value, list):
            p[key] = ", ".join(map(str, value)) if value else catalog["words"]["none"]
        else:
            p[key] = value
    if isinstance(params.get("faces"), list) and isinstance(params.get("cards"), int):
        p["paid_with"] = paid_with(params["faces"], params["cards"], catalog)
    return text.format(**p)


def paid_with(faces: list[dict], cards: int, catalog: dict) -> str:
    """What a payment gave: "grey 5, blue 3 and 2 cards", "2 cards", "grey 5"."""
    parts = [tile(t, catalog) for t in faces]
    if cards or not parts:
        parts.append(catalog["words"]["one_card"] if cards == 1 else catalog["words"]["cards_n"].format(n=cards))
    return _names(catalog, parts)


def notation(inp: dict) -> str:
    """An input as one short line for people: its type and fields as the record has them, but
    the citizen counted from 1 (the record's 0 is citizen 1) and a tile left behind said."""
    parts = [str(inp["type"])]
    for key, value in inp.items():
        if key in ("type", "source", "note") or value is None:
            continue
        if key == "citizen" and isinstance(value, int):
            value = value + 1
        if key == "take":
            parts.append("leave" if value is False else "take")
        elif key == "bridge":
            parts.append(f"bridge:{value}")
        elif isinstance(value, dict):
            parts.append(" ".join(f"{k}:{','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in value.items()))
        elif isinstance(value, list):
            parts.append(",".join(map(str, value)))
        else:
            parts.append(str(value))
    return " ".join(parts)


def render(event: dict, catalog: dict, names: list[str]) -> str:
    """One event as a sentence, the part of the rules it applies named at the end."""
    sentence = fill(catalog["events"][event["key"]], event["params"], catalog, names)
    if event.get("rule"):
        sentence += f" ({catalog['rules'].get(event['rule'], event['rule'])})"
    return sentence


def refusal(error, catalog: dict, names: list[str]) -> str:
    """A RuleError in words (its key in the catalog's "errors")."""
    text = catalog["errors"].get(error.key) if error.key else None
    return fill(text, error.params, catalog, names) if text else error.message


def prompt(expected: dict, catalog: dict, names: list[str]) -> str:
    """What the game waits for, in words (the catalog's "prompts")."""
    seat = expected["seat"]
    context = expected["context"]
    params = {k: context[k] for k in ("position", "owed") if k in context}
    params["seat"] = seat if seat is not None else ""
    return fill(catalog["prompts"][expected["kind"]], params, catalog, names)


def label(option: dict, kind: str, catalog: dict, names: list[str], state: dict | None = None) -> str:
    """The words of an option's button (the catalog's "labels"): "<type>/bridge" for a move
    that builds the bridge, else "<type>". Given the `state` it was offered in (its tiles: id ->
    colour and value), a tile given back or paid is said by its face ("buy/face", "pay/faces")."""
    labels = catalog["labels"]
    tiles = state.get("tiles") if isinstance(state, dict) else None
    if tiles is not None and option["type"] in ("buy", "pay"):
        ids = [option["tile"]] if option["type"] == "buy" else list(option.get("tiles") or [])
        if all(isinstance(t, str) and t in tiles for t in ids):
            if option["type"] == "buy":
                return labels["buy/face"].format(face=tile(tiles[ids[0]], catalog))
            return labels["pay/faces"].format(paid=paid_with([tiles[t] for t in ids], option.get("cards", 0), catalog))
    variant = "bridge" if option["type"] == "move" and option.get("bridge") is not None else None
    text = labels.get(f"{option['type']}/{variant}") or labels[option["type"]]
    params = {k: v for k, v in option.items() if k not in ("type", "source", "note", "order", "take")}
    if option["type"] == "pay":
        params["tiles"] = option.get("tiles") or []
    text = fill(text, params, catalog, names)
    if option["type"] == "move" and option.get("take") is False:
        text += labels["move/leave"]
    return text
