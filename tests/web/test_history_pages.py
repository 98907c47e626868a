"""The games, players and dice pages, and the export, through Flask's test client."""

from __future__ import annotations

import csv
import io
import random
import re
import zipfile

import pytest

from companion.record import Record
from companion.games.atlandice.simulate import random_input

from .conftest import SETUP, XHR


@pytest.fixture(autouse=True)
def _public_history(app):
    """These read the history as an unpaired watcher would with [web] public_history = true; the
    default (paired tablets only) is tested in tests/web/test_history_access.py."""
    app.config["PUBLIC_HISTORY"] = True


def play_out(sess, seed, stop_after=None, sources=("camera",)):
    rng = random.Random(seed)
    while sess.game.expected()["kind"] != "over" and (stop_after is None or sess.game.version < stop_after):
        inp = random_input(rng, sess.game.expected())
        if inp["type"] in ("gate_roll", "roll"):
            inp = dict(inp, source=rng.choice(sources))
        sess.submit(inp, sess.game.version)


def games(sess, n=2, players=None, last_unfinished=True):
    """`n` games, all finished but the last (30 inputs in) when `last_unfinished`."""
    for i in range(n):
        sess.new_game(dict(SETUP, players=players or SETUP["players"]))
        play_out(sess, i, stop_after=30 if last_unfinished and i == n - 1 else None)


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def test_games_newest_first_with_winner_scores_and_resume(client, game_session):
    games(game_session, 3)
    r = client.get("/games")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert re.findall(r'data-game="(\d+)"', html) == ["3", "2", "1"]
    first = game_session.store.load(1)[0]
    from companion.game import Game
    result = Game(first).state["result"]
    row = html.split('data-game="1"')[1].split("</tr>")[0]
    for name, total in zip(SETUP["players"], result["total"]):
        assert f"{name} <b>{total}</b>" in row
    assert 'data-resume="3"' in html and 'data-resume="1"' not in html
    assert "unfinished" in text(r)


def test_the_page_in_portuguese(client, game_session):
    games(game_session, 1)
    for url in ("/games", "/players", "/dice", "/games/1"):
        page = text(client.get(url + "?lang=pt-BR"))
        assert "Partidas" in page and "Jogadores" in page, url
    assert "Os dados foram justos?" in text(client.get("/dice?lang=pt-BR"))


def test_a_game_replays_step_by_step(client, game_session):
    games(game_session, 1, last_unfinished=False)
    record = game_session.store.load(1)[0]
    last = client.get("/games/1")
    assert "Step %d of %d" % (len(record.inputs), len(record.inputs)) in text(last)
    assert "Final scoring" in text(last)
    start = client.get("/games/1?step=0")
    assert "Step 0 of" in text(start) and "Before the first input" in text(start)
    one = text(client.get("/games/1?step=1"))
    dice = " ".join(str(d) for d in record.inputs[0]["dice"])
    assert "Step 1 of" in one and dice in one               # the gate roll and its events
    assert 'href="/games/1?step=2#replay"' in client.get("/games/1?step=1").get_data(as_text=True)
    assert "Step 0 of" in text(client.get("/games/1?step=-4"))   # clamped, never an error


def test_a_missing_game_is_404(client):
    assert client.get("/games/42").status_code == 404
    assert client.get("/games/42/record.jsonl").status_code == 404


def test_a_record_downloads_and_replays(client, game_session):
    games(game_session, 1)
    r = client.get("/games/1/record.jsonl")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    assert Record.from_jsonl(r.get_data(as_text=True)).inputs == game_session.store.load(1)[0].inputs


def test_the_dice_page_counts_every_confirmed_roll_and_corrections(client, game_session):
    game_session.new_game(SETUP)
    play_out(game_session, 4, sources=("camera", "corrected", "hand"))
    inputs = game_session.store.load(1)[0].inputs
    rolls = [i for i in inputs if i["type"] in ("gate_roll", "roll")]
    faces = sum(len(i.get("dice", [])) + (i["type"] == "roll") for i in rolls)
    page = text(client.get("/dice"))
    assert f"{faces} dice rolled" in page
    counts = {s: sum(1 for i in rolls if i["source"] == s) for s in ("camera", "corrected", "hand")}
    assert (f"{counts['camera']} as the camera read them, {counts['corrected']} corrected by the table, "
            f"{counts['hand']} typed in") in page
    assert "Nothing unusual" in page or "than fair dice would" in page


def test_players_and_merging_two_spellings(client, paired, game_session):
    games(game_session, 1, players=["Ana", "Bruno", "Eric"], last_unfinished=False)
    games(game_session, 1, players=["Anna", "Bruno", "Eric"], last_unfinished=False)
    page = client.get("/players").get_data(as_text=True)
    assert 'data-player="anna"' in page and 'data-player="ana"' in page
    # Only a paired tablet merges; the form carries its CSRF token.
    assert client.post("/players/merge", data={"name": "Anna", "into": "Ana"}, headers=XHR).status_code == 403
    token = re.search(r'name="csrf_token" value="([^"]+)"', paired.get("/players").get_data(as_text=True)).group(1)
    r = paired.post("/players/merge", data={"name": "Anna", "into": "Ana", "csrf_token": token})
    assert r.status_code == 303
    page = paired.get("/players").get_data(as_text=True)
    assert 'data-player="anna"' not in page and "Also written: Ana, Anna" in text(paired.get("/players"))
    refused = paired.post("/players/merge", data={"name": "Ana", "into": "Anna", "csrf_token": token})
    assert refused.status_code == 400 and "already the same player" in text(refused)
    assert paired.post("/players/unmerge", data={"name": "anna", "csrf_token": token}).status_code == 303
    assert 'data-player="anna"' in paired.get("/players").get_data(as_text=True)


def test_export_zip_and_csv(client, game_session):
    games(game_session, 2)
    r = client.get("/games/export.zip")
    assert r.status_code == 200 and r.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.data)) as z:
        assert sorted(z.namelist()) == ["games.csv", "records/atlandice-game-1.jsonl", "records/atlandice-game-2.jsonl"]
        assert Record.from_jsonl(z.read("records/atlandice-game-2.jsonl").decode()).inputs == \
            game_session.store.load(2)[0].inputs
    rows = list(csv.DictReader(io.StringIO(client.get("/games/games.csv").get_data(as_text=True))))
    assert [(r["game_id"], r["player"], r["finished"]) for r in rows] == [
        ("1", "Anna", "1"), ("1", "Bruno", "1"), ("1", "Eric", "1"),
        ("2", "Anna", "0"), ("2", "Bruno", "0"), ("2", "Eric", "0")]
