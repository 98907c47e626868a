"""A saved game's page (/games/N) shows its score sheet with its breakdown and the winner line,
in every game of the shelf and both languages, as the live page's final card did."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from companion.game import Game
from companion.record import Record
from companion.shelf import words_for

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
WHOLE = {"atlandice": "three-players", "survive": "survive-3p-challenges-1-3", "atlantis": "atlantis-table-3p"}


def section(page: str, id_: str) -> str:
    found = re.search(rf'<section[^>]*id="{id_}".*?</section>', page, re.S)
    assert found, f"no #{id_}"
    return found.group(0)


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("game", list(WHOLE))
def test_a_saved_game_shows_its_breakdown_and_winner(paired, game_session, game, lang):
    text = (GOLDEN / game / f"{WHOLE[game]}.jsonl").read_text(encoding="utf-8")
    game_session.load_record(text)
    played = Game(Record.from_jsonl(text))
    assert played.state["over"]
    names = words_for(game, lang).names(played.state)
    winners = [names[w] for w in played.rules.winners(played.state)]
    page = paired.get(f"/games/{game_session.game_id}?lang={lang}").get_data(as_text=True)
    final = section(page, "final")
    line = re.search(r'<p class="winners"[^>]*>(.*?)</p>', final, re.S)
    assert line, "no winner line"
    assert all(w in html.unescape(line.group(1)) for w in winners)
    # a breakdown, not only the totals: a row per player at least, and the parts of the score
    # (three columns or more besides the player's)
    table = re.search(r"<table.*?</table>", final, re.S).group(0)
    assert table.count("<tr") > len(played.rules.players(played.state))
    head = re.search(r"<tr.*?</tr>", table, re.S).group(0)
    assert head.count("<th") >= 4, head


@pytest.mark.parametrize("game", ["survive", "atlantis"])
def test_an_unfinished_saved_game_shows_no_winner(paired, game_session, game):
    text = (GOLDEN / game / "so-far.jsonl").read_text(encoding="utf-8")
    game_session.load_record(text)
    page = paired.get(f"/games/{game_session.game_id}?lang=en").get_data(as_text=True)
    assert "The score as it stands (unfinished)" in section(page, "final") and 'class="winners"' not in page
