"""The camera page's "Save the empty tray": paired tablets only, refused without a calibration or
with dice in the tray, in the page's language."""

import pytest

from companion.game_profiles import load_profile
from companion.session import Session
from companion.store import GameStore
from web import create_app

from .conftest import CODE, post
from .fakes import FakeCamera, annotate, encode_png, reader

EMPTY = []              # the fake camera's frames are the dice values the fake reader reads
TWO_DICE = [3, 5]


class FakeCalibration:
    """Stands in for calibration.camera.CalibratedReader: the dice it sees are the frame's values."""

    def __init__(self, calibrated=True):
        self.calibrated = calibrated
        self.saved = []

    def dice_seen(self, frame):
        return sum(v is not None for v in frame)

    def save_empty_tray(self, frame):
        self.saved.append(frame)
        return {**self.status(), "ignored": len(frame), "valued": self.dice_seen(frame)}

    def status(self):
        return {"calibrated": self.calibrated, "die_px": 64.0 if self.calibrated else None, "tray": None,
                "file": "camera.toml", "problem": None, "empty_tray": bool(self.saved)}


def client(tmp_path, calibration, frames=(EMPTY,), camera=True, paired=True):
    store = GameStore(tmp_path / "g.sqlite3")
    session = Session(store, load_profile(), camera=FakeCamera(list(frames)) if camera else None, reader=reader,
                      annotate=annotate, encode_png=encode_png, calibration=calibration)
    app = create_app({"TESTING": True, "PAIRING_CODE": CODE, "INSTANCE_PATH": tmp_path / "i"}, session=session)
    c = app.test_client()
    if paired:
        post(c, "/pair", {"code": CODE})
    return c, store


def test_a_paired_tablet_saves_the_empty_tray_from_the_camera_page(tmp_path):
    calibration = FakeCalibration()
    c, store = client(tmp_path, calibration)
    page = c.get("/camera").get_data(as_text=True)
    assert "No empty tray saved." in page and 'data-button="empty-tray"' in page
    assert 'data-button="empty-tray" data-reload="1">' in page                # not disabled
    r = post(c, "/api/empty-tray", {})
    assert r.status_code == 200 and r.json["calibration"]["empty_tray"] is True
    assert calibration.saved == [EMPTY]
    assert "An empty tray is saved" in c.get("/camera").get_data(as_text=True)
    assert "Uma bandeja vazia está salva" in c.get("/camera?lang=pt-BR").get_data(as_text=True)
    store.close()


def test_a_watcher_cannot_save_it(tmp_path):
    calibration = FakeCalibration()
    c, store = client(tmp_path, calibration, paired=False)
    assert post(c, "/api/empty-tray", {}).status_code == 403
    assert calibration.saved == []
    store.close()


@pytest.mark.parametrize("lang, says", [("en", "Calibrate first"), ("pt-BR", "Calibre primeiro")])
def test_refused_without_a_calibration(tmp_path, lang, says):
    calibration = FakeCalibration(calibrated=False)
    c, store = client(tmp_path, calibration)
    assert 'data-button="empty-tray" data-reload="1" disabled' in c.get("/camera").get_data(as_text=True)
    r = post(c, f"/api/empty-tray?lang={lang}", {})
    assert r.status_code == 409 and r.json["error"] == "not_calibrated"
    assert r.json["message"].startswith(says)
    assert calibration.saved == []
    store.close()


@pytest.mark.parametrize("lang, says", [("en", "The reader sees 2 dice in the tray"),
                                        ("pt-BR", "O leitor vê 2 dados na bandeja")])
def test_refused_with_dice_in_the_tray_unless_they_are_printing(tmp_path, lang, says):
    calibration = FakeCalibration()
    c, store = client(tmp_path, calibration, frames=[TWO_DICE])
    r = post(c, f"/api/empty-tray?lang={lang}", {})
    assert r.status_code == 409 and r.json["error"] == "dice_in_tray" and r.json["dice"] == 2
    assert r.json["message"].startswith(says)
    assert calibration.saved == []
    # the table says what the reader sees is the tray's printing: saved, left out from then on
    r = post(c, "/api/empty-tray", {"printing": True})
    assert r.status_code == 200 and calibration.saved == [TWO_DICE]
    store.close()


def test_refused_without_a_camera(tmp_path):
    calibration = FakeCalibration()
    c, store = client(tmp_path, calibration, camera=False)
    r = post(c, "/api/empty-tray", {})
    assert r.status_code == 409 and r.json["error"] == "camera_unavailable"
    assert calibration.saved == []
    store.close()


def test_the_companions_reader_refuses_a_tray_with_dice_and_saves_an_empty_one(tmp_path):
    import numpy as np

    from calibration.camera import CalibratedReader
    from vision.render import render_scene

    dice, _ = render_scene([2, 4, 6], seed=5)
    empty = np.full_like(dice, 0)
    empty[:] = dice[:8, :8].reshape(-1, 3).mean(0).astype(np.uint8)       # the tray's cloth, no die
    calibration = CalibratedReader(tmp_path / "calibration" / "camera.toml")
    c, store = client(tmp_path, calibration, frames=[dice, dice, empty])
    assert post(c, "/api/empty-tray", {}).json["error"] == "not_calibrated"
    assert post(c, "/api/calibrate", {}).status_code == 200
    r = post(c, "/api/empty-tray", {})
    assert r.status_code == 409 and r.json["dice"] == 3
    assert not (tmp_path / "calibration" / "empty_tray.png").exists()
    r = post(c, "/api/empty-tray", {})
    assert r.status_code == 200 and r.json["calibration"]["empty_tray"] is True
    assert (tmp_path / "calibration" / "empty_tray.png").is_file()
    store.close()
