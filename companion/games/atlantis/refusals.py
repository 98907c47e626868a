"""Refusals: RuleErrors (companion/games/errors.py) with a key the catalogs say in words.

KEYS lists every refusal key (a test checks both catalogs have each one).
"""

from companion.games.errors import RuleError, illegal, invalid

KEYS = (
    "setup", "position", "game_over", "malformed", "wrong_kind",
    "unknown_colour", "bad_value", "bad_order",
    "no_citizen", "citizen_home", "bad_route", "too_many_cards", "no_bridge_left", "bridge_not_crossed",
    "bridge_at_an_end",
    "cannot_afford",
    "not_your_tile", "pay_repeat", "pay_cards", "pay_short",
    "has_move", "bad_count",
)


def refuse(key: str, message: str, rule: str | None = None, **params) -> RuleError:
    """An input understood but not allowed now."""
    assert key in KEYS, key
    return illegal(message, rule, f"atlantis.{key}", **params)


def malformed(message: str, rule: str | None = None, key: str = "malformed", **params) -> RuleError:
    """An input not understood (a missing field, a wrong type)."""
    assert key in KEYS, key
    return invalid(message, rule, f"atlantis.{key}", **params)


__all__ = ["KEYS", "RuleError", "refuse", "malformed"]
