"""Atlandice's final sheet gives each player's VP tokens by source, each line opening its
payouts (issue 43 item 9): Surveys, Donations, an empty District's second place, a tie for its tile."""

from __future__ import annotations

import random
import re

import pytest

from companion.games.atlandice.simulate import random_input, random_setup
from companion.shelf import words_for
from companion.games.atlandice.table import token_sources

from .conftest import SETUP


def finish(game_session, seed):
    rng = random.Random(seed)
    setup = random_setup(rng, 3, game_session.profile_of("atlandice"))
    setup.pop("profile")
    game_session.new_game(setup)
    while not game_session.game.state["over"]:
        game_session.submit(random_input(rng, game_session.game.expected()), game_session.game.version)
    return game_session.game


@pytest.mark.parametrize("seed", [1, 7, 11])
def test_the_sources_add_up_to_each_players_tokens(game_session, seed):
    game = finish(game_session, seed)
    tokens = game.state["result"]["tokens"]
    rows = token_sources(list(game.history), tokens, ["A", "B", "C", "N"][:len(tokens)],
                         words_for("atlandice", "en"))
    assert [sum(r["per_seat"][s] for r in rows) for s in range(len(tokens))] == tokens
    assert all(r["key"] != "other" for r in rows), "every token of a game played here has its payout"
    assert {r["key"] for r in rows} <= {"survey", "donation", "empty_second", "empty_tied"}


def test_the_final_sheet_shows_each_source_with_its_payouts(paired, game_session):
    game = finish(game_session, 7)
    for url in ("/?lang=en", f"/games/{game_session.game_id}?lang=en"):
        page = paired.get(url).get_data(as_text=True)
        final = page.split('class="breakdown"')[1].split("</table>")[0]
        rows = re.findall(r'<tr class="token-source src-(\w+)">.*?<summary>(.*?)</summary>\s*<ul class="payouts">(.*?)</ul>',
                          final, re.S)
        assert rows, url
        labels = {key: re.sub(r"<[^>]+>", "", summary) for key, summary, _ in rows}
        if "survey" in labels:
            assert labels["survey"].startswith("VP tokens: Surveys (")
        for key, summary, payouts in rows:
            n = payouts.count("<li>")
            assert f"({n} payout" in re.sub(r"<[^>]+>", "", summary), (url, key)
            assert "Round" in payouts
    pt = paired.get("/?lang=pt-BR").get_data(as_text=True)
    assert "Fichas de PV: " in pt


def test_the_check_page_has_no_history_and_no_sources(client):
    assert client.get("/check").status_code == 200
    assert SETUP


def test_the_history_keeps_each_inputs_own_events(game_session):
    """The session added the events of the steps it entered by itself to the list the game's
    history keeps for the table's input: their payouts were said, and counted, twice."""
    game = finish(game_session, 7)
    from companion.game import Game
    replayed = Game(game.record)
    assert [e["events"] for e in game.history] == [e["events"] for e in replayed.history]
