"""The tablet page: a Flask application that shows the table and takes every choice.

    app = create_app({"ALLOWED_HOSTS": ["pi.lan"]}, session=session)

`session` is a companion.session.Session (the tests build one on a temporary
SQLite file); without one the app makes an in-memory session of its own.

Config keys read (all optional):
    ALLOWED_HOSTS      extra Host names the page answers to (DNS rebinding guard)
    PAIRING_CODE       a fixed pairing code; None/"" = a fresh code per pairing window
    PAIRING_WINDOW     seconds a pairing window stays open (default 120)
    SECRET_KEY         signs the session cookie; generated once and kept in the instance folder
    INSTANCE_PATH      where the secret key is kept (default: Flask's instance folder)
    SSE_HEARTBEAT      seconds between heartbeat comments on /api/events (default 15)
    SSE_MAX_STREAMS    live streams at once (default 12; [web] live_streams; one server thread
                       each); beyond: 503, but a paired tablet gets one while any slot is a
                       watcher's or a tablet's second (web/stream.py)
    SSE_STREAM_BYTES   a stream ends after sending this many bytes (default 2 MB) and its page
                       comes back at once with Last-Event-ID (nothing missed)
    PUBLIC_HISTORY     unpaired clients may read the history and both exports (default False)
    PUBLIC_CAMERA      unpaired clients may see the camera's picture (default False)
    SSE_WATCHER_LIFETIME  seconds a watcher's (unpaired) stream lasts before its browser reconnects (300)
    MAX_CONTENT_LENGTH request body limit in bytes (default 1 MiB)
    LANGUAGE           the default language when the browser asks for none we have

Debug mode is never on, whatever the configuration says.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from companion import json_text

from .cookie import TabletCookie
from .tablets import PairedTablets
from .pairing import Pairing

DEFAULTS = {
    "ALLOWED_HOSTS": [],
    # The addresses a tablet can open (companion serve passes the machine's own IPv4 ones:
    # ".local" names fail on many Android tablets). Empty: the address the page was asked by.
    "PUBLIC_URLS": [],
    "PAIRING_CODE": None,
    "PAIRING_WINDOW": 120.0,
    "SSE_HEARTBEAT": 15.0,
    "SSE_MAX_STREAMS": 12,
    "SSE_STREAM_BYTES": 2 * 1024 * 1024,
    "PUBLIC_HISTORY": False,
    "PUBLIC_CAMERA": False,
    "SSE_WATCHER_LIFETIME": 300.0,
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    "LANGUAGE": "en",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_NAME": "companion",
    "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 365,
}


class _JSON(DefaultJSONProvider):
    """Flask's JSON, read as the companion reads a record (companion/json_text.py): a lone
    surrogate, a number too large or a body nested too deep is a bad request (a ValueError,
    as any malformed JSON), never a 500."""

    def loads(self, s, **kwargs):
        return json_text.loads(s)


def _default_session():
    from companion.session import Session
    from companion.store import GameStore
    return Session(GameStore(":memory:"))


def _secret_key(instance: Path) -> str:
    """The key that signs cookies: made once, kept (0600) so paired tablets stay paired."""
    path = instance / "secret_key"
    try:
        key = path.read_text(encoding="utf-8").strip()
        if len(key) >= 32:
            return key
    except OSError:
        pass
    key = secrets.token_hex(32)
    try:
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(key)
    except OSError:
        pass  # a read-only instance folder: the key lasts as long as the process
    return key


def create_app(test_config: dict | None = None, session=None) -> Flask:
    config = dict(test_config or {})
    instance = config.pop("INSTANCE_PATH", None)
    app = Flask(__name__, instance_path=str(instance) if instance else None,
                instance_relative_config=True)
    app.json = _JSON(app)
    app.session_interface = TabletCookie()
    app.config.from_mapping(DEFAULTS)
    app.json.sort_keys = False  # the state keeps its order: seats, resources, Areas
    app.config.update(config)
    # Never debug: the Werkzeug debugger would run code for anyone on the network.
    app.config["DEBUG"] = False
    app.debug = False
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    from . import security
    app.extensions["allowed_hosts"] = security.machine_names() | {
        h.strip().lower().rstrip(".") for h in (app.config.get("ALLOWED_HOSTS") or []) if h and h.strip()}
    app.extensions["pairing"] = Pairing(app.config.get("PAIRING_CODE") or None,
                                        window=float(app.config["PAIRING_WINDOW"]))
    app.extensions["session"] = session if session is not None else _default_session()
    app.extensions["tablets"] = PairedTablets(app.extensions["session"].store)

    from . import api, errors, i18n, pages, profile_page, stream
    errors.init_app(app)
    i18n.init_app(app)

    @app.before_request
    def _guard():
        security.check_host()
        security.check_csrf()

    @app.after_request
    def _headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
        return response

    app.register_blueprint(pages.bp)
    app.register_blueprint(profile_page.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    from . import history
    history.init_app(app)
    from jinja2 import ChoiceLoader
    from . import step
    app.register_blueprint(step.bp)
    app.jinja_loader = ChoiceLoader([app.jinja_loader, step.loader()])
    return app
