"""One generic route for an input asked step by step, and each game's own page files.

GET /step draws one step of an input a game asks for tap by tap (Atlantis's move: the
citizen, each card, then a bridge or not): the page's script for that game keeps the taps
and sends them as query arguments; the game's table view says what may come next
(`step(state, prompt, asked, words)`, companion/games/<game>/table.py) and its template
`<game>/step.html` draws it. The input itself is then sent as any input is.

GET /shelf/<game>/<file> serves a game's own static files (its package's static/).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, send_from_directory

from companion import games
from companion.games.errors import RuleError
from companion.shelf import folder, words_for

from . import i18n
from .errors import ApiError, said

bp = Blueprint("step", __name__)


@bp.get("/step")
def step():
    sess = current_app.extensions["session"]
    version = request.args.get("version", type=int)
    lang = i18n.current()
    with sess.lock:
        game = sess.game
        own = game.rules.table if game is not None else None
        if own is None or not hasattr(own, "step") or (version is not None and version != game.version):
            raise ApiError(409, "stale", said("stale_refreshed"))
        prompt = game.expected()
        if not isinstance(prompt, dict):
            raise ApiError(409, "stale", said("stale_refreshed"))
        # the game's step says None for a prompt it asks no taps for (Atlantis's shuffle, a
        # payment, the end); a prompt may list no options and still be asked tap by tap
        # (an Atlantis turn: its moves are drawn from the rules, `reach`, not from a list)
        words = words_for(game.game_id, lang)
        drawn = own.step(game.state, prompt, request.args.to_dict(), words)
        template = f"{game.game_id}/step.html"
    if drawn is None:
        raise ApiError(409, "stale", said("stale_refreshed"))
    response = Response(render_template(template, m=drawn, page=words.page), mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/shelf/<game>/<path:filename>")
def shelf_static(game: str, filename: str):
    try:
        rules = games.load(game)
    except RuleError:
        abort(404)
    return send_from_directory(folder(rules.id) / "static", filename)


def scripts() -> list[str]:
    """Every game's table script (static/table.js), loaded on the table page: each acts only
    on its own game's parts, so the page follows a change of game without a reload."""
    from flask import url_for
    return [url_for("step.shelf_static", game=g.id, filename="table.js")
            for g in games.shelf() if (folder(g.id) / "static" / "table.js").is_file()]


def stylesheets() -> list[str]:
    """Every game's own stylesheet (static/table.css), linked by every page after the shared
    style.css: its rules name only its own parts."""
    from flask import url_for
    return [url_for("step.shelf_static", game=g.id, filename="table.css")
            for g in games.shelf() if (folder(g.id) / "static" / "table.css").is_file()]


def loader():
    """The games' own templates, each under its id (`survive/live.html`): a Jinja loader."""
    from jinja2 import FileSystemLoader, PrefixLoader
    return PrefixLoader({g.id: FileSystemLoader(str(folder(g.id) / "templates")) for g in games.shelf()
                         if (folder(g.id) / "templates").is_dir()})
