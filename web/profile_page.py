"""A game's profile page: /profile/<game> shows the profile the next game of it begins with,
in the game's words, lets a paired tablet correct it and mark it checked, and says whether it
is confirmed. The form is drawn from the game's profile fields (`profile_fields.py`, a plain
form post: the game checks it, the session saves it), or is the game's own editor when its
table view gives one (`profile_editor(profile, words)`: its template and what it draws, saved
by its script through POST /api/profile?game=).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for

from companion import games as games_shelf
from companion import shelf
from companion.game_profiles import has_profile
from companion.games.errors import RuleError
from companion.i18n import explain
from companion.store import StoreError

from . import i18n, profile_form, security
from .errors import ApiError, from_rule_error, said, wants_json

bp = Blueprint("profiles", __name__)


def _game(game: str) -> str:
    try:
        games_shelf.load(game)
    except RuleError as exc:
        raise from_rule_error(exc, games_shelf.DEFAULT) from None
    return game


def profile_url(game: str | None) -> str:
    """Where the profile of `game` is edited (a game that keeps none, or no game: the choice's
    first)."""
    if not game or not has_profile(game):
        return url_for("pages.profile")
    return url_for("profiles.page", game=game)


def choices(current: str) -> list[dict]:
    """Every game with a profile, for the pages' choice of game."""
    lang = i18n.current()
    return [{"id": g["id"], "name": g["names"].get(lang, g["names"]["en"]), "href": profile_url(g["id"]),
             "current": g["id"] == current}
            for g in shelf.listing() if has_profile(g["id"])]


def _render(game: str, values=None, error: str | None = None, status: int = 200):
    sess = current_app.extensions["session"]
    lang = i18n.current()
    words = shelf.words_for(game, lang)
    profile = sess.profile_of(game)
    editor = getattr(games_shelf.load(game).table, "profile_editor", None)
    if editor is not None:
        own = editor(profile, words)
        return render_template(own.pop("template"), game=game, profile=profile, profile_choices=choices(game),
                               paired=security.is_paired(), csrf_token=security.csrf_token(), **own), status
    name = games_shelf.load(game).names.get(lang) or games_shelf.load(game).names["en"]
    confirmed = (values.get("confirmed") == "1") if values is not None else profile["confirmed"]
    return render_template(
        "profile_game.html", game=game, game_name=name, profile=profile, confirmed=confirmed,
        fields=profile_form.layout(profile_form.fields_of(game), profile, words, values),
        hint=words.catalog.get("profile", {}).get("hint", ""), choices=choices(game),
        saved=request.args.get("saved") == "1" and error is None, error=error,
        paired=security.is_paired(), csrf_token=security.csrf_token()), status


@bp.get("/profile/<game>")
def page(game: str):
    game = _game(game)
    if not has_profile(game):
        first = next((g["id"] for g in shelf.listing() if has_profile(g["id"])), None)
        if first is None:
            raise ApiError(404, "not_found", said("err_no_game_profile"))
        return redirect(url_for("profiles.page", game=first), 303)
    return _render(game)


@bp.post("/profile/<game>")
@security.paired_required
def save(game: str):
    """The posted form: read by the game's fields, checked by the game, saved for its next game.
    A field that is no number or a profile the game refuses: said, nothing saved (400); a disk
    that refuses the file: said with its path, nothing changed (507 full, else 503). Asked
    by a script (X-Requested-With or JSON wanted): the saved profile, or the error, as JSON."""
    game = _game(game)
    if not has_profile(game) or not profile_form.fields_of(game):
        raise ApiError(404, "not_found", said("err_no_game_profile"))
    sess = current_app.extensions["session"]
    fields = profile_form.fields_of(game)
    words = shelf.words_for(game, i18n.current())
    try:
        profile = profile_form.read(fields, request.form, sess.profile_of(game))
        sess.set_profile(profile, game)
    except profile_form.FormError as exc:
        refused = ApiError(400, "invalid", said("err_profile_number", field=words.word("profile", exc.field),
                                                text=exc.text), key="profile_number", field=exc.field)
    except RuleError as exc:
        refused = from_rule_error(exc, game)
    except StoreError as exc:        # the disk refused the file: 507 (full) or 503, naming it
        data = exc.to_dict()
        refused = ApiError(507 if exc.full else 503, "storage", explain(data, i18n.current()), None,
                           key=exc.key, params=data["params"], detail=exc.detail)
    else:
        if wants_json():
            return jsonify({"ok": True, "profile": sess.profile_of(game)})
        return redirect(url_for("profiles.page", game=game, saved=1), 303)
    if wants_json():
        raise refused
    return _render(game, request.form, refused.message, refused.status)
