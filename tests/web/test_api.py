"""The JSON API: every route, every error path; a refused request changes nothing."""

import json

import pytest

from .conftest import SETUP, post

ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}


@pytest.fixture
def started(paired, game_session):
    assert post(paired, "/api/game", SETUP).status_code == 201
    return paired


def test_state_without_a_game(client):
    data = client.get("/api/state").json
    assert data["state"] is None and data["expected"] is None and data["version"] is None
    assert data["lang"] == "en"


def test_state_has_the_prompt_with_its_legal_options_and_the_history_in_words(started):
    post(started, "/api/input", {"input": ROLL, "version": 0})
    data = started.get("/api/state?lang=pt-BR").json
    assert data["version"] == 1
    assert data["expected"]["kind"] == "pick"
    assert {"type": "pick", "area": "library", "for": "self"} in data["expected"]["options"]
    assert data["history"][0]["input"]["type"] == "gate_roll"
    assert data["history"][0]["text"][0].startswith("Rodada 1")
    assert data["state"]["players"] == ["Anna", "Bruno", "Eric"]
    assert started.get("/api/state?history=0").json["history"] == []


def test_an_input_is_applied_once_and_answered_with_its_events(started, game_session):
    r = post(started, "/api/input", {"input": ROLL, "version": 0})
    assert r.status_code == 200
    assert r.json["version"] == 1
    assert r.json["events"][0]["key"] == "gates.open"
    assert "gates open" in r.json["text"][0]
    assert game_session.game.record.inputs[0]["source"] == "tablet"


def test_a_stale_input_is_refused_not_applied_twice(started, game_session):
    assert post(started, "/api/input", {"input": ROLL, "version": 0}).status_code == 200
    pick = {"type": "pick", "area": "market", "for": "self"}
    assert post(started, "/api/input", {"input": pick, "version": 1}).status_code == 200
    # A second tablet taps the same choice, made against version 1.
    r = post(started, "/api/input", {"input": pick, "version": 1})
    assert r.status_code == 409 and r.json["error"] == "stale" and r.json["version"] == 2
    assert game_session.game.version == 2
    # Without a version it is not taken at all: null once skipped the check, and counted twice.
    for body in ({"input": pick}, {"input": pick, "version": None}):
        r = post(started, "/api/input", body)
        assert r.status_code == 400 and "'version' is required" in r.json["message"]
    assert game_session.game.version == 2


@pytest.mark.parametrize("body, kind", [
    ({"input": {"type": "gate_roll", "dice": [1, 2, 3]}, "version": 0}, "illegal"),
    ({"input": {"type": "pick", "area": "inn"}, "version": 0}, "illegal"),
    ({"input": {"type": "teleport"}, "version": 0}, "invalid"),
    ({"input": {"type": "gate_roll", "dice": [7, 1, 1, 1, 1, 1, 1]}, "version": 0}, "invalid"),
    ({"input": "gate_roll", "version": 0}, "invalid"),
    ({"input": ROLL}, "invalid"),
    ({"input": ROLL, "version": "0"}, "invalid"),
    ({"input": ROLL, "version": True}, "invalid"),
])
def test_malformed_or_illegal_inputs_are_4xx_and_change_nothing(started, game_session, body, kind):
    r = post(started, "/api/input", body)
    assert r.status_code == (409 if kind == "illegal" else 400)
    assert r.json["error"] == kind
    assert r.json["message"]
    assert "rule" in r.json
    assert game_session.game.version == 0


def test_an_illegal_input_names_the_rule(started):
    r = post(started, "/api/input", {"input": {"type": "gate_roll", "dice": [1, 2, 3]}, "version": 0})
    assert r.json["rule"] == "Setup"


def test_a_refusal_is_said_in_the_pages_language_with_its_reason_as_data(started):
    """The engine's refusals once reached the pt-BR page in English."""
    pick = {"type": "pick", "area": "inn", "for": "self"}
    r = post(started, "/api/input?lang=pt-BR", {"input": pick, "version": 0})
    assert r.status_code == 409 and r.json["key"] == "wrong_kind"
    assert r.json["params"] == {"expected": "gate_roll", "given": "pick"}
    assert r.json["message"] == ("O companheiro espera a rolagem dos portões agora, não um dado a pegar. "
                                 "(Abertura dos Portões)")
    r = post(started, "/api/input?lang=en", {"input": pick, "version": 0})
    assert r.json["message"].startswith("The companion expects the gate roll now, not a die to take.")


