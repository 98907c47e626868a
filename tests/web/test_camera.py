"""The last dice reading: the image, each value, unsure dice marked, proposed and editable."""

import shutil
import threading

import pytest

from companion.game_profiles import load_profile
from companion.session import Session
from companion.store import GameStore
from web import create_app

from .conftest import CODE, SETUP, XHR, post
from .fakes import FakeCamera, Status, annotate, encode_png, reader

UNSURE = [1, 2, None, 4, 5, 6, 2]
SURE = [1, 2, 3, 4, 5, 6, 2]


@pytest.fixture
def camera_session(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    camera = FakeCamera([UNSURE, SURE])
    yield Session(store, load_profile(), camera=camera, reader=reader, annotate=annotate, encode_png=encode_png)
    store.close()


@pytest.fixture
def cam(tmp_path, camera_session):
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"},
                     session=camera_session)
    c = app.test_client()
    post(c, "/pair", {"code": CODE})
    post(c, "/api/game", SETUP)
    return c


def test_read_shows_the_reading_with_unsure_dice_marked(cam, camera_session):
    r = post(cam, "/api/read", {"version": 0})
    assert r.status_code == 200 and r.json["reading"]["unsure"] == 1
    state = cam.get("/api/state").json
    assert state["proposal"]["source"] == "camera" and state["proposal"]["problem"]
    page = cam.get("/").get_data(as_text=True)
    assert 'class="read-die unsure"' in page and "1 die unsure" in page
    assert "/api/camera.png" in page
    assert cam.get("/api/camera.png").data.startswith(b"\x89PNG")
    # The dice entry is prefilled with the reading, to be corrected before it is entered.
    assert 'data-proposal="{&#34;type&#34;:&#34;gate_roll&#34;,&#34;dice&#34;:[1,2,null,4,5,6,2]' in page
    # CONFIRM refuses a reading with unsure dice (R1: a roll is never invented).
    r = post(cam, "/api/confirm", {"version": 0})
    assert r.status_code == 409 and r.json["rule"] == "R1"
    assert camera_session.game.version == 0


def test_the_picture_keeps_its_address_until_it_is_another_and_the_tablet_keeps_its_copy(cam, camera_session):
    """Redrawn for anything but a new picture, the page asks the same address, which the tablet may
    keep; a new READ's picture has another; an address not the last picture's is never kept."""
    import re

    def src():
        return re.search(r'src="(/api/camera\.png[^"]*)"', cam.get("/").get_data(as_text=True)).group(1)

    post(cam, "/api/read", {"version": 0})
    first = src()
    camera_session.notify()                       # the table redrawn: a camera status, a tablet joining
    assert src() == first
    r = cam.get(first.replace("&amp;", "&"))
    assert r.status_code == 200 and "immutable" in r.headers["Cache-Control"]
    post(cam, "/api/read", {"version": 0})
    second = src()
    assert second != first
    stale = cam.get(first.replace("&amp;", "&"))    # the old address: today's picture, never kept
    assert stale.data == cam.get(second).data and stale.headers["Cache-Control"] == "no-store"
    assert cam.get("/api/camera.png").headers["Cache-Control"] == "no-store"


def test_a_clean_reading_is_confirmed(cam, camera_session):
    post(cam, "/api/read", {"version": 0})
    post(cam, "/api/read", {"version": 0})
    r = post(cam, "/api/confirm", {"version": 0})
    assert r.status_code == 200 and r.json["version"] == 1
    assert camera_session.game.record.inputs[0] == {"type": "gate_roll", "dice": SURE, "source": "camera"}


def test_the_camera_page(cam):
    post(cam, "/api/read", {"version": 0})
    page = cam.get("/camera").get_data(as_text=True)
    assert "Camera ready" in page and 'class="camera-img large"' in page
    assert "an earlier step" not in page
    # The camera's own words (English) only when something is wrong: once "Câmera pronta: camera ready".
    pt = cam.get("/camera?lang=pt-BR").get_data(as_text=True)
    assert "Câmera pronta" in pt and "camera ready" not in pt.lower().replace("câmera pronta", "")


class FakeCalibration:
    """Stands in for calibration.camera.CalibratedReader: fails on the first picture, then calibrates."""

    def __init__(self):
        self.calls = 0
        self.done = False

    def calibrate(self, frame):
        self.calls += 1
        if self.calls == 1:
            raise ValueError("calibration: no die could be read on this frame")
        self.done = True
        return self.status()

    def status(self):
        return {"calibrated": self.done, "die_px": 64.0 if self.done else None, "tray": None,
                "file": "camera.toml", "problem": None}


