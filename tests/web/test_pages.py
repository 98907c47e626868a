"""The pages: each renders in both languages; the table draws every prompt a game can ask."""

import random
import re

import pytest

from companion.games.atlandice.simulate import random_input, random_setup

from .conftest import SETUP, XHR, play, post

PAGES = ["/", "/live", "/setup", "/profile", "/camera", "/check", "/pair"]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_without_a_game(client, path, lang):
    r = client.get(f"{path}?lang={lang}")
    assert r.status_code == 200
    assert r.mimetype == "text/html"


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_with_a_game(client, game_session, path):
    game_session.new_game(SETUP)
    assert client.get(path).status_code == 200


def test_the_language_comes_from_the_browser_then_sticks_when_chosen(client, game_session):
    game_session.new_game(SETUP)
    page = client.get("/", headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert 'lang="pt-BR"' in page and "Joalheria" in page and "Mercado Negro" in page
    page = client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)
    assert 'lang="en"' in page and "Jeweller" in page
    client.get("/?lang=pt-BR")
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'lang="pt-BR"' in page, "a language chosen on the page wins over the browser's"


def test_the_table_shows_board_players_prompt_and_history(client, game_session):
    game_session.new_game(SETUP)
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]},
                        {"type": "pick", "area": "market", "for": "self"}])
    page = client.get("/").get_data(as_text=True)
    for area in ("Jeweller", "Library", "Inn", "Engineering Works", "Blacksmith", "Black Market"):
        assert area in page
    assert 'id="area-works"' in page and "#s-sub" in page.split('id="area-works"')[1].split('id="area-blacksmith"')[0]
    assert "Anna: take a resource at the Black Market" in page
    assert "Anna: pegue um recurso no Mercado Negro" in client.get("/?lang=pt-BR").get_data(as_text=True)
    assert 'data-input="{&#34;type&#34;:&#34;resource&#34;,&#34;resource&#34;:&#34;book&#34;}"' in page
    assert "Anna takes a die at the Black Market." in page
    assert 'class="dial"' in page and "Survey of Gems" in page
    assert "Watching only" in page


def test_a_paired_page_has_no_watching_banner(paired, game_session):
    game_session.new_game(SETUP)
    page = paired.get("/").get_data(as_text=True)
    assert "Watching only" not in page and 'class="paired"' in page


def test_the_live_fragment_carries_the_version(client, game_session):
    game_session.new_game(SETUP)
    r = client.get("/live")
    assert r.headers["X-Version"] == "0"
    assert 'data-version="0"' in r.get_data(as_text=True)
    assert "<html" not in r.get_data(as_text=True)


def play_random_game(client, game_session, seed, humans, every=9):
    """A whole random legal game through the session; the table is drawn at every new prompt kind."""
    rng = random.Random(seed)
    setup = random_setup(rng, humans, game_session.profile_of("atlandice"))
    setup.pop("profile")
    game_session.new_game(setup)
    seen = set()
    kinds = set()
    lang = "en"
    for step in range(3000):
        expected = game_session.game.expected()
        kinds.add(expected["kind"])
        if expected["kind"] not in seen or step % every == 0 or expected["kind"] == "over":
            seen.add(expected["kind"])
            lang = "pt-BR" if lang == "en" else "en"
            r = client.get(f"/live?lang={lang}")
            assert r.status_code == 200, (seed, step, expected["kind"])
            page = r.get_data(as_text=True)
            for option in expected["options"][:3]:
                assert "data-input=" in page
        if expected["kind"] == "over":
            return page, kinds
        game_session.submit(random_input(rng, expected), game_session.game.version)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed, humans", [(1, 2), (2, 3), (3, 4)])
def test_whole_random_games_draw_at_every_kind_of_prompt(client, game_session, seed, humans):
    page, kinds = play_random_game(client, game_session, seed, humans)
    assert {"gate_roll", "pick", "resource", "over"} <= kinds
    assert 'id="final"' in page and 'class="chart"' in page
    assert re.search(r"(wins|win|vence|vencem|dividem)", page)


