"""The games list says an unfinished game's scores are so far; the setup page resumes only
unfinished games (a finished one is opened on its own page)."""

from __future__ import annotations

import random
import re

from companion.games.atlandice.simulate import random_input

from .conftest import SETUP


def play(sess, stop_after=None):
    rng = random.Random(3)
    while sess.game.expected()["kind"] != "over" and (stop_after is None or sess.game.version < stop_after):
        sess.submit(random_input(rng, sess.game.expected()), sess.game.version)


def row(page: str, game_id: int) -> str:
    return page.split(f'data-game="{game_id}"')[1].split("</tr>")[0]


def test_an_unfinished_games_scores_are_said_to_be_so_far(paired, game_session):
    game_session.new_game(SETUP)
    play(game_session)
    game_session.new_game(SETUP)
    play(game_session, stop_after=40)
    for lang, words in (("en", "scores so far"), ("pt-BR", "pontos até agora")):
        page = paired.get(f"/games?lang={lang}").get_data(as_text=True)
        assert re.search(r"<b>\d+</b>", row(page, 2)), "the running scores are shown"
        assert words in row(page, 2)
        assert words not in row(page, 1), "a finished game's scores are its final ones"


def test_setup_resumes_unfinished_games_and_opens_finished_ones(paired, game_session):
    game_session.new_game(SETUP)
    play(game_session)
    game_session.new_game(SETUP)
    play(game_session, stop_after=10)
    for lang in ("en", "pt-BR"):
        page = paired.get(f"/setup?lang={lang}").get_data(as_text=True)
        assert 'data-resume="2"' in page
        assert 'data-resume="1"' not in page, "a finished game is not offered to resume"
        assert 'href="/games/1"' in page
