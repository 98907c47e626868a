"""Atlantis on the tablet page: chosen at New game, its table (the path, the players, the
prompt), a move asked step by step from the rules (GET /step), the prompt and every state
read kept small even when thousands of moves are legal, the final breakdown, and the games
history."""

from __future__ import annotations

import json
import random
import re

from companion.games.atlantis import default_profile, options
from companion.games.atlantis.simulate import play_random, random_input, random_setup
from companion.record import Record

from .conftest import post

ATLANTIS = {"game": "atlantis", "players": ["Ana", "Bruno"], "first_player": 1, "path": "shuffle"}
# A generous ceiling on the prompt's HTML: the turn of a 4-player game with 2,534 legal moves
# draws about 2 KB (the citizens, the tiles to give back), never the moves themselves.
PROMPT_MAX = 8_000


def prompt_html(live: str) -> str:
    return live[live.index('id="prompt"'):live.index('id="panel"')]


def test_the_setup_page_offers_atlantis_with_its_path_choice(client):
    page = client.get("/setup?lang=en").get_data(as_text=True)
    assert 'data-game="atlantis"' in page
    setup = client.get("/setup?game=atlantis&lang=pt-BR").get_data(as_text=True)
    assert 'id="setup-form" class="setup" autocomplete="off" data-game="atlantis"' in setup
    assert setup.count('name="opt:path"') == 2 and "O companheiro embaralha as peças" in setup
    assert 'name="opt:tops.library"' not in setup and 'name="opt:challenges"' not in setup


def test_an_atlantis_game_is_set_up_and_its_table_shown(paired, game_session):
    r = post(paired, "/api/game", ATLANTIS)
    assert r.status_code == 201, r.json
    assert game_session.game.game_id == "atlantis" and game_session.game.record.header["setup"]["path"] == "shuffle"
    live = paired.get("/live?lang=en").get_data(as_text=True)
    assert 'data-kind="shuffle"' in live
    button = re.search(r'<button type="button" class="option" data-input="([^"]*)"', live).group(1)
    shuffle = json.loads(button.replace("&#34;", '"'))
    assert sorted(shuffle["order"]["A"]) == list(range(42))          # the order drawn at the edge
    post(paired, "/api/input", {"input": shuffle, "version": 0})
    page = paired.get("/?lang=pt-BR").get_data(as_text=True)
    assert "Bruno: compre cartas com peças, mova um cidadão" in page
    assert page.count('data-atl-citizen="') == 3 and "Cidadão 1 · Atlântida" in page
    assert page.count('<li class="sp') == 53 and 'class="sp water"' in page       # the path, its water tile
    assert 'id="laying"' in page                                   # where each tile goes, until the first move
    assert "Em Atlântida" in page and "ponte ainda não construída" in page


def test_a_refused_setup_names_atlantis(paired, game_session):
    r = post(paired, "/api/game", dict(ATLANTIS, players=["Ana"]))
    assert r.status_code == 400 and r.json["key"] == "atlantis.setup", r.json
    assert game_session.game is None


def walk_a_move(paired, game_session, rng):
    """Tap as the page does: a citizen, then cards until the finished moves are offered."""
    prompt = game_session.game.expected()
    version = game_session.game.version
    citizens = prompt["context"]["movable"]
    citizen = rng.choice(citizens)
    cards: list[str] = []
    while True:
        r = paired.get(f"/step?version={version}&citizen={citizen}&cards={','.join(cards)}&lang=en")
        assert r.status_code == 200
        html = r.get_data(as_text=True)
        assert len(html) < PROMPT_MAX
        finish = re.findall(r'data-input="([^"]+)"', html)
        if finish:
            return json.loads(rng.choice(finish).replace("&#34;", '"')), html
        colours = re.findall(r'data-atl-card="([a-z]+)"', html)
        assert colours
        cards.append(rng.choice(colours))


