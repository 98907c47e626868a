"""A Survive or Atlantis input whose "type" is a list or an object: POST /api/input and the
page's record load answer 400 with a clear message and change nothing; `companion replay`
names the line (hardening item 11)."""

from __future__ import annotations

import json

import pytest

from tests.replay_cli import run

from .conftest import XHR, post

TABLES = {"survive": {"game": "survive", "players": ["Ana", "Bruno"], "first_player": 1, "challenges": [3]},
          "atlantis": {"game": "atlantis", "players": ["Ana", "Bruno"], "first_player": 0}}
SHAPES = [["setup"], ["lay"], {"type": "setup"}, {}]
# What each game says of such a type, in each language.
SAID = {("survive", "en"): "Unknown input:", ("survive", "pt-BR"): "Entrada desconhecida:",
        ("atlantis", "en"): "That input is not understood.", ("atlantis", "pt-BR"): "Essa entrada não foi entendida."}


@pytest.fixture(params=sorted(TABLES))
def table(request, app, paired):
    app.testing = False            # a 500 is answered, not raised into the test
    assert post(paired, "/api/game", TABLES[request.param]).status_code == 201
    return request.param


@pytest.mark.parametrize("shape", SHAPES, ids=["list", "list2", "object", "empty_object"])
def test_an_input_whose_type_is_a_list_or_an_object_is_refused(table, paired, game_session, shape):
    record = paired.get("/api/record").get_data(as_text=True)
    for lang in ("en", "pt-BR"):
        r = post(paired, f"/api/input?lang={lang}", {"input": {"type": shape}, "version": 0})
        assert r.status_code == 400, r.get_data(as_text=True)[:300]
        assert r.json["error"] == "invalid" and r.json["message"].startswith(SAID[table, lang])
    assert game_session.game.version == 0 and paired.get("/api/record").get_data(as_text=True) == record


@pytest.mark.parametrize("shape", SHAPES[::2], ids=["list", "object"])
def test_a_record_with_such_a_line_is_refused_naming_the_line(table, paired, game_session, shape):
    record = paired.get("/api/record").get_data(as_text=True)
    bad = record.rstrip("\n") + "\n" + json.dumps({"type": shape}) + "\n"
    for lang, line in (("en", "Line 2 of the record: "), ("pt-BR", "Linha 2 do registro: ")):
        r = paired.post(f"/api/record?lang={lang}", data=bad, headers=dict(XHR, **{"Content-Type": "text/plain"}))
        assert r.status_code == 400 and r.json["error"] == "record" and r.json["line"] == 2
        assert r.json["message"].startswith(line + SAID[table, lang]), r.json["message"]
        r = post(paired, f"/api/record?lang={lang}", {"record": bad})
        assert r.status_code == 400 and r.json["line"] == 2
    assert game_session.game.game_id == table and game_session.game.version == 0
    assert len(paired.get("/api/games", headers=XHR).json["games"]) == 1


@pytest.mark.parametrize("game", sorted(TABLES))
def test_companion_replay_names_the_line(game, paired, tmp_path):
    assert post(paired, "/api/game", TABLES[game]).status_code == 201
    record = paired.get("/api/record").get_data(as_text=True).rstrip("\n")
    for shape in (["setup"], {"a": 1}):
        path = tmp_path / f"{game}.jsonl"
        path.write_text(record + "\n" + json.dumps({"type": shape}) + "\n", encoding="utf-8")
        done = run(path, tmp_path=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{path}: line 2: " in done.stderr + done.stdout
        assert repr(shape) in done.stderr + done.stdout
