"""The check page asks the registry: a game's own sums (its package's `check` module), drawn by
its template in its words; a game without a check page has none."""

from companion import games

from .conftest import XHR


def test_the_shelf_says_which_games_have_a_check_page():
    have = [g.id for g in games.shelf() if g.check is not None]
    assert have == ["atlandice"]
    assert games.load("survive").check is None


def test_the_check_page_is_the_first_game_with_one_or_the_one_named(client):
    page = client.get("/check?lang=pt-BR").get_data(as_text=True)
    assert "Uma Região vazia: quem pega a peça e os PV?" in page
    assert client.get("/check?game=atlandice&lang=en").status_code == 200
    assert client.get("/check?game=survive").status_code == 404
    assert client.get("/check?game=nosuchgame").status_code == 404


def test_a_refused_sum_is_said_in_the_games_words(client):
    r = client.get("/check?do=payout&name0=Anna&count0=x&name1=Bruno&count1=1&lang=pt-BR")
    assert r.status_code == 400 and "não é um número inteiro" in r.get_data(as_text=True)
    r = client.post("/api/check/payout?lang=pt-BR", json={"counts": {"Anna": "x", "Bruno": 1}}, headers=XHR)
    assert r.status_code == 400 and "não é um número inteiro" in r.get_json()["message"]
    r = client.post("/api/check/payout?game=survive", json={"counts": {"Anna": 1, "Bruno": 1}}, headers=XHR)
    assert r.status_code == 404
    r = client.post("/api/check/payout?game=atlandice", json={"counts": {"Anna": 3, "Bruno": 1}}, headers=XHR)
    assert r.status_code == 200 and r.get_json()["tile"] == "Anna"
