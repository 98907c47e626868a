"""Every game of the shelf in the history: its replay in its own words, in both languages,
its die's faces named, and one-tap Resume for an unfinished game of any of them."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import companion.games as games
from companion.game_profiles import load_profile
from companion.game import Game
from companion.record import Record
from companion.shelf import words_for

from .conftest import post


@pytest.fixture(autouse=True)
def _public_history(app):
    """These read the history as an unpaired watcher would with [web] public_history = true; the
    default (paired tablets only) is tested in tests/web/test_history_access.py."""
    app.config["PUBLIC_HISTORY"] = True

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
RECORDS = {"atlandice": "three-players.jsonl", "survive": "survive-2p-volcano.jsonl",
           "atlantis": "atlantis-table-3p.jsonl"}


def page_text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def record_of(game: str) -> Record:
    record = Record.from_jsonl((EXAMPLES / RECORDS[game]).read_text(encoding="utf-8"))
    if game == "atlandice":      # the shipped example leaves the board profile to the installed one
        record.header["setup"] = dict(record.header["setup"], profile=load_profile())
    return record


def steps(record: Record, lang: str):
    """(step, the input as the game words it, its events in words) for each input."""
    game = Game(Record(record.header, []))
    words = words_for(game.game_id, lang)
    for n, inp in enumerate(record.inputs, start=1):
        prompt = game.expected()
        names = words.names(game.state)
        said = words.input(inp, prompt["kind"], names, game.state)
        events = game.apply(inp)
        yield n, inp, said, [words.event(ev, words.names(game.state)) for ev in events]


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("game", sorted(RECORDS))
def test_each_games_replay_says_its_inputs_and_events_in_its_own_words(client, game_session, game, lang):
    record = record_of(game)
    game_session.load_record(record.to_jsonl())
    checked = set()
    for n, inp, said, events in steps(record, lang):
        if inp["type"] in checked or not events:
            continue
        checked.add(inp["type"])
        page = page_text(client.get(f"/games/1?step={n}&lang={lang}"))
        assert said in page, (n, inp)
        for line in events:
            assert line in page, (n, line)
        raw = " ".join(str(v) for v in inp.values())
        assert raw not in page and "{'" not in page, (n, raw)     # not the record's raw fields
    assert len(checked) >= 3


def test_survives_creature_die_is_named_in_portuguese(client, game_session):
    game_session.load_record(record_of("survive").to_jsonl())
    page = page_text(client.get("/games/1?lang=pt-BR"))
    assert "Baleia" in page and "Tubarão" in page and "Serpente Marinha" in page
    assert "Survive: Fuga de Atlântida!" in page          # the shelf's own name of the game
    dice = page_text(client.get("/dice?imported=1&lang=pt-BR"))      # a loaded record: counted when asked
    assert "Baleia" in dice and "whale" not in dice


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_an_unfinished_game_of_any_game_resumes_with_one_tap(client, paired, game_session, game):
    record = record_of(game)
    half = Record(record.header, record.inputs[:len(record.inputs) // 2])
    game_session.load_record(half.to_jsonl())           # game 1: unfinished
    game_session.load_record(record.to_jsonl())         # game 2: finished, now on the table
    listing = client.get("/games").get_data(as_text=True)
    assert 'data-resume="1"' in listing and 'data-resume="2"' not in listing
    assert 'data-resume="1"' in client.get("/games/1").get_data(as_text=True)
    assert 'data-resume="2"' not in client.get("/games/2").get_data(as_text=True)
    r = post(paired, "/api/resume", {"game_id": 1})
    assert r.status_code == 200, r.json
    assert game_session.game_id == 1 and game_session.game.game_id == game
    assert game_session.game.record.inputs == half.inputs


def test_an_unfinished_atlantis_game_shows_its_scores_so_far(client, game_session):
    """Atlantis keeps a provisional score sheet before the end (`companion replay --score`): the
    games list and the saved game show its totals so far, as Atlandice's; the winner waits."""
    golden = Path(__file__).resolve().parents[1] / "golden" / "atlantis"
    record = Record.from_jsonl((golden / "so-far.jsonl").read_text(encoding="utf-8"))
    state = Game(record).state
    assert not state["over"]
    gid = game_session.store.create(record.header, record.inputs)
    assert [s["total"] for s in games.load("atlantis").score(state)["scores"]] == [5, 6, 4]
    listed = page_text(client.get("/games?lang=en"))
    assert "P1 5 P2 6 P3 4 (scores so far)" in listed and "wins" not in listed
    assert "(pontos até agora)" in page_text(client.get("/games?lang=pt-BR"))
    saved = client.get(f"/games/{gid}?lang=en").get_data(as_text=True)
    assert "★" not in saved and 'class="winner"' not in saved
    # its provisional score sheet: each player's tiles, cards and total so far, and no winner
    sheet = page_text(client.get(f"/games/{gid}?lang=en"))
    assert "So far: the tiles held and the cards in hand" in sheet and "Winner with" not in sheet
    for s in games.load("atlantis").score(state)["scores"]:
        assert f"P{s['seat'] + 1} {s['tile_points']}" in sheet and f" {s['cards']} 0 {s['total']} " in sheet, s
    assert "Até agora: as peças guardadas" in page_text(client.get(f"/games/{gid}?lang=pt-BR"))
    early = page_text(client.get(f"/games/{gid}?step=1&lang=en"))     # any step: the sheet as it stood
    assert "So far: the tiles held" in early


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("game", sorted(RECORDS))
def test_the_players_page_says_what_each_game_adds_to_a_players_record(client, game_session, game, lang):
    """The lines a game adds (its PLAYER_LINES: Atlandice's stock and tiles, Survive's explorers
    saved and lost, Atlantis's points by source) over two finished games and an unfinished one,
    in the game's words: a mean per finished game, or a count, the most first."""
    record = record_of(game)
    rules = games.load(game)
    state = Game(record).state
    assert state["over"]
    for inputs in (record.inputs, record.inputs, record.inputs[:len(record.inputs) // 2]):
        game_session.store.create(record.header, inputs)      # played here: counted without ?imported
    words = words_for(game, lang)
    page = page_text(client.get(f"/players?lang={lang}"))
    extra = rules.player_extra(state)
    names = rules.players(state)
    lines = rules.player_lines
    assert extra and lines and len(extra) == len(names)
    for seat, name in enumerate(names):
        for line, how in lines.items():
            items = extra[seat][line]
            if how["how"] == "average":       # two finished games alike: the mean is one game's
                if how.get("shapes"):
                    said = " ".join(f"{float(n)} {words.word(how['group'], k)}" for k, n in items.items())
                else:
                    said = " · ".join(f"{words.word(how['group'], k)} {float(n)}" for k, n in items.items())
            else:                             # a count: each item twice
                said = ", ".join(f"{words.word(how['group'], k)} ×{2 * n}" for k, n in items.items() if n)
            if said:
                assert f"{words.page('players_' + line)} {said}" in page, (name, line, said)
    assert "players_" not in page