def test_calibration_from_the_camera_page(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    calibration = FakeCalibration()
    session = Session(store, load_profile(), camera=FakeCamera([SURE]), reader=reader, annotate=annotate,
                      encode_png=encode_png, calibration=calibration)
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"}, session=session)
    c = app.test_client()
    assert post(c, "/api/calibrate", {}).status_code == 403          # a watcher cannot calibrate
    post(c, "/pair", {"code": CODE})
    assert b"Not calibrated" in c.get("/camera").data
    r = post(c, "/api/calibrate", {})
    assert r.status_code == 409 and r.json["error"] == "calibration_failed" and "no die" in r.json["detail"]
    assert r.json["message"].startswith("No die could be read on the picture")
    r = post(c, "/api/calibrate", {})
    assert r.status_code == 200 and r.json["calibration"]["die_px"] == 64.0
    assert b"about 64.0 pixels" in c.get("/camera").data
    store.close()


def test_calibration_without_a_camera_is_refused(tmp_path):
    store = GameStore(tmp_path / "g.sqlite3")
    session = Session(store, load_profile(), calibration=FakeCalibration())
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"}, session=session)
    c = app.test_client()
    post(c, "/pair", {"code": CODE})
    r = post(c, "/api/calibrate", {})
    assert r.status_code == 409 and r.json["error"] == "camera_unavailable"
    store.close()


@pytest.mark.parametrize("state, read", [("starting", True), ("unavailable", False)])
def test_a_camera_still_starting_is_asked_for_a_picture(tmp_path, state, read):
    # Pressing "read" in the first second after launch must wait for the camera, not refuse.
    store = GameStore(tmp_path / "g.sqlite3")
    camera = FakeCamera([SURE])
    camera.status = Status(False, state)
    session = Session(store, load_profile(), camera=camera, reader=reader, annotate=annotate,
                      encode_png=encode_png)
    reading = session.desk.read_dice()
    assert (reading is not None and reading["values"] == SURE) is read
    assert (reading is None) is not read
    store.close()


@pytest.mark.parametrize("meanwhile", ["input", "undo", "new_game"])
def test_a_reading_that_ends_after_the_game_moved_on_is_not_proposed(tmp_path, meanwhile):
    # READ pressed, then the step typed in by hand while the reader was still busy (a slow
    # first reading): those dice were for the step already entered, not for the next one.
    store = GameStore(tmp_path / "g.sqlite3")
    started, release = threading.Event(), threading.Event()

    def slow_reader(frame):
        started.set()
        assert release.wait(10)
        return reader(frame)

    session = Session(store, load_profile(), camera=FakeCamera([SURE]), reader=slow_reader,
                      annotate=annotate, encode_png=encode_png)
    session.new_game(SETUP)
    result = []
    pressed = threading.Thread(target=lambda: result.append(session.desk.read_dice()))
    pressed.start()
    assert started.wait(10)
    if meanwhile == "input":
        session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
        session.submit({"type": "pick", "area": "library"})    # its Book is the only one: entered with it
        assert session.game.expected()["kind"] == "roll"
    elif meanwhile == "undo":   # back at version 0, but by a roll entered and taken back
        session.submit({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]})
        session.undo()
        assert session.game.version == 0
    else:
        session.new_game(SETUP)
    release.set()
    pressed.join(10)
    assert result[0]["values"] == SURE   # the picture is still shown...
    assert session.proposal() is None           # ...but nothing is proposed from it
    assert session.snapshot()["reading"]["current"] is False
    c = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"},
                   session=session).test_client()
    post(c, "/pair", {"code": CODE})
    assert "an earlier step" in c.get("/camera").get_data(as_text=True)   # ...and says why
    assert 'id="reading"' not in c.get("/").get_data(as_text=True)
    store.close()


@pytest.mark.parametrize("lang, says", [("en", b"nets taught on this table"), ("pt-BR", "redes ensinadas".encode())])
def test_the_camera_page_says_when_the_reader_uses_taught_nets(tmp_path, lang, says):
    from calibration.camera import CalibratedReader, install_nets
    from vision import nets
    from vision.settings import MODELS

    store = GameStore(tmp_path / "g.sqlite3")
    cal = tmp_path / "calibration"
    calibration = CalibratedReader(cal / "camera.toml")
    session = Session(store, load_profile(), camera=FakeCamera([SURE]), reader=reader, annotate=annotate,
                      encode_png=encode_png, calibration=calibration)
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"}, session=session)
    c = app.test_client()
    post(c, "/pair", {"code": CODE})
    assert says not in c.get(f"/camera?lang={lang}").data
    (tmp_path / "taught").mkdir()
    for name in nets.NETS:
        shutil.copyfile(f"{MODELS}/{name}", tmp_path / "taught" / name)
    install_nets(cal, tmp_path / "taught")
    session.desk.calibration = CalibratedReader(cal / "camera.toml")         # as at the companion's next start
    assert says in c.get(f"/camera?lang={lang}").data
    store.close()
