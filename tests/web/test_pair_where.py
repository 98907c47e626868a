"""/pair says where the code is: the panel's CONFIRM on the Pi, else /tablets on the machine itself."""

from __future__ import annotations

import re

from .conftest import XHR


class Panel:
    def __init__(self, is_mock: bool):
        self.is_mock = is_mock


def hint(client, lang: str) -> str:
    page = client.get(f"/pair?lang={lang}").get_data(as_text=True)
    return re.sub(r"<[^>]+>", "", page.split('id="pair-where">')[1].split("</p>")[0])


def test_off_the_pi_the_pair_page_says_the_code_is_at_tablets(client, game_session):
    for panel in (None, Panel(is_mock=True)):       # no panel, or the mock pins of a laptop
        game_session.panel = panel
        text = hint(client, "en")
        assert "http://localhost/tablets" in text and "CONFIRM" not in text
        assert "http://localhost/tablets" in hint(client, "pt-BR")
    r = client.post("/pair?lang=en", json={"code": "000000"}, headers=XHR, base_url="http://localhost:8000")
    assert r.status_code == 403 and "http://localhost:8000/tablets" in r.json["message"]


def test_the_port_of_the_address_asked_is_kept(client):
    page = client.get("/pair", base_url="http://192.168.1.20:8000").get_data(as_text=True)
    assert "http://localhost:8000/tablets" in page


def test_on_the_pi_the_pair_page_says_hold_confirm(client, game_session):
    game_session.panel = Panel(is_mock=False)
    assert "Hold CONFIRM on the button panel" in hint(client, "en")
    assert "Segure CONFIRMAR" in hint(client, "pt-BR")
    r = client.post("/pair?lang=en", json={"code": "000000"}, headers=XHR)
    assert r.status_code == 403 and "hold CONFIRM" in r.json["message"]
