"""A shelf game's profile page (/profile/<game>, web/profile_page.py): the profile in the
game's words in both languages, corrected and marked checked by a paired tablet's form,
refused with the reason (nothing saved) when the game's check refuses it; the table of a
game begun on an unconfirmed profile says so; the page frame names the game on the table."""

from __future__ import annotations

import html
import importlib
import re
import tomllib
from pathlib import Path

import pytest

from companion.shelf import Words, default_profile
from web import profile_form

from .conftest import XHR

GAMES_DIR = Path(__file__).resolve().parents[2] / "companion" / "games"
SURVIVE = {"players": ["Ana", "Bruno"], "first_player": 0, "challenges": []}


def form_of(client, game="survive") -> dict:
    """What the page's form would post as it is drawn: every input's name and text."""
    page = client.get(f"/profile/{game}").get_data(as_text=True)
    form = {m[0]: m[1] for m in re.findall(r'<input name="([^"]+)" value="([^"]*)"', page)}
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page):
        form[name] = re.search(r'<option value="([^"]+)" selected', body).group(1)
    form["csrf_token"] = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return form


def send(client, form: dict, game="survive", **kw):
    return client.post(f"/profile/{game}", data=form, **kw)


def saved_file(tmp_path, game="survive") -> Path:
    return tmp_path / "calibration" / f"{game}_profile.json"


@pytest.mark.parametrize("lang, words", [
    ("en", ["Numbers under one colour's ten explorers", "What lies under the land tiles", "forest",
            "volcanic eruption", "Not yet checked", "Checked against my own box"]),
    ("pt-BR", ["Números sob os dez exploradores de uma cor", "O que há sob as peças de terreno", "floresta",
               "Ainda não conferido", "Conferido com a minha própria caixa"]),
])
def test_the_page_shows_the_profile_in_the_games_words(client, lang, words):
    page = html.unescape(client.get(f"/profile/survive?lang={lang}").get_data(as_text=True))
    for text in words:
        assert text in page, text
    assert 'name="values" value="1 1 1 2 2 3 3 4 5 6"' in page
    assert 'name="backs.beach.shark" value="3"' in page and 'name="backs.mountain.volcano" value="1"' in page
    assert 'aria-current="page">Survive' in page            # the choice of game's profile
    board = client.get("/profile/atlandice")                 # Atlandice's own editor, on the same route
    assert board.status_code == 200 and 'id="profile-form"' in board.get_data(as_text=True)


def test_a_paired_tablet_corrects_it_and_marks_it_checked(paired, game_session, tmp_path):
    form = form_of(paired)
    form.update({"values": "1, 1 2 2 3 3 4 4 5 6", "confirmed": "1", "backs.beach.shark": "2",
                 "backs.beach.boat": "2", "colours.3": "black"})
    r = send(paired, form)
    assert r.status_code == 303 and r.headers["Location"].endswith("/profile/survive?saved=1")
    profile = game_session.profile_of("survive")
    assert profile["values"] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 6] and profile["confirmed"] is True
    assert profile["backs"]["beach"]["shark"] == 2 and profile["colours"][3] == "black"
    assert '"confirmed": true' in saved_file(tmp_path).read_text(encoding="utf-8")
    page = paired.get("/profile/survive?saved=1").get_data(as_text=True)
    assert 'id="profile-saved"' in page and "Confirmed: checked against the owner" in page
    assert 'name="values" value="1 1 2 2 3 3 4 4 5 6"' in page and 'id="confirmed" checked' in page


@pytest.mark.parametrize("lang, change, said", [
    ("en", {"backs.beach.shark": "5"}, "beach backs must add up to the 16 beach tiles, not 18"),
    ("en", {"values": "1 2 3"}, "The game profile is wrong"),
    ("en", {"colours.1": "red"}, "four different colours"),
    ("en", {"backs.forest.boat": "two"}, "What lies under the land tiles: “two” is not a whole number."),
    ("pt-BR", {"values": "1 2 x"}, "Números sob os dez exploradores de uma cor: “x” não é um número inteiro."),
    ("pt-BR", {"backs.mountain.volcano": "0", "backs.mountain.shark": "2"}, "O perfil do jogo está errado"),
])
def test_a_refused_profile_is_said_and_nothing_is_saved(paired, game_session, tmp_path, lang, change, said):
    send(paired, dict(form_of(paired), confirmed="1"))        # a checked profile saved first
    before, kept = saved_file(tmp_path).read_bytes(), game_session.profile_of("survive")
    seen = game_session.change_id
    form = dict(form_of(paired), **change)
    r = send(paired, form, query_string={"lang": lang})
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert 'id="profile-error"' in page and said in html.unescape(page)
    for name, text in change.items():                       # what was typed stays on the page
        assert f'value="{text}"' in page or f'<option value="{text}" selected' in page
    assert saved_file(tmp_path).read_bytes() == before
    assert game_session.profile_of("survive") == kept and game_session.change_id == seen