def test_werkzeugs_own_refusals_are_said_in_the_pages_language(client):
    r = client.get("/no/such/page", headers={"Accept-Language": "en;q=0.2, pt-BR"})
    assert r.status_code == 404 and "Não há nada neste endereço" in r.get_data(as_text=True)
    r = client.get("/api/check/payout?lang=pt-BR")
    assert r.status_code == 405 and r.json["message"] == "Este endereço não aceita esse tipo de pedido."


def test_a_body_that_is_not_json(started, game_session):
    r = started.post("/api/input", data="{not json", content_type="application/json",
                     headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 400 and r.json["error"] == "invalid"
    r = started.post("/api/input", data="input=1", headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 400
    assert game_session.game.version == 0


def test_input_without_a_game(paired):
    r = post(paired, "/api/input", {"input": ROLL, "version": 0})
    assert r.status_code == 409 and r.json["error"] == "illegal"
    for button in ("undo", "redo", "confirm", "read"):    # confirm once said "nothing to confirm yet"
        r = post(paired, f"/api/{button}", {"version": 0})
        assert r.status_code == 409 and r.json["key"] == "no_game", button


def test_undo_and_redo(started, game_session):
    r = post(started, "/api/undo", {"version": 0})
    assert r.status_code == 409 and r.json["key"] == "nothing_to_undo" and r.json["message"] == "Nothing to undo."
    post(started, "/api/input", {"input": ROLL, "version": 0})
    r = post(started, "/api/undo", {"version": 1})
    assert r.status_code == 200 and r.json["version"] == 0 and r.json["undone"]["type"] == "gate_roll"
    r = post(started, "/api/redo", {"version": 0})
    assert r.status_code == 200 and r.json["version"] == 1
    r = post(started, "/api/redo", {"version": 1})
    assert r.status_code == 409 and r.json["key"] == "nothing_to_redo" and r.json["message"] == "Nothing to redo."
    r = post(started, "/api/undo?lang=pt-BR", {"version": 0})   # stale: said in Portuguese, with its reason
    assert r.status_code == 409 and r.json["error"] == "stale" and r.json["version"] == 1
    assert r.json["key"] == "stale" and r.json["params"] == {"sent": 0, "current": 1}
    assert r.json["message"].startswith("A partida avançou")


def test_two_tablets_pressing_undo_at_once_undo_once(started, game_session):
    post(started, "/api/input", {"input": ROLL, "version": 0})
    post(started, "/api/input", {"input": {"type": "pick", "area": "market", "for": "self"}, "version": 1})
    assert post(started, "/api/undo", {"version": 2}).status_code == 200
    r = post(started, "/api/undo", {"version": 2})
    assert r.status_code == 409 and r.json["error"] == "stale"
    assert game_session.game.version == 1


def test_buttons_need_a_json_body_or_none(started):
    assert started.post("/api/undo", headers={"X-Requested-With": "XMLHttpRequest"}).status_code == 409
    r = post(started, "/api/undo", {"version": -1})
    assert r.status_code == 400


def test_confirm_enters_the_proposal(started, game_session):
    r = post(started, "/api/confirm", {"version": 0})
    assert r.status_code == 409, "a gate roll is never invented (R1): nothing to confirm without a reading"
    post(started, "/api/input", {"input": ROLL, "version": 0})
    # A record stopped where the only Book is to be taken (the session enters such a step itself).
    text = game_session.game.record.to_jsonl() + json.dumps({"type": "pick", "area": "library"}) + "\n"
    assert post(started, "/api/record", {"record": text}).status_code == 201
    proposal = started.get("/api/state").json["proposal"]
    assert proposal["input"] == {"type": "resource", "resource": "book"}
    r = post(started, "/api/confirm", {"version": 2, "input": {"type": "resource", "resource": "gem"}})
    assert r.status_code == 409 and r.json["error"] == "stale", "the page showed another proposal"
    r = post(started, "/api/confirm", {"version": 2, "input": proposal["input"]})
    assert r.status_code == 200 and r.json["version"] == 3
    assert game_session.game.record.inputs[2]["resource"] == "book"


def test_read_without_a_camera(started):
    r = post(started, "/api/read", {})
    assert r.status_code == 409 and r.json["error"] == "camera_unavailable"


def test_camera_image_absent(paired):
    r = paired.get("/api/camera.png")
    assert r.status_code == 404 and r.json["error"] == "not_found"


def test_camera_image_present(client, paired, game_session, monkeypatch):
    monkeypatch.setattr(game_session.desk, "last_image", lambda: b"\x89PNG fake")
    assert client.get("/api/camera.png").status_code == 403       # the picture is the paired tablets'
    r = paired.get("/api/camera.png")
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data.startswith(b"\x89PNG")


@pytest.mark.parametrize("setup", [
    {"players": ["Anna"], "first_player": 0},
    {"players": ["Anna", "anna"], "first_player": 0},
    {"players": ["Anna", "Bruno"], "first_player": 5},
    {"players": ["Anna", "Bruno"], "tops": {"jeweller": "B-six"}},
    {"players": "Anna, Bruno"},
])
def test_a_bad_setup_is_400_and_starts_nothing(paired, game_session, setup):
    r = post(paired, "/api/game", setup)
    assert r.status_code == 400 and r.json["error"] == "invalid"
    assert game_session.game is None


def test_record_round_trip(started, game_session):
    post(started, "/api/input", {"input": ROLL, "version": 0})
    r = started.get("/api/record")
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    text = r.get_data(as_text=True)
    assert json.loads(text.splitlines()[0])["format"] == "atlandice-record"
    r = started.get("/api/record?download=1")
    assert "attachment" in r.headers["Content-Disposition"]
    # Load it back, as a text body and as JSON: a new stored game with the same inputs.
    old_id = game_session.game_id
    r = started.post("/api/record", data=text, content_type="text/plain",
                     headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 201 and r.json["version"] == 1 and r.json["game_id"] != old_id
    r = post(started, "/api/record", {"record": text})
    assert r.status_code == 201


def test_record_without_a_game(client):
    assert client.get("/api/record").status_code == 404


@pytest.mark.parametrize("text, line", [
    ("", 1),
    ("not json\n", 1),
    ('{"format": "atlandice-record", "version": 9, "setup": {}}\n', 1),
    ("HEADER\n{\"type\": \"gate_roll\", \"dice\": [1, 2, 3, 4, 5, 6, 1]}\n{\"type\": \"pick\", \"area\": \"nowhere\"}\n", 3),
    ("HEADER\n{\"type\": \"gate_roll\", \"dice\": [1, 2, 3]}\n", 2),
])
def test_a_bad_record_says_which_line_and_changes_nothing(started, game_session, text, line):
    text = text.replace("HEADER", game_session.game.record.to_jsonl().strip())
    before = (game_session.game_id, game_session.game.version)
    r = started.post("/api/record", data=text, content_type="text/plain",
                     headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 400 and r.json["error"] == "record" and r.json["line"] == line
    assert (game_session.game_id, game_session.game.version) == before
    assert post(started, "/api/record", {"record": 5}).status_code == 400


@pytest.mark.parametrize("text, line, says", [
    ("", 1, "O registro está vazio"),
    ("not json\n", 1, "não é um JSON válido"),
    ('{"format": "atlandice-record", "version": 9, "setup": {}}\n', 1, "da versão 9; este companheiro lê a versão 1"),
    ('{"format": "atlandice-record", "version": "1", "setup": {}}\n', 1, "da versão \"1\";"),
    ("HEADER\n{\"type\": \"bogus\"}\n", 2, "não é uma entrada que o companheiro entenda"),
    ('{"format": "x"}\n', 1, "cabeçalho do registro"),
    ("HEADER\n[1, 2]\n", 2, "objeto JSON com um “type”"),
    ("HEADER\n{\"type\": \"gate_roll\", \"dice\": [1, 2, 3, 4, 5, 6, 1]}\n{\"type\": \"gate_roll\", \"dice\": [1, 2, 3, 4, 5, 6, 1]}\n",
     3, "não a rolagem dos portões"),
])
def test_a_bad_record_is_said_in_the_pages_language(started, game_session, text, line, says):
    """Loading a record from the page once answered in English only."""
    text = text.replace("HEADER", game_session.game.record.to_jsonl().strip())
    r = started.post("/api/record?lang=pt-BR", data=text, content_type="text/plain",
                     headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 400 and r.json["error"] == "record" and r.json["line"] == line
    assert r.json["message"].startswith(f"Linha {line} do registro: ") and says in r.json["message"]
    if line == 3:                                    # a refusal of the rules keeps its reason as data
        assert r.json["key"] == "wrong_kind" and r.json["params"] == {"expected": "pick", "given": "gate_roll"}
    if "bogus" in text:                              # a line no page makes: the rules' words in detail
        assert "bogus" in r.json["detail"]
    if text == "not json\n":
        assert r.json["key"] == "record_json" and r.json["detail"]


def test_a_stored_game_that_no_longer_replays_is_refused_and_the_table_kept(started, game_session):
    post(started, "/api/input", {"input": ROLL, "version": 0})
    table = (game_session.game_id, game_session.game.version)
    other = game_session.store.create(game_session.game.record.header)
    game_session.store.append(other, 0, {"type": "pick", "area": "inn", "for": "self"})  # before any roll
    game_session.store.use(table[0])
    r = post(started, "/api/resume?lang=pt-BR", {"game_id": other})
    assert r.status_code == 409 and r.json["error"] == "unreadable"
    assert r.json["message"].startswith("Essa partida guardada não pode ser retomada")
    assert "line 2" in r.json["detail"]               # the engine's own words, for whoever repairs it
    assert (game_session.game_id, game_session.game.version) == table


def test_the_camera_and_the_stored_games_are_said_in_the_pages_language(started):
    r = post(started, "/api/read?lang=pt-BR", {})
    assert r.status_code == 409 and r.json["message"] == "Câmera indisponível: digite os dados."
    r = post(started, "/api/resume?lang=pt-BR", {"game_id": 999})
    assert r.status_code == 404 and r.json["message"] == "Não há partida guardada com o número 999."
    r = started.get("/api/camera.png?lang=pt-BR")
    assert r.status_code == 404 and r.json["message"] == "Ainda não há leitura de dados com imagem."
    r = post(started, "/api/game?lang=pt-BR", dict(SETUP, players=["A" * 50, "B"]))
    assert r.status_code == 400 and r.json["message"] == "O nome de um jogador tem no máximo 40 caracteres."


def test_games_and_resume(started, game_session):
    games = started.get("/api/games").json["games"]
    assert games[0]["players"] == ["Anna", "Bruno", "Eric"]
    r = post(started, "/api/resume", {"game_id": games[0]["id"]})
    assert r.status_code == 200 and r.json["game_id"] == games[0]["id"]
    assert post(started, "/api/resume", {"game_id": 999}).status_code == 404
    assert post(started, "/api/resume", {"game_id": "x"}).status_code == 400
    assert post(started, "/api/resume").status_code == 200


def test_resume_with_nothing_to_resume(paired):
    assert post(paired, "/api/resume").status_code == 404


def test_board_profile(paired, game_session, tmp_path):
    profile = paired.get("/api/profile").json
    assert profile["track"][0] == "start" and profile["confirmed"] is False
    profile["confirmed"] = True
    profile["track"] = ["start", "", "donation", "survey:total", "", "end"]
    r = post(paired, "/api/profile", profile)
    assert r.status_code == 200 and r.json["confirmed"] is True
    assert game_session.profile_of("atlandice")["track"][2] == "donation"
    assert "confirmed = true" in (tmp_path / "profile.toml").read_text()
    bad = dict(profile, track=["start", "teleport", "end", "", "", ""])
    r = post(paired, "/api/profile", bad)
    assert r.status_code == 400 and r.json["rule"] == "R12"
    assert game_session.profile_of("atlandice")["track"][1] == ""
    saved = (tmp_path / "profile.toml").read_text()
    for name in ("x\ny", {"a": 1}, None, "x" * 200_000):     # a newline once made the file unreadable
        r = post(paired, "/api/profile", dict(profile, name=name))
        assert r.status_code == 400 and r.json["rule"] == "R12"
    assert (tmp_path / "profile.toml").read_text() == saved


def test_unknown_routes_and_methods(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json["error"] == "not_found"
    r = client.get("/api/input")
    assert r.status_code == 405 and r.json["error"] == "method_not_allowed"
    assert "POST" in r.headers["Allow"]
    r = client.get("/no/such/page")
    assert r.status_code == 404 and "text/html" in r.content_type


def test_bodies_too_large_are_413(paired, game_session):
    r = paired.post("/api/record", data="x" * (2 * 1024 * 1024), content_type="text/plain",
                    headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 413 and r.json["error"] == "too_large"
    assert game_session.game is None


def test_check_payout_the_books_example(client):
    r = post(client, "/api/check/payout", {"counts": {"Anna": 3, "Bruno": 3, "Eric": 1, "Lola": 0}})
    assert r.status_code == 200
    data = r.json
    assert data["first"] == ["Anna", "Bruno"] and data["second"] == [] and data["tied"]
    assert data["tile"] == "Anna" and data["tokens"] == {"Bruno": 3}
    assert any("zero is not a majority" in line for line in data["why"])
    r = post(client, "/api/check/payout", {"counts": {"Anna": 3, "Bruno": 3}, "taker": "Bruno"})
    assert r.json["tokens"] == {"Anna": 3}


@pytest.mark.parametrize("data", [{}, {"counts": {"A": 1}}, {"counts": {"A": -1, "B": 2}},
                                  {"counts": {"A": "x", "B": 2}}, {"counts": {"A": 1, "B": 2}, "taker": "A"},
                                  {"counts": {"A": 1, "B": 2}, "taker": 3},
                                  {"counts": {"Anna": 3, "anna": 1}}, {"counts": {"Anna": 3, "Anna ": 1}}])
def test_check_payout_errors(client, data):
    r = post(client, "/api/check/payout", data)
    assert r.status_code == 400 and r.json["error"] == "invalid"


def test_check_final(client):
    players = [{"name": "Anna", "stock": {"gem": 3, "book": 1}, "tiles": 1, "tokens": 4},
               {"name": "Bruno", "stock": {"gem": 2, "book": 1}, "tiles": 0, "tokens": 5},
               {"name": "Neutral", "stock": {"gem": 5}, "tiles": 2, "tokens": 0}]
    r = post(client, "/api/check/final", {"players": players, "neutral": True, "depleted": ["tool"]})
    assert r.status_code == 200
    result = r.json["result"]
    assert result["resources"]["gem"]["first"] == [2]
    assert result["resources"]["gem"]["second"] == [0]
    assert result["resources"]["book"]["tied"] is True
    assert result["total"] == [1 + 3 + 3 + 4, 3 + 5, 3 + 6]
    assert result["winners"] == [0], "the Neutral player never wins (R11)"
    assert r.json["breakdown"]["winners"] == ["Anna"]


@pytest.mark.parametrize("data", [{}, {"players": [{"name": "A"}]}, {"players": "x"},
                                  {"players": [{"name": "A"}, {"name": "a"}]},
                                  {"players": [{"name": "A", "stock": {"gold": 1}}, {"name": "B"}]},
                                  {"players": [{"name": "A"}, {"name": "B"}], "depleted": ["gold"]},
                                  {"players": [{"name": "A", "tiles": 100}, {"name": "B"}]},
                                  # once taken: "false" as true, a list as an empty stock
                                  {"players": [{"name": "A"}, {"name": "B"}], "neutral": "false"},
                                  {"players": [{"name": "A"}, {"name": "B"}], "neutral": 1},
                                  {"players": [{"name": "A", "stock": []}, {"name": "B"}]},
                                  {"players": [{"name": "A"}, {"name": "B"}], "depleted": ""}])
def test_check_final_errors(client, data):
    r = post(client, "/api/check/final", data)
    assert r.status_code == 400 and r.json["error"] == "invalid"


def test_the_check_pages_errors_are_in_the_pages_language(client):
    r = post(client, "/api/check/final?lang=pt-BR", {"players": [{"name": "Ana", "stock": {"gem": "x"}},
                                                                  {"name": "Bia"}]})
    assert r.status_code == 400 and r.json["message"] == "Ana (Joia): “x” não é um número inteiro."
    r = post(client, "/api/check/payout", {"counts": {"Ana": 3, "ana": 1}})
    assert r.json["message"] == "Cada jogador precisa de um nome diferente."
    r = client.get("/check?do=payout&name0=Ana&count0=3&name1=Bia&count1=3&taker=Eva")
    assert r.status_code == 400 and "Eva não está entre os que têm mais." in r.get_data(as_text=True)
    # two rows of one name: once the last row silently replaced the first
    r = client.get("/check?do=payout&name0=Ana&count0=3&name1=Ana&count1=2&name2=Eva&count2=1")
    assert r.status_code == 400 and "Cada jogador precisa de um nome diferente." in r.get_data(as_text=True)
    r = client.get("/check?do=payout&name0=Ana&count0=3")       # the form's words, not the API's fields
    assert r.status_code == 400 and "Digite de 2 a 5 jogadores, cada um com uma quantidade." in r.get_data(as_text=True)


def test_the_check_payouts_taker_is_any_writing_of_a_name_and_null_neutral_is_no(client):
    r = post(client, "/api/check/payout", {"counts": {"Anna": 3, "Bruno": 3}, "taker": " bruno "})
    assert r.status_code == 200 and r.json["tile"] == "Bruno" and r.json["tokens"] == {"Anna": 3}
    r = post(client, "/api/check/payout", {"counts": {"Anna": 3, "Bruno": 3}, "taker": " "})
    assert r.status_code == 200 and r.json["tile"] == "Anna"
    players = [{"name": "A", "stock": {"gem": 2}}, {"name": "B", "stock": None}]
    r = post(client, "/api/check/final", {"players": players, "neutral": None, "depleted": None})
    assert r.status_code == 200 and r.json["humans"] == 2


def test_an_unpaired_tablet_is_told_in_its_language(client):
    r = post(client, "/api/input?lang=pt-BR", {"input": ROLL, "version": 0})
    assert r.status_code == 403 and r.json["error"] == "not_paired"
    assert r.json["message"].startswith("Este tablet não está pareado")


def test_bodies_that_once_gave_a_500_are_bad_requests(client, paired):
    from .conftest import XHR
    deep = "[" * 100_000 + "]" * 100_000
    for c, url in [(paired, "/api/input"), (client, "/api/check/payout"), (client, "/pair")]:
        r = c.post(url, data=deep, content_type="application/json", headers=XHR)
        assert r.status_code in (400, 403) and r.status_code != 500, url
    # A superscript two passes str.isdigit() but not int().
    r = post(client, "/api/check/payout", {"counts": {"Anna": "²", "Bruno": "1"}})
    assert r.status_code == 400
    r = client.get("/check?do=payout&name0=A&count0=%C2%B2&name1=B&count1=1")
    assert r.status_code == 400 and "whole number" in r.get_data(as_text=True)


def test_a_new_game_with_a_name_too_long_is_refused(paired, game_session):
    r = post(paired, "/api/game", {"players": ["Anna", "B" * 100_000], "first_player": 0})
    assert r.status_code == 400 and "at most 40" in r.json["message"] and game_session.game is None
    r = post(paired, "/api/game", {"players": ["Anna", "B" * 40], "first_player": 0})
    assert r.status_code == 201


@pytest.mark.parametrize("claimed", ["auto", "camera", "corrected"])
def test_a_tablet_cannot_say_its_input_was_the_companions_or_the_cameras(started, game_session, claimed):
    # "auto" would make one UNDO take back the table's input before it too; "camera" would count
    # in the camera's track record.
    assert post(started, "/api/input", {"input": ROLL, "version": 0}).status_code == 200
    pick = dict(game_session.game.expected()["options"][0], source=claimed)
    assert post(started, "/api/input", {"input": pick, "version": 1}).status_code == 200
    assert game_session.game.record.inputs[1]["source"] == "tablet"
    game_session.undo()
    assert game_session.game.version == 1          # the pick (and what the companion did after it) only
