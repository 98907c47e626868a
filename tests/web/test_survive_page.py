"""The Survive table page: the prompt's default is the main button (CONFIRM enters it), and
during the setup walk the pieces still to place are counted."""

from __future__ import annotations

import re

from .conftest import post

SURVIVE = {"game": "survive", "players": ["Ana", "Bruno"], "first_player": 0, "challenges": []}


def _row(page: str, row_id: str) -> list[str]:
    row = re.search(rf'<tr id="{row_id}">(.*?)</tr>', page).group(1)
    return re.findall(r"<td>(\d+)</td>", row)


def test_setup_step_1_counts_the_boats_and_serpents_still_to_place(paired, game_session):
    post(paired, "/api/game", SURVIVE)
    page = paired.get("/?lang=en").get_data(as_text=True)
    assert '<th scope="col">to place</th>' in page
    assert _row(page, "boats") == ["0", "4", "0", "8"]            # on the board, supply, gone, to place
    assert _row(page, "creature-serpent") == ["0", "0", "0", "5"]
    pt = paired.get("/?lang=pt-BR").get_data(as_text=True)
    assert '<th scope="col">a colocar</th>' in pt
    for step in range(1, 9):
        game_session.submit({"type": "setup", "step": step}, game_session.game.version)
    page = paired.get("/?lang=en").get_data(as_text=True)
    assert "to place" not in page                                # the walk is over: no column
    assert _row(page, "boats") == ["8", "4", "0"]


def _to_tile_step(sess):
    """Play on until a player holds a tile at step 1 (a red tile kept), by a fixed line."""
    import random

    from companion.games.survive.simulate import random_input
    rng = random.Random(5)
    for _ in range(2000):
        prompt = sess.game.expected()
        if prompt["kind"] == "tile":
            return prompt
        sess.submit(random_input(rng, prompt), sess.game.version)
    raise AssertionError("no tile step reached")


def test_the_default_is_the_main_button_and_confirm_enters_it(paired, game_session):
    post(paired, "/api/game", SURVIVE)
    prompt = _to_tile_step(game_session)
    assert prompt["default"] == {"type": "done"}
    assert game_session.proposal()["input"] == {"type": "done"}
    page = paired.get("/?lang=en").get_data(as_text=True)
    options = re.search(r'<div class="group group-main">.*?</div>\s*</div>', page, re.S).group(0)
    first = re.search(r"<button [^>]*>", options).group(0)
    assert 'class="option option-done primary"' in first and 'data-default="1"' in first
    assert "No tile: go on" in options and "Play:" in options
    assert 'data-button="confirm"' in page and "No tile: go on</strong>" in page      # the proposal
    version = game_session.game.version
    game_session.confirm()
    assert game_session.game.version == version + 1
    assert game_session.game.record.inputs[-1]["type"] == "done"
    assert game_session.game.expected()["kind"] == "moves"


def test_the_saved_explorers_numbers_are_six_buttons_one_tap_each(paired, game_session):
    import random

    from companion.games.survive.simulate import random_input
    post(paired, "/api/game", SURVIVE)
    rng = random.Random(2)
    while game_session.game.expected()["kind"] != "values":
        game_session.submit(random_input(rng, game_session.game.expected()), game_session.game.version)
    prompt = game_session.game.expected()
    colour = prompt["context"]["colour"]
    page = paired.get("/?lang=en").get_data(as_text=True)
    assert page.count('class="option option-value') == 6 and "option-values" not in page
    assert "tap each one&#39;s number" in page or "tap each one's number" in page
    if prompt["context"]["count"] > 1:
        game_session.submit({"type": "value", "colour": colour, "value": 1}, game_session.game.version)
        page = paired.get("/?lang=en").get_data(as_text=True)
        assert '<span class="badge count">×1</span>' in page


def test_at_step_two_what_the_tile_removed_shows_is_a_group_of_its_own(paired, game_session):
    post(paired, "/api/game", SURVIVE)
    for step in range(1, 9):
        game_session.submit({"type": "setup", "step": step}, game_session.game.version)
    assert game_session.game.expected()["kind"] == "moves"
    page = paired.get("/?lang=en").get_data(as_text=True)
    group = re.search(r'<div class="group group-ahead"><h3>(.*?)</h3>(.*?)</div>', page, re.S)
    assert group.group(1) == "Or on to step 3: the beach tile removed shows"
    assert 'data-input="{&#34;type&#34;:&#34;reveal&#34;,&#34;back&#34;:&#34;whale&#34;}"' in group.group(2)
    assert "option-reveal" not in re.search(r'<div class="group group-main">.*?</div>', page, re.S).group(0)
    pt = paired.get("/?lang=pt-BR").get_data(as_text=True)
    assert "Ou direto ao passo 3: a peça de Praia removida mostra" in pt
    game_session.submit({"type": "reveal", "back": "whale"}, game_session.game.version)
    assert game_session.game.expected()["kind"] == "roll" and game_session.game.state["terrain"]["beach"] == 15
