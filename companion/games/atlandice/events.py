"""Events: what happened, as data a catalog turns into words (its words.py: render).

An event is {"key": str, "params": {...}, "rule": str | None}. Params hold
seats (ints), resource and Area ids, tile ids and numbers, never prose.
"""


def event(key: str, rule: str | None = None, **params) -> dict:
    return {"key": key, "params": params, "rule": rule}