def test_the_end_shows_the_breakdown_and_the_chart(client, game_session):
    page, _ = play_random_game(client, game_session, 11, 3, every=1000)
    page = client.get("/?lang=en").get_data(as_text=True)
    final = page.split('id="final"')[1].split("</section>")[0]
    for word in ("Gems", "Books", "Provisions", "Tools", "Weapons", "Majorities", "Tiles", "VP tokens", "Total"):
        assert word in final
    assert "<polyline" in final
    result = game_session.game.state["result"]
    for total in result["total"]:
        assert f">{total}<" in final


def test_the_check_page_explains_a_payout(client):
    page = client.get("/check?do=payout&name0=Anna&count0=3&name1=Bruno&count1=3&name2=Eric&count2=1"
                      "&name3=Lola&count3=0").get_data(as_text=True)
    result = page.split('id="payout-result"')[1]
    assert "Anna, Bruno tie for the most (3)" in result
    assert "Lola can take neither first nor second place: zero is not a majority." in result
    assert "(R7)" not in result, "the rule in words, not its id"


def test_the_check_page_explains_a_final_scoring(client):
    page = client.get("/check?do=final&name0=Anna&gem0=3&tiles0=1&tokens0=4&name1=Bruno&gem1=2&tokens1=2"
                      "&lang=pt-BR").get_data(as_text=True)
    result = page.split('id="final-result"')[1]
    assert "Anna vence!" in result
    assert "Joias" in result


def test_the_check_page_says_what_is_wrong(client):
    r = client.get("/check?do=payout&name0=Anna&count0=x&name1=Bruno&count1=1")
    assert r.status_code == 400 and "not a whole number" in r.get_data(as_text=True)
    r = client.get("/check?do=final&name0=Anna&gem0=-1")
    assert r.status_code == 400


def test_the_camera_page_shows_the_last_reading(paired, game_session, monkeypatch):
    monkeypatch.setattr(game_session.desk, "last_image", lambda: b"\x89PNG")
    page = paired.get("/camera").get_data(as_text=True)
    assert "/api/camera.png" in page


def test_a_panel_refusal_is_shown(client, game_session):
    game_session.new_game(SETUP)
    game_session.press("undo")
    page = client.get("/").get_data(as_text=True)
    assert 'id="refusal"' in page and "Nothing to undo." in page
    page = client.get("/?lang=pt-BR").get_data(as_text=True)
    assert "Nada para desfazer." in page        # the panel's refusal in the page's language


