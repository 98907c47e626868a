"""The HTML pages: the table (live), setup, the profile, camera, check, pairing."""

from __future__ import annotations

import io
import math
from datetime import datetime

from flask import (Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request,
                   session, url_for)

from companion import games as games_shelf
from companion import shelf
from companion.games.errors import RuleError

from . import check, i18n, profile_page, security, view
from .errors import ApiError, from_rule_error, said

bp = Blueprint("pages", __name__)


def game_session():
    return current_app.extensions["session"]


def pairing():
    return current_app.extensions["pairing"]


def tablets():
    return current_app.extensions["tablets"]


def table_view() -> dict:
    sess = game_session()
    v = view.table(sess.snapshot(), i18n.current())
    v["image_id"] = sess.desk.image_id()     # None: no picture yet
    return v


def common() -> dict:
    return {"paired": security.is_paired(), "csrf_token": security.csrf_token()}


@bp.get("/")
def table():
    """The table at a glance: the board, the players, the prompt, the history."""
    v = table_view()
    return render_template("table.html", v=v, **common())


@bp.get("/live")
def live():
    """The live part of the table page alone (the page's script swaps it in at each change)."""
    v = table_view()
    response = Response(render_template("live.html", v=v, **common()), mimetype="text/html")
    response.headers["X-Version"] = "" if v["version"] is None else str(v["version"])
    response.headers["X-Change-Id"] = str(v["change_id"])
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/setup")
def setup():
    """A new game: first the choice of game (?game=id, Atlandice by default), then its setup."""
    sess = game_session()
    lang = i18n.current()
    game = request.args.get("game", games_shelf.DEFAULT)
    try:
        games_shelf.load(game)
    except RuleError as exc:
        raise from_rule_error(exc, games_shelf.DEFAULT) from None
    choices = [{"id": g["id"], "name": g["names"].get(lang, g["names"]["en"])} for g in shelf.listing()]
    words = shelf.words_for(game, lang)
    return render_template("setup.html", shelf=choices, game=game, players_hint=words.setup_hint(),
                           fieldsets=setup_fieldsets(games_shelf.load(game).setup_options, words),
                           games=sess.store.games()[:10], has_game=sess.game is not None, **common())


def setup_fieldsets(options: tuple, words) -> list[dict]:
    """The game's setup options in words, those of one group (Atlandice's top tiles) in one
    fieldset, each option a row; an option of no group is a fieldset of its own."""
    sets: list[dict] = []
    for option in options:
        field = words.setup_field(option)
        if field["group"] and sets and sets[-1]["legend"] == field["group"]:
            sets[-1]["rows"].append(field)
        else:
            sets.append({"legend": field["group"] or field["label"], "grouped": bool(field["group"]),
                         "rows": [field]})
    return sets


@bp.get("/profile")
def profile():
    """The profile of the game asked (?game=id), else of the game on the table, else of the
    shelf's first game: web/profile_page.py."""
    if request.args.get("game"):
        return redirect(url_for("profiles.page", game=request.args["game"]), 303)
    sess = game_session()
    return profile_page.page(sess.game.game_id if sess.game is not None else games_shelf.DEFAULT)


@bp.app_context_processor
def _frame() -> dict:
    """What every page's frame names: the game on the table when it is not Atlandice (the
    header, the title), and where the profile of that game is edited."""
    sess = current_app.extensions.get("session")
    game = sess.game.game_id if sess is not None and sess.game is not None else None
    from .step import scripts, stylesheets
    if game in (None, games_shelf.DEFAULT):
        return {"on_table": None, "on_table_profile": profile_page.profile_url(game), "shelf_scripts": scripts(),
                "shelf_styles": stylesheets()}
    names = games_shelf.load(game).names
    return {"on_table": names.get(i18n.current()) or names["en"], "on_table_profile": profile_page.profile_url(game),
            "shelf_scripts": scripts(), "shelf_styles": stylesheets()}


@bp.get("/camera")
def camera():
    return render_template("camera.html", v=table_view(), **common())


@bp.get("/check")
def check_page():
    """Sums a game's rules do without a game, from typed counts: nothing changes (GET form).
    The game's own page (`?game=`, else the first on the shelf with one: web/check.py)."""
    rules = check.with_check(request.args.get("game"))
    words = shelf.words_for(rules.id, i18n.current())
    drawn = rules.check.form(request.args, words)
    status = 400 if drawn["errors"] else 200
    return render_template(rules.check.TEMPLATE, page=words.page, word=words.word, **drawn, **common()), status


# --- pairing -----------------------------------------------------------------------

def has_panel() -> bool:
    """A real button panel (GPIO): off the Pi the panel is mocked, its buttons are on the page."""
    panel = game_session().panel
    return panel is not None and not getattr(panel, "is_mock", False)


def tablets_address() -> str:
    """Where the code is shown with no button panel: /tablets, on the machine the companion runs on."""
    port = request.host.rpartition(":")[2] if ":" in request.host.rpartition("]")[2] else ""
    return f"http://localhost{':' + port if port else ''}{url_for('pages.tablets_page')}"


