"""The JSON API (docs/api.md, docs/openapi.json): the page uses it, and so can others.

Reading is open to anyone on the network; every write needs a paired tablet
(see web/security.py). Errors are `{"error": kind, "message": ..., "rule": ...}`.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from companion import games as games_shelf
from companion import json_text, shelf
from companion.record import decode as record_text
from companion.game import ReplayError
from companion.game_profiles import has_profile
from companion.i18n import explain
from companion.games.errors import RuleError
from companion.shelf import words_for
from companion.games.errors import check_meta, illegal
from companion.dice_desk import CAMERA_SOURCES, EmptyTrayRefused
from companion.session import AUTO, StaleVersion

COMPANION_SOURCES = (AUTO, *CAMERA_SOURCES)

from . import check, i18n, security
from .errors import ApiError, from_rule_error, said

bp = Blueprint("api", __name__, url_prefix="/api")

BUTTONS = ("undo", "redo", "confirm", "read")
MAX_NAME = 40      # a player's name, characters


def game_session():
    return current_app.extensions["session"]


def body() -> dict:
    """The request's JSON object, or 400 saying what is wrong with it."""
    data = None
    if request.is_json:
        try:
            data = json_text.loads(request.get_data(cache=True))
        except json_text.JSONTextError as exc:
            raise ApiError(400, "invalid", said(f"err_{exc.key}", **exc.params), key=exc.key,
                           params=exc.params, **({"detail": exc.detail} if exc.detail else {})) from None
    if not isinstance(data, dict):
        raise ApiError(400, "invalid", "send a JSON object (Content-Type: application/json)")
    return data


def optional_version(data: dict) -> int | None:
    version = data.get("version")
    if version is None:
        return None
    if type(version) is not int or version < 0:
        raise ApiError(400, "invalid", "'version' must be the game version the page saw (an integer)")
    return version


def check_version(sess, version: int | None) -> None:
    """Under the session lock: refuse a button pressed against an older state (409)."""
    if version is None:
        return
    if sess.game is None:
        raise illegal("no game in progress: set one up first", key="no_game")
    if version != sess.game.version:
        raise StaleVersion(version, sess.game.version)   # said in the page's language


def optional_prompt(data: dict) -> int | None:
    """The prompt the tap was chosen on (the page's data-prompt: the session's game_changes)."""
    prompt = data.get("prompt")
    if prompt is None:
        return None
    if type(prompt) is not int or prompt < 0:
        raise ApiError(400, "invalid", "'prompt' must be the prompt the page showed (an integer)")
    return prompt


def check_prompt(sess, prompt: int | None) -> None:
    """Under the session lock: refuse a tap chosen on a prompt that has changed since (409).

    The version alone comes back after an UNDO (and a new input makes it the same again);
    the prompt's count never does."""
    if prompt is None or sess.game is None:
        return
    if prompt != sess.game_changes:
        raise StaleVersion(sess.game.version, sess.game.version,
                           "the prompt changed since this page showed it: look again before choosing")


def camera_unavailable(sess) -> ApiError:
    """No picture from the camera: said in the page's language; the camera's own words in `detail`."""
    words = sess.desk.camera_status().get("message") or "camera unavailable"
    refusal = {"message": words, "key": "camera_unavailable"}   # as the session's own refusal says it
    return ApiError(409, "camera_unavailable", explain(refusal, i18n.current()), "R1", detail=words)


def texts(events: list[dict], state: dict | None, lang: str, game_id: str = games_shelf.DEFAULT) -> list[str]:
    if not state:
        return []
    words = words_for(game_id, lang)
    names = words.names(state)
    return [words.event(ev, names) for ev in events]


def outcome(sess, events: list[dict] | None = None, **extra) -> Response:
    lang = i18n.current()
    with sess.lock:
        state = sess.game.state if sess.game else None
        game_id = sess.game.game_id if sess.game else games_shelf.DEFAULT
        data = {"ok": True, "version": sess.game.version if sess.game else None,
                "change_id": sess.change_id, "game_id": sess.game_id}
    if events is not None:
        data["events"] = events
        data["text"] = texts(events, state, lang, game_id)
    data.update(extra)
    return jsonify(data)


# --- reading ---------------------------------------------------------------------

@bp.get("/state")
def state():
    """The whole table: state, the prompt with its legal options, the history in words."""
    sess = game_session()
    snap = sess.snapshot()
    lang = i18n.current()
    if request.args.get("history") == "0":
        snap["history"] = []
    elif snap.get("state"):
        words = words_for(snap["game"], lang)
        names = words.names(snap["state"])
        snap["history"] = [dict(entry, text=[words.event(ev, names) for ev in entry["events"]])
                           for entry in snap["history"]]
    snap["lang"] = lang
    snap["paired"] = security.is_paired()
    return jsonify(snap)


