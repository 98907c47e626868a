"""Errors are values with reasons (invalid, illegal), and the state stays as it was."""


class RuleError(ValueError):
    """An input the engine refuses.

    kind: "invalid" (not understood: malformed, unknown type) or
          "illegal" (understood, but not allowed now).
    rule: the rulebook section or ruling id that decides it, when there is one.
    key, params: the same reason as data, for the interface to say it in the
        player's language (companion/i18n "errors"); the message is the English.
    """

    def __init__(self, kind: str, message: str, rule: str | None = None, key: str | None = None,
                 params: dict | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.rule = rule
        self.key = key
        self.params = params or {}

    def to_dict(self) -> dict:
        out = {"error": self.kind, "message": self.message, "rule": self.rule}
        if self.key:
            out.update(key=self.key, params=self.params)
        return out

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


def invalid(message: str, rule: str | None = None, key: str | None = None, **params) -> RuleError:
    return RuleError("invalid", message, rule, key, params)


def illegal(message: str, rule: str | None = None, key: str | None = None, **params) -> RuleError:
    return RuleError("illegal", message, rule, key, params)


# The free text a table may add to any input, kept in the record beside the rules' fields: at most
# this many characters each (a record holds every input, and every page and export reads it).
META_LIMITS = {"source": 40, "note": 1000}


def check_meta(inp: object) -> None:
    """RuleError("invalid", key "input_text_long") when an input's `source` or `note` is longer than
    META_LIMITS: checked on what a tablet sends, before it is recorded (a record already kept is
    read as it is, whatever its notes)."""
    if not isinstance(inp, dict):
        return
    for field, limit in META_LIMITS.items():
        value = inp.get(field)
        if isinstance(value, str) and len(value) > limit:
            raise invalid(f"an input's '{field}' may be at most {limit} characters long; this one has "
                          f"{len(value)}", key="input_text_long", field=field, limit=limit, length=len(value))
