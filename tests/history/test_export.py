"""The export: every record in a zip (each replays as it was) and the scores as CSV."""

import csv
import io
import zipfile

from companion.game import Game
from companion.history.export import CSV_COLUMNS, games_csv, record_name, records_zip
from companion.history.summary import summarize
from companion.record import Record

from .conftest import random_record, summary


def test_the_csv_has_a_row_per_player_per_game_with_merged_names():
    games = [summary(["Ana", "Bruno", "Eric"], [20, 20, 9], [0, 1], gid=1),
             summary(["Anna", "Bruno"], [5, 8], [], over=False, gid=2)]
    rows = list(csv.DictReader(io.StringIO(games_csv(games, {"anna": "Ana"}))))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [(r["game_id"], r["player"], r["name"], r["score"], r["won"], r["shared_win"]) for r in rows] == [
        ("1", "Ana", "Ana", "20", "1", "1"), ("1", "Bruno", "Bruno", "20", "1", "1"),
        ("1", "Eric", "Eric", "9", "0", "0"),
        ("2", "Ana", "Anna", "", "0", "0"), ("2", "Bruno", "Bruno", "", "0", "0")]
    assert rows[3]["finished"] == "0" and rows[0]["date"].startswith("2026-01-01")


def test_the_zip_holds_every_record_and_the_csv(profile):
    records = [random_record(profile, seed) for seed in (1, 2)]
    summaries = [dict(summarize(r.header, r.inputs), id=i + 1, created="2026-01-01T20:00:00+00:00")
                 for i, r in enumerate(records)]
    data = records_zip([(s, r.to_jsonl()) for s, r in zip(summaries, records)], games_csv(summaries))
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        assert names == ["records/atlandice-game-1.jsonl", "records/atlandice-game-2.jsonl", "games.csv"]
        for s, record in zip(summaries, records):
            back = Record.from_jsonl(z.read(f"records/{record_name(s)}").decode())
            assert back.inputs == record.inputs
            assert Game(back).state["result"]["total"] == Game(record).state["result"]["total"]
        assert len(z.read("games.csv").decode().splitlines()) == 1 + 6


def test_a_name_a_spreadsheet_would_run_is_written_as_text():
    names = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "Ana"]
    games = [summary(names, [-3, 2, 1, 0, 4, 5], [5], gid=1)]
    rows = list(csv.DictReader(io.StringIO(games_csv(games))))
    assert [r["name"] for r in rows] == ["'=HYPERLINK(\"http://x\")", "'+1+1", "'-2+3", "'@SUM(A1)",
                                         "'\tTab", "Ana"]
    assert [r["player"] for r in rows][:4] == ["'=HYPERLINK(\"http://x\")", "'+1+1", "'-2+3", "'@SUM(A1)"]
    assert rows[0]["score"] == "-3"      # a number stays a number
