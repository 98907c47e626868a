"""The check page: sums a game's rules do without a game (Atlandice's: an empty District's
payout, the final scoring), nothing changed. The registry says which games have one
(`Rules.check`: the package's `check` module, docs/games.md); the page and its API ask the
game named (`?game=`, or the first on the shelf with a check) and say its refusals in its words.
"""

from __future__ import annotations

from flask import abort

from companion import games
from companion.games.errors import RuleError
from companion.shelf import words_for

from .errors import ApiError


def with_check(game_id: str | None = None):
    """The game whose check page is asked: `game_id` if it has one, else the first on the shelf
    that has one; a 404 when none has."""
    shelf = [g for g in games.shelf() if g.check is not None]
    chosen = next((g for g in shelf if g.id == game_id), shelf[0] if shelf and not game_id else None)
    if chosen is None:
        abort(404)
    return chosen


def refused(exc: RuleError, words) -> ApiError:
    """A sum's input not understood, said as the game's check page says it (its page's line)."""
    return ApiError(400, "invalid", words.page(exc.key, **exc.params) if exc.key else exc.message)


def payout(game_id: str | None, counts: object, taker: object, lang: str) -> dict:
    rules = with_check(game_id)
    words = words_for(rules.id, lang)
    try:
        return rules.check.payout(counts, taker, words)
    except RuleError as exc:
        raise refused(exc, words) from None


def final(game_id: str | None, players: object, neutral: object, depleted: object, lang: str) -> dict:
    rules = with_check(game_id)
    words = words_for(rules.id, lang)
    try:
        return rules.check.final(players, neutral, depleted, words)
    except RuleError as exc:
        raise refused(exc, words) from None