@bp.get("/record")
def record():
    """The game record (JSON Lines, the engine's format); ?download=1 as a file."""
    sess = game_session()
    with sess.lock:
        if sess.game is None:
            raise ApiError(404, "not_found", said("err_no_record"))
        text = sess.game.record.to_jsonl()
        game_id = sess.game_id
    response = Response(text, mimetype="application/x-ndjson")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="atlandice-game-{game_id}.jsonl"'
    return response


@bp.get("/games")
def games():
    """The games kept on the companion, newest first (to resume one), and the shelf: every
    game the companion can keep, its id and its names in each language."""
    return jsonify({"games": game_session().store.games(), "shelf": shelf.listing()})


def _profile_game() -> str:
    """The game whose profile is asked (?game=id; the shelf's first game by default)."""
    game = request.args.get("game", games_shelf.DEFAULT)
    try:
        games_shelf.load(game)
    except RuleError as exc:
        raise from_rule_error(exc, games_shelf.DEFAULT) from None
    if not has_profile(game):
        raise ApiError(404, "not_found", said("err_no_game_profile"))
    return game


@bp.get("/profile")
def profile():
    """The profile the next game of ?game= (the shelf's first game by default) begins with."""
    return jsonify(game_session().profile_of(_profile_game()))


def camera_shown() -> bool:
    """The camera's picture: paired tablets only, unless [web] public_camera opens it."""
    return bool(current_app.config.get("PUBLIC_CAMERA")) or security.is_paired()


@bp.get("/camera.png")
def camera_image():
    if not camera_shown():
        raise ApiError(403, "not_paired", said("err_camera_paired"))
    desk = game_session().desk
    with desk.lock:
        image, name = desk.last_image(), desk.image_id()
    if not image:
        raise ApiError(404, "not_found", said("err_no_image"))
    response = Response(image, mimetype="image/png")
    # asked by its name (?c=, the page's): that picture for good, the tablet keeps it across redraws;
    # asked otherwise, whatever is the last one now
    kept = request.args.get("c") == name
    response.headers["Cache-Control"] = "private, max-age=86400, immutable" if kept else "no-store"
    return response


# --- changing the game (paired tablets only) ----------------------------------------

@bp.post("/input")
@security.paired_required
def submit_input():
    """One input, made against the game version the page saw (`version`): 409 when stale."""
    data = body()
    inp = data.get("input")
    if not isinstance(inp, dict):
        raise ApiError(400, "invalid", "'input' must be one input object (see docs/engine-api.md)")
    version = optional_version(data)
    if version is None:     # null too: it would skip the stale check, and a double tap would count twice
        raise ApiError(400, "invalid", "'version' is required: the game version the input was made against")
    check_meta(inp)         # a note or source too long: 400, nothing recorded
    inp = dict(inp)
    # Only the companion says an input was its own or the camera's (UNDO and the camera's
    # track record count on it): a tablet's input is the tablet's.
    if not isinstance(inp.get("source"), str) or inp["source"] in COMPANION_SOURCES:
        inp["source"] = "tablet"
    prompt = optional_prompt(data)
    sess = game_session()
    with sess.lock:
        check_prompt(sess, prompt)
        events = sess.submit(inp, version)
    return outcome(sess, events)


@bp.post("/<any(undo, redo, confirm, read):button>")
@security.paired_required
def press(button: str):
    """The panel's buttons, on the screen: UNDO, REDO, CONFIRM, READ (`version` optional)."""
    data = body() if request.content_length else {}
    version = optional_version(data)
    prompt = optional_prompt(data)
    sess = game_session()
    shown = data.get("input")
    if button == "confirm" and shown is not None and not isinstance(shown, dict):
        raise ApiError(400, "invalid", "'input' must be the proposal's input the page showed (or left out)")
    with sess.lock:
        check_version(sess, version)
        check_prompt(sess, prompt)
        if button == "undo":
            taken = sess.undo()
            return outcome(sess, undone=taken[0], automatic=taken[1:])
        if button == "redo":
            return outcome(sess, sess.redo())
        if button == "confirm":
            return outcome(sess, sess.confirm(shown))
        at = sess.game_changes  # the step the version was checked at
    reading = sess.desk.read_dice(at=at)  # outside the lock: the camera may take a moment
    if reading is None:
        raise camera_unavailable(sess)
    return outcome(sess, reading=reading)


@bp.post("/dice")
@security.paired_required
def dice():
    """A die of the proposed roll typed or corrected: {"version", "value", "die"?}; or {"version", "clear": true}."""
    data = body()
    version = optional_version(data)
    if version is None:
        raise ApiError(400, "invalid", "'version' is required: the game version the dice were entered at")
    prompt = optional_prompt(data)
    sess = game_session()
    with sess.lock:
        check_prompt(sess, prompt)
        if data.get("clear") is True:
            sess.desk.clear_dice(version)
        else:
            sess.desk.set_die(data.get("value"), data.get("die"), version)
    return outcome(sess, proposal=sess.proposal())