@bp.get("/pair")
def pair_form():
    return render_template("pair.html", code=request.args.get("code", ""), open=pairing().is_open(),
                           panel=has_panel(), tablets_url=tablets_address(), **common())


@bp.post("/pair")
def pair():
    """The code shown on the panel or /tablets (or set in the configuration) pairs this browser."""
    if request.is_json:
        data = request.get_json(silent=True)
        code = data.get("code") if isinstance(data, dict) else None
    else:
        code = request.form.get("code")
    if not isinstance(code, str) or not code.strip():
        raise ApiError(400, "invalid", said("err_pair_empty"))
    client = request.remote_addr or ""
    wait = pairing().wait(client)
    if wait > 0:
        raise ApiError(429, "pair_wait", said("err_pair_wait", s=math.ceil(wait)),
                       headers={"Retry-After": str(math.ceil(wait))})
    if not pairing().attempt(code, client):
        raise ApiError(403, "bad_code", said("err_pair_wrong") if has_panel()
                       else said("err_pair_wrong_no_panel", url=tablets_address()))
    if security.is_paired():  # pairing again: the old pairing goes, not kept as a second tablet
        tablets().remove(security.paired_tablet())
    session.clear()
    session.permanent = True
    session["device"] = tablets().pair(request.headers.get("User-Agent"), request.remote_addr or "")
    security.csrf_token()
    if request.is_json or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return jsonify({"ok": True, "paired": True})
    return redirect(url_for("pages.table"), 303)


@bp.post("/unpair")
def unpair():
    """Unpair this browser: its tablet is removed, so no copy of its cookie works any more."""
    did = security.paired_tablet()
    if did is not None:
        tablets().remove(did)
    session.pop("device", None)
    if request.is_json or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return jsonify({"ok": True, "paired": False})
    return redirect(url_for("pages.table"), 303)


def _local_only() -> None:
    if request.remote_addr not in ("127.0.0.1", "::1"):
        raise ApiError(403, "not_local", said("err_not_local"))


@bp.get("/tablets")
def tablets_page():
    """The tablets' page, on the machine the companion runs on (loopback only): the pairing code
    and a QR code to scan, and the paired tablets, each of which can be unpaired.

    Whoever looks at this screen stands at the machine, so it opens a pairing window when
    none is open: the code is shown at once (an open window keeps its code on a reload)."""
    _local_only()
    p = pairing()
    if not p.fixed and not p.is_open():
        p.open_window()
    return render_template("tablets.html", code=p.code, open=p.is_open(), fixed=p.fixed,
                           remaining=int(p.remaining()), urls=_public_urls(),
                           tablets=[dict(d, last_seen=_local_time(d["last_seen"]), paired_at=_local_time(d["paired"]))
                                    for d in tablets().listed()], **common())


def _local_time(iso: str) -> str:
    """'2025-03-01T18:04:05+00:00' -> '2025-03-01 15:04' in this machine's time zone."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return str(iso)


@bp.post("/tablets/remove")
def tablets_remove():
    """Unpair one tablet (field `tablet`: its id) or every one (`tablet=all`), at once. The
    field's older name `device` is taken too."""
    _local_only()
    data = request.get_json(silent=True) if request.is_json else request.form
    which = None
    if isinstance(data, dict) or data is request.form:
        which = data.get("tablet", data.get("device"))
    if not isinstance(which, str) or not which:
        raise ApiError(400, "invalid", said("err_tablet_which"))
    removed = tablets().remove(None if which == "all" else which)
    if which != "all" and not removed:
        raise ApiError(404, "not_found", said("err_tablet_unknown"))
    if request.is_json or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return jsonify({"ok": True, "removed": removed})
    return redirect(url_for("pages.tablets_page"), 303)


def _public_urls() -> list[str]:
    """Where a tablet finds this page: the configured addresses, else the one asked for."""
    return list(current_app.config.get("PUBLIC_URLS") or []) or [request.host_url]


@bp.post("/tablets/window")
def tablets_window():
    """Open a pairing window from the machine itself (what holding CONFIRM does)."""
    _local_only()
    pairing().open_window()
    if request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return jsonify({"ok": True})
    return redirect(url_for("pages.tablets_page"), 303)


@bp.get("/tablets/qr.svg")
def tablets_qr():
    """A QR code of the pairing link, for the tablets' page only."""
    _local_only()
    import segno
    # The tablets' page asks on localhost; the tablet needs the machine's network address.
    link = f"{_public_urls()[0].rstrip('/')}/pair?code={pairing().code}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2)
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


# /device was the tablets' page's address: a bookmark of it (or a form of a page opened before)
# is sent on, its method and fields kept (308).
_MOVED = {"": "pages.tablets_page", "remove": "pages.tablets_remove", "window": "pages.tablets_window",
          "qr.svg": "pages.tablets_qr"}


@bp.route("/device", methods=["GET", "POST"])
@bp.route("/device/<rest>", methods=["GET", "POST"])
def device_moved(rest: str = ""):
    if rest not in _MOVED:
        abort(404)
    query = request.query_string.decode("latin-1")
    return redirect(url_for(_MOVED[rest]) + (f"?{query}" if query else ""), 308)
