"""What the table page draws, from a session snapshot: the frame every game shares
(web/frame.py), then the game's own parts from its table view (companion/games/<game>/table.py,
asked through the registry), and the score sheet of a game kept in the history.

No rules live here, and no game: each game's table view lays out its own parts in its words.
"""

from __future__ import annotations

import random

from companion import games
from companion.i18n import explain
from companion.shelf import words_for

from .frame import frame, ui  # noqa: F401  (ui: the page's words, for the pages that import it here)

# The edge's randomness, for a game's view that draws (Atlantis lays the path in a shuffled
# order): the rules draw none, and what is drawn is kept in the record as an input.
_rng = random.SystemRandom()


def game_words(game_id: str | None, lang: str):
    """The words of `game_id` (default: the game on the table) in `lang` (companion/shelf.py)."""
    from flask import current_app
    if game_id is None:
        game = current_app.extensions["session"].game
        game_id = game.game_id if game is not None else games.DEFAULT
    return words_for(game_id, lang)


def current_state() -> dict | None:
    from flask import current_app
    game = current_app.extensions["session"].game
    return game.state if game is not None else None


def table(snap: dict, lang: str) -> dict:
    """The whole table page: the frame every game shares, then the game's own parts."""
    view = frame(snap, lang)
    state = snap.get("state")
    if state is None:
        return view
    view.update(games.load(snap["game"]).table.table(snap, words_for(snap["game"], lang), _rng))
    p = snap.get("proposal") or {}
    if view.get("proposal") and p.get("problem"):
        # the dice read do not fit the step (the dice desk's problem): the session's words
        view["proposal"] = dict(view["proposal"], problem=explain(
            {"message": p["problem"], "key": p.get("problem_key"), "params": p.get("problem_params")}, lang))
    return view


# --- a game kept in the history, replayed (web/history.py) ----------------------------

def replay_parts(game, names: list[str], lang: str) -> dict:
    """The game's own score sheet (its live page's final card, `<game>/tally.html`) for the
    saved game's page: as it stands at any step where the game's table view says one
    (`so_far(game, words, names)`), else once the game is over (`final`)."""
    state = game.state
    own = game.rules.table
    words = words_for(game.game_id, lang)
    so_far = getattr(own, "so_far", None)
    if so_far is not None:
        tally = so_far(game, words, names)
    elif state.get("result"):
        tally = own.final(state, words, names)
    else:
        return {}
    # a VP chart in the sheet is drawn once, under the final sheet, not in each step's
    return {"tally": {k: v for k, v in tally.items() if k != "chart"}, "tally_page": f"{game.game_id}/tally.html",
            "page": words.page, "chart": tally.get("chart")}


def replay_players(game, lang: str) -> dict:
    """The players' table after a step of the replay, where the game's table view gives one
    (`players_at(game, words)`, drawn by its `<game>/players_at.html`)."""
    players_at = getattr(game.rules.table, "players_at", None)
    if players_at is None:
        return {}
    return {"players": players_at(game, words_for(game.game_id, lang)), "players_page": f"{game.game_id}/players_at.html"}
