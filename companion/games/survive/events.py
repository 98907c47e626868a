"""Events: what happened, as data the game's catalogs turn into words (words.render).

An event is {"key": str, "params": {...}, "rule": str | None}. Params hold seats
(ints), colour, terrain, creature and tile ids and numbers, never prose.
"""


def event(key: str, rule: str | None = None, **params) -> dict:
    return {"key": key, "params": params, "rule": rule}
