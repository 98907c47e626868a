"""Fixtures for the tablet page: an `app` on a temporary SQLite game store, its `client`.

Like the Flask tutorial: `app` builds the application with a test config and
an injected session (no camera); `client` is its test client; `paired` is a
client that has paired with the code set in the config.
"""

from __future__ import annotations

import pytest

from companion.game_profiles import load_profile
from companion.game_profiles import GameProfiles
from companion.session import Session
from companion.store import GameStore
from web import create_app

CODE = "246810"
XHR = {"X-Requested-With": "XMLHttpRequest"}
SETUP = {"players": ["Anna", "Bruno", "Eric"], "first_player": 0,
         "tops": {"jeweller": "J-odd", "library": "L-high", "inn": "I-clock", "works": "E1",
                  "blacksmith": "B-even"}}


@pytest.fixture
def game_session(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    yield Session(store, profiles=GameProfiles(tmp_path / "calibration", {"atlandice": tmp_path / "profile.toml"}))
    store.close()


@pytest.fixture
def app(tmp_path, game_session):
    return create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "instance",
                       "SSE_HEARTBEAT": 0.2}, session=game_session)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def paired(app):
    c = app.test_client()
    r = c.post("/pair", json={"code": CODE}, headers=XHR)
    assert r.status_code == 200, r.json
    return c


def post(client, url, data=None, **kw):
    """A POST as the page sends it (JSON, X-Requested-With)."""
    headers = dict(XHR, **kw.pop("headers", {}))
    return client.post(url, json=data, headers=headers, **kw)


def play(game_session, inputs):
    for inp in inputs:
        game_session.submit(inp, game_session.game.version)
