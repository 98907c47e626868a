"""The history (every game kept, with names and dates), both exports and the camera's picture
are for paired tablets by default; [web] public_history / public_camera open them (hardening
item 10). Watching the live table needs no pairing either way."""

from __future__ import annotations

import pytest

from companion.config import load_config

from .conftest import SETUP, XHR

HISTORY = ["/games", "/games/1", "/games/1/record.jsonl", "/games/games.csv", "/games/export.zip", "/players",
           "/dice"]


@pytest.fixture
def kept(game_session):
    game_session.new_game(dict(SETUP, players=["Ana", "Bruno", "Eric"]))
    return game_session


def test_unpaired_clients_cannot_read_the_history_or_the_exports(client, paired, kept):
    for url in HISTORY:
        r = client.get(url + "?lang=en")
        assert r.status_code == 403, url
        page = r.get_data(as_text=True)
        assert "paired tablets only" in page and "Ana" not in page, url
        r = client.get(url + "?lang=pt-BR", headers=XHR)
        assert r.status_code == 403 and r.json["error"] == "not_paired"
        assert "tablets pareados" in r.json["message"]
        assert paired.get(url).status_code == 200, url
    # the live table: anyone may watch
    assert client.get("/").status_code == 200 and client.get("/api/state").status_code == 200


def test_the_camera_picture_is_for_paired_tablets(client, paired, kept, monkeypatch):
    monkeypatch.setattr(kept.desk, "last_image", lambda: b"\x89PNG")
    r = client.get("/api/camera.png", headers=XHR)
    assert r.status_code == 403 and r.json["error"] == "not_paired"
    assert paired.get("/api/camera.png").status_code == 200
    assert "/api/camera.png" not in client.get("/camera").get_data(as_text=True)
    assert "shown to paired tablets only" in client.get("/camera?lang=en").get_data(as_text=True)
    assert "/api/camera.png" not in client.get("/live").get_data(as_text=True)
    assert "/api/camera.png" in paired.get("/camera").get_data(as_text=True)


def test_settings_open_them(app, client, kept, monkeypatch, tmp_path):
    cfg = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_WEB_PUBLIC_HISTORY": "true",
                                 "ATLANDICE_WEB_PUBLIC_CAMERA": "true"})
    assert cfg.web.public_history is True and cfg.web.public_camera is True
    default = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path)})
    assert default.web.public_history is False and default.web.public_camera is False
    app.config.update(PUBLIC_HISTORY=cfg.web.public_history, PUBLIC_CAMERA=cfg.web.public_camera)
    for url in HISTORY:
        assert client.get(url).status_code == 200, url
    monkeypatch.setattr(kept.desk, "last_image", lambda: b"\x89PNG")
    assert client.get("/api/camera.png").status_code == 200