def test_only_a_paired_tablet_may_change_it(client, paired, game_session, tmp_path):
    form = dict(form_of(paired), confirmed="1")
    watcher = form_of(client)
    r = send(client, dict(form, csrf_token=watcher["csrf_token"]))
    assert r.status_code == 403
    r = send(paired, dict(form, csrf_token="forged"))
    assert r.status_code == 403
    assert not saved_file(tmp_path).exists() and game_session.profile_of("survive")["confirmed"] is False
    assert client.get("/profile/nothing").status_code == 400


def test_the_next_game_begins_with_it_and_its_table_says_whether_it_is_checked(paired, game_session):
    game_session.new_game(SURVIVE, game="survive")
    table = paired.get("/").get_data(as_text=True)
    assert 'id="profile-note"' in table and "The game profile (the explorers' numbers" in html.unescape(table)
    assert 'class="profile-marker"><a href="/profile/survive">Game profile not yet checked' in table
    assert "<title>Survive: Escape from Atlantis! · table companion</title>" in table
    assert 'class="brand" href="/">Survive: Escape from Atlantis!</a>' in table
    assert '<a href="/profile/survive">Game profile</a>' in table       # the header leads to this game's profile

    send(paired, dict(form_of(paired), confirmed="1"))
    table = paired.get("/").get_data(as_text=True)
    assert 'id="profile-note"' in table                      # the game under way keeps its unconfirmed profile
    assert game_session.game.state["profile"]["confirmed"] is False

    game_session.new_game(SURVIVE, game="survive")
    table = paired.get("/?lang=pt-BR").get_data(as_text=True)
    assert 'id="profile-note"' not in table and "profile-marker" not in table
    assert "<title>Survive: Fuga de Atlântida! · companheiro de mesa</title>" in table
    assert game_session.game.record.header["setup"]["profile"]["confirmed"] is True


def test_with_atlandice_on_the_table_the_frame_is_as_before(client, game_session):
    page = client.get("/profile/survive").get_data(as_text=True)
    assert "<title>Game profile of Survive: Escape from Atlantis!</title>" in page
    home = client.get("/").get_data(as_text=True)
    assert "<title>Atlandice table companion</title>" in home and '<a href="/profile">Board profile</a>' in home
    board = client.get("/profile").get_data(as_text=True)
    assert 'href="/profile/survive"' in board                 # the board profile page leads to the others


def _packages_with_fields():
    return sorted(p.parent.name for p in GAMES_DIR.glob("*/profile_fields.py"))


def _default(game: str) -> dict:
    module = importlib.import_module(f"companion.games.{game}")
    own = getattr(module, "default_profile", None)
    if own is not None:
        return own()
    return module.validate_profile(tomllib.loads((GAMES_DIR / game / "default_profile.toml").read_text("utf-8")))


@pytest.mark.parametrize("game", _packages_with_fields())
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_every_games_fields_draw_its_default_and_read_it_back(game, lang):
    """The generic path, for each package that describes its fields (registered or not yet):
    the form drawn from the shipped default, posted as drawn, gives the same profile back,
    every input has a label, and the game's check takes it."""
    module = importlib.import_module(f"companion.games.{game}")
    fields = tuple(importlib.import_module(f"companion.games.{game}.profile_fields").FIELDS)
    default = _default(game)
    for field in fields:
        assert field["key"] in default, (game, field["key"])
    drawn = profile_form.layout(fields, default, Words(game, lang))
    form = {}
    for entry in drawn:
        for i in entry.get("inputs", []) + [i for row in entry.get("rows", []) for i in row["inputs"]]:
            assert i["label"].strip(), (game, i["name"])
            form[i["name"]] = i["text"]
    read = profile_form.read(fields, form, default)
    assert read["confirmed"] is False and read["name"] == default["name"]
    assert module.validate_profile(read) == default
    assert module.validate_profile(profile_form.read(fields, dict(form, confirmed="1"), default))["confirmed"] is True


