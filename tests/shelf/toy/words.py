"""Toss's words, from a catalog the caller loaded."""


def render(event: dict, catalog: dict, names: list[str]) -> str:
    params = dict(event["params"])
    if "seat" in params:
        params["name"] = names[params["seat"]]
    if "seats" in params:
        params["names"] = ", ".join(names[s] for s in params["seats"])
    return catalog["events"][event["type"]].format(**params)


def prompt(expected: dict, catalog: dict, names: list[str]) -> str:
    seat = expected.get("seat")
    return catalog["prompts"][expected["kind"]].format(name=names[seat] if seat is not None else "",
                                                       **expected.get("context", {}))


def label(option: dict, kind: str, catalog: dict, names: list[str], state: dict | None = None) -> str:
    return catalog["labels"][option["type"]].format(**option)


def refusal(error, catalog: dict, names: list[str]) -> str:
    return catalog["errors"][error.key].format(**error.params)
