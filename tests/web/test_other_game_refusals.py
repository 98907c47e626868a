"""With Survive or Atlantis on the table, refusals worded for Atlandice (a bad Atlandice
setup, an unknown game) and a step asked while the prompt lists no options answer with
their reason, never a 500 (hardening item 12)."""

from __future__ import annotations

import pytest

from .conftest import SETUP, XHR, post

TABLES = {"survive": {"game": "survive", "players": ["Ana", "Bruno"], "first_player": 1, "challenges": [3]},
          "atlantis": {"game": "atlantis", "players": ["Ana", "Bruno"], "first_player": 0}}


@pytest.fixture(params=sorted(TABLES))
def table(request, app, paired, game_session):
    app.testing = False            # a 500 is answered, not raised into the test
    assert post(paired, "/api/game", TABLES[request.param]).status_code == 201
    return request.param


def test_a_bad_atlandice_setup_is_refused_in_atlandice_words(table, paired, game_session):
    before = game_session.game.record.to_jsonl()
    for lang, said in (("en", "Atlandice is for 2 to 4 players, not 1."),
                       ("pt-BR", "Atlandice")):
        r = post(paired, f"/api/game?lang={lang}", dict(SETUP, players=["Ana"]))
        assert r.status_code == 400, r.get_data(as_text=True)[:300]
        assert r.json["key"] == "setup_players" and said in r.json["message"]
    assert game_session.game.game_id == table and game_session.game.record.to_jsonl() == before
    assert len(paired.get("/api/games", headers=XHR).json["games"]) == 1


def test_an_unknown_game_is_refused_whatever_is_on_the_table(table, paired, client, game_session):
    r = post(paired, "/api/game?lang=en", dict(SETUP, game="chess"))
    assert r.status_code == 400 and r.json["key"] == "unknown_game" and '"chess"' in r.json["message"]
    r = post(paired, "/api/game?lang=pt-BR", dict(SETUP, game="chess"))
    assert r.status_code == 400 and r.json["message"].startswith('Não há o jogo "chess"')
    for c in (client, paired):
        for url in ("/setup?game=x", "/profile/x"):
            r = c.get(url + "&lang=en" if "?" in url else url + "?lang=en")
            assert r.status_code == 400, (url, r.status_code)
            assert 'There is no game "x"' in r.get_data(as_text=True).replace("&#34;", '"')
            r = c.get(url, headers=XHR)
            assert r.status_code == 400 and r.json["key"] == "unknown_game"
    assert game_session.game.game_id == table


def test_a_step_asked_while_the_prompt_lists_no_options_is_stale_not_a_500(app, paired, client, game_session):
    """Atlantis's shuffled path begins with a shuffle: its prompt has no options to tap."""
    app.testing = False
    r = post(paired, "/api/game", dict(TABLES["atlantis"], path="shuffle"))
    assert r.status_code == 201 and game_session.game.expected()["options"] is None
    for c in (client, paired):
        for query in ("citizen=0", "citizen=0&cards=blue", "citizen=0&version=0"):
            r = c.get(f"/step?{query}", headers=XHR)
            assert r.status_code == 409 and r.json["error"] == "stale", (query, r.status_code)
    assert game_session.game.version == 0
