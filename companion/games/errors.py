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
