"""Errors are values with reasons (invalid, illegal), and the state stays as it was."""


class RuleError(ValueError):
    """An input the engine refuses.

    kind: "invalid" (not understood: malformed, unknown type) or
          "illegal" (understood, but not allowed now).
    rule: the rulebook section or ruling id that decides it, when there is one.
    """

    def __init__(self, kind: str, message: str, rule: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.rule = rule

    def to_dict(self) -> dict:
        return {"error": self.kind, "message": self.message, "rule": self.rule}

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


def invalid(message: str, rule: str | None = None) -> RuleError:
    return RuleError("invalid", message, rule)


def illegal(message: str, rule: str | None = None) -> RuleError:
    return RuleError("illegal", message, rule)