@bp.post("/calibrate")
@security.paired_required
def calibrate():
    """Measure the dice's size on a picture taken now (a few dice in the tray), save it, use it."""
    sess = game_session()
    try:
        info = sess.desk.calibrate()
    except ValueError as exc:  # no die could be read on the picture
        raise ApiError(409, "calibration_failed", said("err_calibration_failed"), detail=str(exc)) from None
    if info is None:
        raise camera_unavailable(sess)
    return jsonify({"ok": True, "calibration": info})


@bp.post("/empty-tray")
@security.paired_required
def empty_tray():
    """Save a picture taken now as the empty tray: what lies there the same is never read as a
    die. {"printing": true} saves it though the reader sees dice there (the tray's printing)."""
    data = body() if request.content_length else {}
    sess = game_session()
    try:
        info = sess.desk.save_empty_tray(printing=data.get("printing") is True)
    except EmptyTrayRefused as exc:
        raise ApiError(409, exc.key, said(f"err_empty_tray_{exc.key}", n=exc.dice), dice=exc.dice) from None
    if info is None:
        raise camera_unavailable(sess)
    return jsonify({"ok": True, "calibration": info})


@bp.post("/game")
@security.paired_required
def new_game():
    """A new game: {"game": id (default: the shelf's first game), "players": [names in seat order],
    "first_player": seat, and the game's own setup options (Rules.setup_keys)}."""
    data = body()
    game_id = data.get("game", games_shelf.DEFAULT)
    try:
        rules = games_shelf.load(game_id)
    except RuleError as exc:
        raise from_rule_error(exc, games_shelf.DEFAULT) from None
    setup = {k: data[k] for k in rules.setup_keys if k in data}
    players = setup.get("players")
    # The page's fields take 24; the check page's 40. Here, not in the rules: a record
    # saved with a longer name must still replay.
    if isinstance(players, list) and any(isinstance(p, str) and len(p.strip()) > MAX_NAME for p in players):
        raise ApiError(400, "invalid", said("err_name_long", max=MAX_NAME))
    sess = game_session()
    try:
        sess.new_game(setup, game=game_id)
    except ReplayError as exc:  # a setup the rules refuse: say why, not "line 1"
        raise from_rule_error(exc.error, game_id) from None
    return outcome(sess), 201


@bp.post("/resume")
@security.paired_required
def resume():
    data = body() if request.content_length else {}
    game_id = data.get("game_id")
    if game_id is not None and (type(game_id) is not int or game_id < 1):
        raise ApiError(400, "invalid", "'game_id' must be a stored game's id")
    sess = game_session()
    try:
        found = sess.resume(game_id) if game_id is not None else sess.resume()
    except KeyError:
        raise ApiError(404, "not_found", said("err_no_stored_game", game_id=game_id)) from None
    except ReplayError as exc:     # the game in use is kept
        raise ApiError(409, "unreadable", said("err_unreadable"), detail=str(exc)) from None
    if not found:
        raise ApiError(404, "not_found", said("err_no_unfinished"))
    return outcome(sess)


@bp.post("/record")
@security.paired_required
def load_record():
    """A game record (JSON Lines) becomes the current game: text body, or {"record": text}."""
    if request.is_json:
        text = body().get("record")
        if not isinstance(text, str):
            raise ApiError(400, "invalid", said("err_record_text"))
    else:
        text = record_text(request.get_data())     # not UTF-8: a 400 naming the line
    sess = game_session()
    sess.load_record(text)
    return outcome(sess), 201


@bp.post("/profile")
@security.paired_required
def set_profile():
    """A game's profile (?game=, the shelf's first game by default), whole, as JSON: checked by
    the game (RuleError -> 400), saved, used from its next game."""
    game = _profile_game()
    game_session().set_profile(body(), game)
    return jsonify(game_session().profile_of(game))


# --- the check page's sums (no game needed, nothing changes) -------------------------

@bp.post("/check/payout")
def check_payout():
    """{"counts": {name: n, ...}, "taker": name or null} -> the empty-District payout and why
    (the check of the game `?game=` names, else the first on the shelf with one)."""
    data = body()
    return jsonify(check.payout(request.args.get("game"), data.get("counts"), data.get("taker"), i18n.current()))


@bp.post("/check/final")
def check_final():
    """{"players": [{"name", "stock": {r: n}, "tiles": n, "tokens": n}], "neutral": bool, "depleted": [r]}."""
    data = body()
    return jsonify(check.final(request.args.get("game"), data.get("players"), data.get("neutral", False),
                               data.get("depleted"), i18n.current()))
