"""Errors as values with reasons: every refusal is `{"error": kind, "message": ..., "rule": ...}`.

    400 invalid / bad_request / bad_host / record   the request is not understood
    403 not_paired / csrf                            not allowed from this device or page
    404 not_found, 405 method_not_allowed
    409 stale (another tablet got there first) / illegal (not allowed now) / unreadable (a stored
        game that cannot be read or replayed: which line and why)
    413 too_large, 429 pair_wait (too many wrong pairing codes from this client)
    503 busy (too many live streams; Retry-After says when to try again)
    507 storage (the disk is full) / 503 storage (the games file cannot be written or is damaged;
        a profile file cannot be written): nothing was recorded; the message says which file
        and what to do

API paths (/api/...) always answer JSON; pages answer a short HTML page
unless the client asks for JSON.
"""

from __future__ import annotations

from flask import jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException

from companion.game import ReplayError
from companion.i18n import catalog, explain
from companion.record import RecordError
from companion.games.errors import RuleError
from companion.session import StaleVersion
from companion.store import StoreError, UnreadableRow

from . import i18n, view
from .view import ui


class ApiError(Exception):
    def __init__(self, status: int, kind: str, message: str, rule: str | None = None,
                 headers: dict | None = None, **extra):
        super().__init__(message)
        self.headers = headers or {}
        self.status = status
        self.kind = kind
        self.message = message
        self.rule = rule
        self.extra = extra

    def to_dict(self) -> dict:
        return {"error": self.kind, "message": self.message, "rule": self.rule, **self.extra}


_HTTP_KINDS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large",
               415: "unsupported_media_type", 503: "busy"}


def said(key: str, **params) -> str:
    """The page's text `key` ("ui" of the catalogs) in the page's language."""
    return ui(i18n.current(), key, **params)


def from_rule_error(exc: RuleError, game_id: str | None = None) -> ApiError:
    """The refusal in the page's language, in the words of its game (default: the game on the
    table); `key` and `params` let other clients say it their way."""
    status = 400 if exc.kind == "invalid" else 409
    extra = {"key": exc.key, "params": exc.params} if exc.key else {}
    words = view.game_words(game_id, i18n.current())
    return ApiError(status, exc.kind, words.refusal(exc.to_dict(), _seat_names(words, game_id))
                    if exc.key else exc.message, exc.rule, **extra)


def _seat_names(words, game_id: str | None) -> list[str]:
    """The table's seat names, when the refusal is in the words of the game on the table: another
    game's words cannot read its state (Atlandice's would look for a Neutral player in Survive's)."""
    from flask import current_app
    table = current_app.extensions["session"].game
    if table is None or (game_id is not None and game_id != table.game_id):
        return []
    return words.names(table.state)


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.path == "/api":
        return True
    if request.is_json or request.headers.get("X-Requested-With") == "XMLHttpRequest":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def respond(err: ApiError):
    if wants_json():
        response = make_response(jsonify(err.to_dict()), err.status)
    else:
        response = make_response(render_template("error.html", error=err), err.status)
    response.headers.update(err.headers)
    return response


def init_app(app) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return respond(exc)

    @app.errorhandler(RuleError)
    def _rule_error(exc: RuleError):
        return respond(from_rule_error(exc))

    @app.errorhandler(StaleVersion)
    def _stale(exc: StaleVersion):
        return respond(ApiError(409, "stale", explain(exc.to_dict(), i18n.current()), None, version=exc.current,
                                key="stale", params=exc.to_dict()["params"]))

    @app.errorhandler(RecordError)
    def _record(exc: RecordError):
        why = said(f"err_{exc.key}", **exc.params)
        extra = {"detail": exc.detail} if exc.detail else {}
        return respond(ApiError(400, "record", said("err_record_line", line=exc.line, why=why), None,
                                line=exc.line, key=exc.key, params=exc.params, **extra))

    @app.errorhandler(UnreadableRow)
    def _unreadable(exc: UnreadableRow):
        # A stored game's row that is no record's line: that game cannot be opened or resumed
        # (409, which line and why); the game on the table and the other games are untouched.
        why = said("err_record_line", line=exc.line, why=said(f"err_{exc.key}", **exc.params))
        return respond(ApiError(409, "unreadable", said("err_stored_unreadable", id=exc.game_id, why=why),
                                None, line=exc.line, key=exc.key, params=exc.params, detail=str(exc)))

    @app.errorhandler(ReplayError)
    def _replay(exc: ReplayError):
        refusal = from_rule_error(exc.error)
        if not exc.error.key:      # a line no page makes (an unknown input type, a die of 7)
            refusal.message, refusal.extra = said("err_record_refused"), {"detail": exc.error.message}
        return respond(ApiError(400, "record", said("err_record_line", line=exc.line, why=refusal.message),
                                refusal.rule, line=exc.line, **refusal.extra))

    @app.errorhandler(StoreError)
    def _storage(exc: StoreError):
        data = exc.to_dict()
        return respond(ApiError(507 if exc.full else 503, "storage", explain(data, i18n.current()),
                                None, key=exc.key, params=data["params"], detail=exc.detail))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        kind = _HTTP_KINDS.get(exc.code or 500, "error")
        # Werkzeug's own words are English: the common ones are said in the page's language.
        message = catalog(i18n.current())["ui"].get(f"http_{exc.code}") or exc.description or exc.name
        response = respond(ApiError(exc.code or 500, kind, message))
        if exc.code == 405 and getattr(exc, "valid_methods", None):
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response
