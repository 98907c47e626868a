"""Profile files on a disk that refuses them: both profile routes (the board profile's
/api/profile, a shelf game's /profile/<game>) answer 507 (full) or 503 (read-only, failing)
naming the file, as an input does, and nothing changes; a saved profile is written atomically
(synced, renamed, the folder synced); an empty or damaged one never stops the start."""

from __future__ import annotations

import errno
import os

import pytest

from companion.app import build
from companion.game_profiles import load_profile, save_profile
from companion.config import load_config
from companion.shelf import default_profile

from .conftest import XHR, post
from .test_game_profile_page import form_of, saved_file, send

FAULTS = [(errno.ENOSPC, 507, "profile_full", "the disk is full"),
          (errno.EROFS, 503, "profile_read_only", "is read-only"),
          (errno.EIO, 503, "profile_io", "the disk reported an error")]


def refuse(monkeypatch, code):
    """The data folder's disk refuses: the file's sync fails with `code` (as a full card does)."""
    def fsync(fd):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr("companion.game_profiles.os.fsync", fsync)


@pytest.mark.parametrize("code, status, key, says", FAULTS)
def test_the_board_profile_on_a_disk_that_refuses_is_said_and_nothing_changes(paired, game_session, tmp_path,
                                                                              monkeypatch, code, status, key, says):
    profile = paired.get("/api/profile").json
    assert post(paired, "/api/profile", dict(profile, confirmed=True)).status_code == 200
    before = (tmp_path / "profile.toml").read_bytes()
    refuse(monkeypatch, code)
    r = post(paired, "/api/profile", dict(profile, name="ours"))
    assert r.status_code == status and r.json["error"] == "storage" and r.json["key"] == key   # once a 500
    assert str(tmp_path / "profile.toml") in r.json["message"] and says in r.json["message"]
    assert (tmp_path / "profile.toml").read_bytes() == before and game_session.profile_of("atlandice")["name"] != "ours"
    assert sorted(p.name for p in tmp_path.glob("profile.toml*")) == ["profile.toml"]      # no .tmp left
    r = post(paired, "/api/profile?lang=pt-BR", dict(profile, name="ours"))
    assert r.status_code == status and "arquivo de perfil" in r.json["message"]


@pytest.mark.parametrize("code, status, key, says", FAULTS)
def test_a_games_profile_on_a_disk_that_refuses_is_said_and_nothing_changes(paired, game_session, tmp_path,
                                                                            monkeypatch, code, status, key, says):
    form = dict(form_of(paired), confirmed="1")
    refuse(monkeypatch, code)
    r = send(paired, form, headers=XHR)
    assert r.status_code == status and r.json["key"] == key and str(saved_file(tmp_path)) in r.json["message"]
    page = send(paired, form)                             # the form itself: the page, with why
    assert page.status_code == status and str(saved_file(tmp_path)) in page.get_data(as_text=True)
    assert not saved_file(tmp_path).exists() and list(saved_file(tmp_path).parent.glob("*.tmp")) == []
    assert game_session.profile_of("survive") == default_profile("survive")


def test_a_profile_is_synced_before_and_after_its_rename(tmp_path, monkeypatch):
    synced, real = [], os.fsync
    monkeypatch.setattr("companion.game_profiles.os.fsync",
                        lambda fd: synced.append(os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))) or real(fd))
    save_profile(load_profile(), tmp_path / "cal" / "board_profile.toml")
    assert synced == ["board_profile.toml.tmp", "cal"]          # the file's data, then the folder's entry
    assert (tmp_path / "cal" / "board_profile.toml").is_file()


@pytest.mark.parametrize("text", ["", "track = [", "name = 3\n"])
def test_an_empty_or_damaged_board_profile_does_not_stop_the_start(tmp_path, text):
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "board_profile.toml").write_text(text, encoding="utf-8")
    config = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_CAMERA_SOURCE": "demo",
                                    "ATLANDICE_GPIO_PIN_FACTORY": "mock"})
    said = []
    companion = build(config, announce=said.append)       # once: ProfileError, no start
    try:
        assert any(line.startswith("warning:") and "board_profile.toml" in line
                   and "default profile of atlandice is used" in line for line in said)
        assert companion.session.profile_of("atlandice")["confirmed"] is False        # the shipped default
    finally:
        companion.close()


def test_a_board_profile_saved_before_survives_a_restart_and_begins_the_next_game(tmp_path):
    # Where the board profile was saved before every game's profile was kept alike.
    old = tmp_path / "calibration" / "board_profile.toml"
    board = dict(default_profile("atlandice"), name="our board", confirmed=True)
    board["icons"] = dict(board["icons"], market=1)
    save_profile(board, old)
    kept = old.read_bytes()
    config = load_config(None, env={"ATLANDICE_DATA_DIR": str(tmp_path), "ATLANDICE_CAMERA_SOURCE": "demo",
                                    "ATLANDICE_GPIO_PIN_FACTORY": "mock"})
    for _ in range(2):                                    # a start, then a restart
        said = []
        companion = build(config, announce=said.append)
        try:
            assert not any(line.startswith("warning:") for line in said)
            assert companion.session.profile_of("atlandice") == board
            companion.session.new_game({"players": ["Ana", "Bruno"], "first_player": 0})
            assert companion.session.game.record.header["setup"]["profile"] == board
        finally:
            companion.close()
    assert old.read_bytes() == kept                       # read, never rewritten nor removed