def test_a_move_is_asked_step_by_step_from_the_turns_own_options(paired, game_session):
    post(paired, "/api/game", ATLANTIS)
    rng = random.Random(2)
    game_session.submit(random_input(rng, game_session.game.state), 0)
    moves = [o for o in options(game_session.game.state) if o["type"] == "move"]
    first = paired.get(f"/step?version=1&citizen=0&cards=&lang=en").get_data(as_text=True)
    assert "Which card do you play first?" in first and "Atlantis" in first
    colours = set(re.findall(r'data-atl-card="([a-z]+)"', first))
    assert colours == {o["cards"][0] for o in moves if o["citizen"] == 0}
    assert re.search(r"→ space \d+ · crossing \d+", first)
    move, html = walk_a_move(paired, game_session, rng)
    assert {k: v for k, v in move.items() if k != "take"} in moves and "crossing costs" in html
    # A page of an older version, or cards no legal move begins with: refused, nothing changes.
    assert paired.get("/step?version=0&citizen=0&cards=").status_code == 409
    assert paired.get("/step?version=1&citizen=0&cards=purple").status_code == 409
    assert game_session.game.version == 1
    assert post(paired, "/api/input", {"input": move, "version": 1}).status_code == 200


def test_the_prompt_stays_small_when_the_engine_lists_thousands_of_moves(paired, game_session):
    rng = random.Random(0)
    setup = random_setup(rng, 4, default_profile(), "shuffle")
    inputs = [inp for _, (_, inp, _) in zip(range(12), play_random(rng, setup))]
    record = Record.new(setup=setup, game="atlantis")
    record.inputs = inputs
    game_session.load_record(record.to_jsonl())
    prompt = game_session.game.expected()
    moves = [o for o in options(game_session.game.state) if o["type"] == "move"]
    assert prompt["kind"] == "turn" and prompt["options"] is None and len(moves) > 2000
    live = paired.get("/live?lang=en").get_data(as_text=True)
    assert len(prompt_html(live)) < PROMPT_MAX
    read = paired.get("/api/state?lang=en&history=0", headers={"X-Requested-With": "XMLHttpRequest"})
    assert len(read.get_data()) < 20_000 and read.json["expected"]["context"]["movable"] == prompt["context"]["movable"]
    move, _ = walk_a_move(paired, game_session, random.Random(1))
    assert {k: v for k, v in move.items() if k != "take"} in moves
    assert post(paired, "/api/input", {"input": move, "version": game_session.game.version}).status_code == 200


def test_a_finished_atlantis_game_shows_its_breakdown_and_history(paired, game_session):
    post(paired, "/api/game", dict(ATLANTIS, path="shuffle"))
    rng = random.Random(4)
    while game_session.game.expected()["kind"] != "over":
        game_session.submit(random_input(rng, game_session.game.state), game_session.game.version)
    result = game_session.game.state["result"]
    page = paired.get("/?lang=en").get_data(as_text=True)
    final = page[page.index('id="final"'):page.index('id="prompt"')]
    for line in result["scores"]:
        assert f">{line['total']}</td>" in final
    winner = ATLANTIS["players"][result["winners"][0]]
    assert f"points: {winner}" in final and "Crossings at the end" in final
    games = paired.get("/games?lang=en").get_data(as_text=True)
    assert "Atlantis" in games and winner in games
    replay = paired.get(f"/games/{game_session.game_id}?lang=pt-BR").get_data(as_text=True)
    assert "cartas na mão" in replay                   # the last input's events, in Atlantis's words


def test_tiles_to_give_back_and_to_pay_with_are_shown_by_their_faces(paired, game_session):
    """The buttons say "blue 6", never the tile's id ("3.1")."""
    post(paired, "/api/game", ATLANTIS)
    rng = random.Random(3)
    seen = set()
    while seen != {"turn", "pay"} and not game_session.game.state["over"]:
        state = game_session.game.state
        held = state["held"][state["seat"]] if state["step"]["t"] in ("turn", "pay") else []
        if held and state["step"]["t"] not in seen:
            seen.add(state["step"]["t"])
            prompt = prompt_html(paired.get("/live?lang=en").get_data(as_text=True))
            for tile in held:
                face = f"{state['tiles'][tile]['colour']} {state['tiles'][tile]['value']}"
                assert f">{tile}<" not in prompt and f"tile {tile}" not in prompt
                assert (f"Give back {face} for" in prompt if state["step"]["t"] == "turn"
                        else f'data-atl-tile="{tile}" data-value="{state["tiles"][tile]["value"]}" '
                             f'aria-pressed="false">{face}</button>' in prompt)
        game_session.submit(random_input(rng, state), game_session.game.version)
    assert seen == {"turn", "pay"}
