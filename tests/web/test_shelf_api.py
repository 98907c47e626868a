"""The shelf on the web: GET /api/games lists it, POST /api/game starts any of its games,
the setup page starts with the choice of game, and a Survive table is drawn in its words."""

from __future__ import annotations

import re

from .conftest import SETUP, post

SURVIVE = {"game": "survive", "players": ["Ana", "Bruno"], "first_player": 1, "challenges": [3]}


def test_api_games_lists_the_shelf_with_names_in_both_languages(client):
    shelf = client.get("/api/games").json["shelf"]
    ids = [g["id"] for g in shelf]
    assert ids[:2] == ["atlandice", "survive"]
    survive = shelf[1]
    assert survive["names"] == {"en": "Survive: Escape from Atlantis!", "pt-BR": "Survive: Fuga de Atlântida!"}


def test_a_survive_game_is_started_played_refused_and_undone_through_the_api(paired, game_session):
    r = post(paired, "/api/game", SURVIVE)
    assert r.status_code == 201, r.json
    assert game_session.game.game_id == "survive" and game_session.game.state["challenges"] == [3]
    stored = paired.get("/api/games").json["games"][0]
    assert stored["game"] == "survive" and stored["players"] == ["Ana", "Bruno"]
    r = post(paired, "/api/input?lang=pt-BR", {"input": {"type": "setup", "step": 1}, "version": 0})
    assert r.status_code == 200 and r.json["text"][0].startswith("Preparação 2:")
    r = post(paired, "/api/input?lang=pt-BR", {"input": {"type": "setup", "step": 5}, "version": 1})
    assert r.status_code == 409 and r.json["key"] == "setup_step"
    assert r.json["message"].startswith("A preparação está no passo 2, não no 5.")
    state = paired.get("/api/state?lang=en").json
    assert state["game"] == "survive" and state["history"][0]["text"][0].startswith("Setup 2:")
    assert post(paired, "/api/undo", {"version": 1}).status_code == 200
    assert game_session.game.version == 0
    assert paired.get("/api/record").get_data(as_text=True).startswith(
        '{"format": "atlandice-record", "version": 1, "game": "survive"')


def test_a_survive_setup_refusal_names_survive_not_atlandice(paired, game_session):
    r = post(paired, "/api/game?lang=en", dict(SURVIVE, players=["Ana"]))
    assert r.status_code == 400 and r.json["message"] == "Survive is for 2 to 4 players, not 1. (Setup)"
    r = post(paired, "/api/game?lang=en", dict(SURVIVE, challenges=[2, 4]))
    assert r.status_code == 400 and r.json["key"] == "setup_challenges_conflict"
    assert game_session.game is None


def test_an_unknown_game_is_refused_clearly(paired, game_session):
    r = post(paired, "/api/game?lang=en", dict(SETUP, game="chess"))
    assert r.status_code == 400 and r.json["key"] == "unknown_game"
    assert '"chess"' in r.json["message"] and "survive" in r.json["message"]
    r = post(paired, "/api/game?lang=pt-BR", dict(SETUP, game="chess"))
    assert r.json["message"].startswith('Não há o jogo "chess"')
    assert game_session.game is None
    assert paired.get("/setup?game=chess").status_code == 400


def test_an_atlandice_game_without_game_is_as_before(paired, game_session):
    assert post(paired, "/api/game", SETUP).status_code == 201
    assert game_session.game.game_id == "atlandice"
    assert game_session.game.record.header["game"] == "atlandice"


def test_the_setup_page_starts_with_the_choice_of_game(client):
    page = client.get("/setup?lang=pt-BR").get_data(as_text=True)
    choice = page.index('id="game-choice"')
    assert choice < page.index('id="setup-form"')
    assert "Survive: Fuga de Atlântida!" in page and 'name="opt:tops.library"' in page
    survive = client.get("/setup?game=survive&lang=en").get_data(as_text=True)
    assert 'data-game="survive"' in survive and 'name="opt:tops.library"' not in survive
    assert survive.count('name="opt:challenges"') == 4 and "#4 Sunken Atlantis" in survive


def hint(page: str) -> str:
    return re.search(r'id="players-hint">(.*?)</p>', page, re.S).group(1)


def test_the_setup_page_says_only_the_chosen_games_own_help(client):
    """Atlandice's Neutral player is Atlandice's: the other games' setup says their own rule."""
    for lang, neutral in (("en", "Neutral"), ("pt-BR", "Neutro")):
        assert neutral in hint(client.get(f"/setup?game=atlandice&lang={lang}").get_data(as_text=True))
        for game, own in (("survive", ("S1",)), ("atlantis", ("4",))):
            said = hint(client.get(f"/setup?game={game}&lang={lang}").get_data(as_text=True))
            assert neutral not in said and all(w in said for w in own), (game, lang, said)
    atlandice = client.get("/setup?game=atlandice&lang=en").get_data(as_text=True)
    assert "Challenges" not in atlandice and 'name="opt:path"' not in atlandice


def test_a_survive_table_shows_prompt_options_counts_and_history_in_the_pages_language(paired, game_session):
    post(paired, "/api/game", SURVIVE)
    for step in range(1, 9):
        game_session.submit({"type": "setup", "step": step}, game_session.game.version)
    page = paired.get("/?lang=pt-BR").get_data(as_text=True)
    assert "Bruno, passo 2: até 3 movimentos" in page
    assert "Movimentos concluídos" in page and "Explorador verde salvo" in page
    assert "O Vulcão está sob uma de 8 Montanhas." in page
    assert re.search(r'id="explorers-green"><th scope="row"><span class="swatch c-green"></span>verde</th><td>10</td>', page)
    assert '<th scope="col">em jogo</th>' in page
    assert "Desafios: #3 Todos somos iguais" in page
    assert "Preparação 8:" in page                            # the history, in words
    live = paired.get("/live?lang=en").get_data(as_text=True)
    assert 'data-kind="moves"' in live and "Moves done" in live


def test_the_survive_tally_shows_each_colours_saved_values(paired, game_session):
    import random

    from companion.games.survive.simulate import random_input
    post(paired, "/api/game", dict(SURVIVE, challenges=[]))     # #3 would count explorers, not values
    rng = random.Random(2)
    while game_session.game.expected()["kind"] != "over":
        game_session.submit(random_input(rng, game_session.game.expected()), game_session.game.version)
    result = game_session.game.state["result"]
    assert result["counted"] == "values"
    page = paired.get("/?lang=en").get_data(as_text=True)
    assert "built-in method" not in page
    for seat in result["seats"]:
        for line in seat["colours"]:
            if line["values"]:
                assert f'<td class="values">{" + ".join(map(str, line["values"]))}</td>' in page
    assert page.count('class="total"') == len(result["seats"])


def test_a_new_games_setup_keeps_only_what_that_game_takes(paired, game_session):
    # Each game's own keys (Rules.setup_keys) go to its setup; anything else sent is not stored.
    assert post(paired, "/api/game", dict(SETUP, challenges=[3], note="x")).status_code == 201
    header = game_session.game.record.header
    assert "challenges" not in header["setup"] and "note" not in header["setup"]
    assert post(paired, "/api/game", dict(SURVIVE, tops={"inn": "x"}, colours_each=2)).status_code == 201
    setup = game_session.game.record.header["setup"]
    assert "tops" not in setup and setup["challenges"] == [3] and setup["colours_each"] == 2