def test_refusals_are_said_in_the_page_language(paired, game_session):
    r = paired.post("/api/game?lang=pt-BR", json={"players": ["Ana", "Ana"], "first_player": 0},
                    headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 400 and r.json["key"] == "setup_distinct"
    assert r.json["message"].startswith("Cada jogador precisa de um nome diferente")
    r = paired.post("/api/game?lang=en", json={"players": ["Ana", "Bia", "Caio", "Duda", "Eva"], "first_player": 0},
                    headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.json["message"] == "Atlandice is for 2 to 4 players, not 5. (Setup)"


def test_setup_lists_stored_games(paired, game_session):
    game_session.new_game(SETUP)
    page = paired.get("/setup").get_data(as_text=True)
    assert "Anna, Bruno, Eric" in page and 'data-resume="1"' in page


def test_static_assets_are_served_locally(client):
    page = client.get("/").get_data(as_text=True)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    assert "https://" not in page
    for asset in ("/static/app.js", "/static/style.css", "/static/favicon.svg"):
        assert client.get(asset).status_code == 200


def test_the_script_is_es5(client):
    """Old tablet browsers: no arrow functions, let/const, template strings, classes or fetch."""
    js = client.get("/static/app.js").get_data(as_text=True)
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", js, flags=re.S)
    for pattern in (r"=>", r"\blet\s", r"\bconst\s", r"`", r"\bclass\s", r"\bfetch\(", r"\?\.", r"\.\.\.\w"):
        assert not re.search(pattern, code), pattern


def test_two_players_choose_between_taking_and_giving_to_the_neutral_player(client, game_session):
    game_session.new_game({"players": ["Ana", "Bruno"], "first_player": 0})
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    page = client.get("/").get_data(as_text=True)
    assert "Take for yourself" in page and "Give to the Neutral player" in page
    given = page.split(">Give to the Neutral player</h3>")[1].split('class="group"')[0]
    assert "&#34;area&#34;:&#34;library&#34;,&#34;for&#34;:&#34;neutral&#34;" in given and "Library" in given
    assert 'role="group" aria-labelledby=' in page, "each button named with its group's heading"
    assert "Neutral player" in page.split('id="players"')[1]


def test_three_players_just_take_a_die(client, game_session):
    game_session.new_game(SETUP)
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    page = client.get("/").get_data(as_text=True)
    assert "Take for yourself" not in page and "Neutral" not in page.split('id="prompt"')[1].split("</section>")[0]


def prompt_title(page: str) -> str:
    return page.split('id="prompt-title">')[1].split("</h1>")[0]


def test_a_pick_reads_as_one_die_and_a_choice_for_the_neutral_player_says_so(client, game_session):
    game_session.new_game({"players": ["Ana", "Rui"], "first_player": 1})
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    assert prompt_title(client.get("/?lang=en").get_data(as_text=True)) == "Rui: take one die (die 1 of 6 this round)"
    # The Black Market offers a choice (at the Library the one resource is taken by itself).
    play(game_session, [{"type": "pick", "area": "market", "for": "neutral"}])
    assert prompt_title(client.get("/?lang=en").get_data(as_text=True)).startswith(
        "Rui, for Neutral player: take a resource")
    assert prompt_title(client.get("/?lang=pt-BR").get_data(as_text=True)).startswith("Rui, por Jogador Neutro:")


def test_dice_this_round_are_empty_once_the_round_is_over(client, game_session):
    """At the next gate roll the players' dice of the round before are gone."""
    game_session.new_game(SETUP)
    play(game_session, [{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}])
    page = client.get("/").get_data(as_text=True)
    assert "ico face small" not in page.split('id="player-0"')[1].split('class="taken"')[1].split("</div>")[0]
    rng = random.Random(4)
    while game_session.game.expected()["kind"] != "gate_roll":
        game_session.submit(random_input(rng, game_session.game.expected()), game_session.game.version)
    assert game_session.game.state["round"] == 2
    page = client.get("/").get_data(as_text=True)
    for seat in range(3):
        taken = page.split(f'id="player-{seat}"')[1].split('class="taken"')[1].split("</div>")[0]
        assert "ico face small" not in taken, seat


def test_the_final_table_keeps_the_neutral_note_out_of_the_total(client, game_session):
    play_random_game(client, game_session, 1, 2, every=1000)
    final = client.get("/?lang=en").get_data(as_text=True).split('id="final"')[1].split("</section>")[0]
    total = final.split('class="total"')[1].split("</tr>")[0]
    assert "Neutral" not in total and "cannot win" in final.split("</table>")[1]
    assert "R11" in final and "(R11)" not in final, "the ruling's id small beside its words"


def test_the_history_is_folded_to_the_latest_round(client, game_session):
    play_random_game(client, game_session, 2, 3, every=1000)
    page = client.get("/?lang=en").get_data(as_text=True)
    history = page.split('id="history"')[1].split("</section>")[0]
    shown, folded = history.split('<details class="earlier" id="history-earlier">')
    rounds = set(re.findall(r'class="meta">Round (\d+)', shown))
    assert rounds == {str(game_session.game.state["round"])}
    assert "Round 1" in folded


def test_the_unconfirmed_profile_can_be_dismissed_to_a_marker(client, game_session):
    game_session.new_game(SETUP)
    page = client.get("/").get_data(as_text=True)
    assert 'data-dismiss="profile-note"' in page and 'class="profile-marker"' in page