def test_survive_describes_its_fields_and_words_them_in_both_languages():
    assert _packages_with_fields()[-1] == "survive" and profile_form.fields_of("survive")
    assert profile_form.fields_of("atlandice") == ()
    for lang in ("en", "pt-BR"):
        words = Words("survive", lang)
        for field in profile_form.fields_of("survive"):
            assert field["key"] in words.catalog["profile"], (lang, field["key"])
    assert default_profile("survive")["confirmed"] is False


def test_a_script_gets_the_saved_profile_or_the_refusal_as_json(paired, game_session):
    form = dict(form_of(paired), confirmed="1", values="2 2 2 2 2 3 3 4 5 6")
    r = send(paired, form, headers=XHR)
    assert r.status_code == 200 and r.json["profile"]["values"][0] == 2 and r.json["profile"]["confirmed"]
    r = send(paired, dict(form, values="2 2 2"), headers=XHR)
    assert r.status_code == 400 and r.json["key"] == "profile" and "values" in r.json["message"]
    r = send(paired, dict(form, **{"backs.beach.boat": ""}), headers=XHR)
    assert r.status_code == 400 and r.json["key"] == "profile_number" and r.json["field"] == "backs"
    assert game_session.profile_of("survive")["values"][0] == 2


def test_the_profile_page_of_a_game_is_also_asked_by_name(client):
    assert client.get("/profile?game=survive").headers["Location"].endswith("/profile/survive")
    assert client.get("/profile?game=atlandice").headers["Location"].endswith("/profile/atlandice")
    assert client.get("/profile").status_code == 200          # no game on the table: the shelf's first


def test_atlantis_gets_its_page_by_registration_alone(paired, game_session, tmp_path):
    """No page code of its own: its fields (profile_fields.py) and its catalog's words."""
    page = html.unescape(paired.get("/profile/atlantis?lang=pt-BR").get_data(as_text=True))
    assert "As peças de cada metade do caminho" in page and "Cartas de cada cor" in page
    assert re.search(r'<input name="tiles.A.blue" value="1 2 3 4 5 6" aria-label="[^"]+" class="big-input">', page)
    assert 'name="cards_per_colour" value="15"' in page and 'type="number"' in page
    before = game_session.profile_of("atlantis")
    form = dict(form_of(paired, "atlantis"), confirmed="1", cards_per_colour="14")
    assert send(paired, form, "atlantis").status_code == 303
    after = game_session.profile_of("atlantis")
    assert after == dict(before, confirmed=True, cards_per_colour=14)
    assert saved_file(tmp_path, "atlantis").is_file()
    r = send(paired, dict(form, **{"tiles.A.blue": "1 2 3"}), "atlantis")     # half A then holds 39 tiles
    assert r.status_code == 400 and 'id="profile-error"' in r.get_data(as_text=True)
    assert game_session.profile_of("atlantis") == after


@pytest.mark.parametrize("lang, words", [
    ("en", ["Board profile", "Clock track, from the start (arrow) to the end (waves)"]),
    ("pt-BR", ["Perfil do tabuleiro", "Trilha do relógio, do início (seta) ao fim (ondas)"]),
])
def test_atlandices_own_editor_is_drawn_and_saved_through_the_one_route(paired, game_session, lang, words):
    page = html.unescape(paired.get(f"/profile/atlandice?lang={lang}").get_data(as_text=True))
    for text in words:
        assert text in page, text
    assert 'data-save="/api/profile?game=atlandice"' in page      # where its script saves it
    assert 'aria-current="page">Atlandice' in page and 'href="/profile/survive"' in page
    board = dict(game_session.profile_of("atlandice"), name="ours", confirmed=True)
    r = paired.post("/api/profile?game=atlandice", json=board, headers=XHR)
    assert r.status_code == 200 and r.json["name"] == "ours"
    assert game_session.profile_of("atlandice")["confirmed"] is True
    assert 'data-name="ours"' in paired.get(f"/profile/atlandice?lang={lang}").get_data(as_text=True)


@pytest.mark.parametrize("lang, title", [("en", "Game profile of Survive: Escape from Atlantis!"),
                                         ("pt-BR", "Perfil do jogo de Survive: Fuga de Atlântida!")])
def test_the_profile_page_without_a_game_named_is_the_tables_games(client, game_session, lang, title):
    game_session.new_game(SURVIVE, game="survive")
    page = html.unescape(client.get(f"/profile?lang={lang}").get_data(as_text=True))
    assert f"<title>{title}</title>" in page and 'name="values"' in page
    assert client.get("/profile?game=atlantis").headers["Location"].endswith("/profile/atlantis")
