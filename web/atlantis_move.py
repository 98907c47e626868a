"""GET /atlantis/move: one step of an Atlantis move, drawn from the taps so far.

The page (web/static/atlantis.js) keeps the citizen and the cards tapped, and asks
for the next step: the colours that go on (each one's landing and crossing cost) or
the ways to finish (a bridge or none, with what is owed). The legality is the turn
prompt's own options (web/atlantis_view.py); the move itself is sent as any input is.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from . import i18n
from .atlantis_view import GAME, move_step
from .errors import ApiError, said

bp = Blueprint("atlantis", __name__)


@bp.get("/atlantis/move")
def move():
    sess = current_app.extensions["session"]
    citizen = request.args.get("citizen", type=int)
    cards = [c for c in request.args.get("cards", "").split(",") if c]
    version = request.args.get("version", type=int)
    from companion.shelf import words_for
    words = words_for(GAME, i18n.current())
    with sess.lock:
        game = sess.game
        if game is None or game.game_id != GAME or citizen is None:
            raise ApiError(409, "stale", said("stale_refreshed"))
        if version is not None and version != game.version:
            raise ApiError(409, "stale", said("stale_refreshed"))
        step = move_step(game.state, game.expected(), citizen, cards, words)
    if step is None:
        raise ApiError(409, "stale", said("stale_refreshed"))
    response = Response(render_template("atlantis_move.html", m=step, page=words.page), mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response
