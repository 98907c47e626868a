"""The camera page, and the table beside READ, say what the camera's last error was and when."""

import time

import pytest

from companion.game_profiles import load_profile
from companion.session import Session
from companion.store import GameStore
from hardware.folder_camera import ImageFolderCamera
from hardware.supervisor import CameraSupervisor
from web import create_app

from .conftest import CODE, SETUP, post
from .fakes import annotate, encode_png, reader


@pytest.fixture
def unreadable(tmp_path):
    """A companion whose camera folder holds only a picture that cannot be decoded."""
    folder = tmp_path / "camera"
    folder.mkdir()
    (folder / "03-roll.jpg").write_bytes(b"\xff\xd8\xff\xe0 not a picture")
    camera = CameraSupervisor(ImageFolderCamera(folder), retry_initial=0.01, retry_max=0.02).start()
    assert camera.wait_for_status("ok", 3)
    store = GameStore(tmp_path / "g.sqlite3")
    session = Session(store, load_profile(), camera=camera, reader=reader, annotate=annotate, encode_png=encode_png)
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"}, session=session)
    c = app.test_client()
    post(c, "/pair", {"code": CODE})
    post(c, "/api/game", SETUP)
    yield c
    camera.stop()
    store.close()


def test_the_last_camera_error_is_shown_with_its_time(unreadable):
    r = post(unreadable, "/api/read", {"version": 0})
    assert r.status_code == 409 and r.json["rule"] == "R1"
    camera = unreadable.get("/api/state").json["camera"]
    assert camera["status"] == "not_reading" and "03-roll.jpg" in camera["error"]
    shown = time.strftime("%H:%M", time.localtime(camera["error_at"]))
    page = unreadable.get("/camera").get_data(as_text=True)
    assert "Camera not reading" in page and "last camera error, at " + shown in page
    assert "03-roll.jpg is cut short" in page
    table = unreadable.get("/").get_data(as_text=True)
    assert 'id="camera-error"' in table and "03-roll.jpg is cut short" in table
    assert 'data-button="read" data-key="r" aria-keyshortcuts="R">' in table, "READ may try the next picture"
    page = unreadable.get("/camera?lang=pt-BR").get_data(as_text=True)
    assert "Câmera sem leitura" in page and "último erro da câmera, às " + shown in page


def test_the_status_stays_not_reading_while_read_fails(unreadable):
    seen = set()
    for _ in range(6):
        post(unreadable, "/api/read", {"version": 0})
        seen.add(unreadable.get("/api/state").json["camera"]["status"])
        time.sleep(0.05)  # the supervisor's back-off (0.01-0.02 s) passes: closed, re-opened
    assert seen == {"not_reading"}, "it once flipped between 'Camera ready' and 'No camera'"
