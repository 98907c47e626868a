"""Refusals: the engine's one error shape (companion.games.errors), reused so every game
on the shelf refuses alike: kind (invalid, illegal), rule, key and params; the state
stays as it was."""

from companion.games.errors import RuleError, illegal, invalid

__all__ = ["RuleError", "illegal", "invalid"]
