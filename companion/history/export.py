"""Every record in one zip, and the games and scores as a CSV a spreadsheet or a
score-keeping app imports: one row per player per game (the "long" layout such apps read).

Both are built in memory from the records and their summaries; nothing is read or written here.
"""

import csv
import io
import zipfile

from .players import name_key, player_of, records

CSV_COLUMNS = ("game_id", "game", "date", "finished", "player", "name", "seat", "score", "won",
               "shared_win", "players")


FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or return first)
    gets a quote in front, so it is shown as text; numbers are written as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_LEADS):
        return "'" + value
    return value


def record_name(summary: dict) -> str:
    return f"{summary['game']}-game-{summary['id']}.jsonl"


def games_csv(summaries: list[dict], aliases: dict | None = None) -> str:
    """`player` is the player after merged spellings; `name` the name as the record has it."""
    aliases = aliases or {}
    names = {p["key"]: p["name"] for p in records(summaries, aliases)}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for s in summaries:
        finished = s["over"] and not s["error"]
        shared = len(s["winners"]) > 1
        for seat, name in enumerate(s["players"]):
            player = names[player_of(name_key(name), aliases)]
            score = s["scores"][seat] if s["scores"] is not None and finished else ""
            won = seat in s["winners"]
            writer.writerow(tuple(map(cell, (s["id"], s["game"], s["created"], int(finished), player, name,
                                             seat + 1, score, int(won), int(won and shared),
                                             len(s["players"])))))
    return out.getvalue()


def records_zip(records: list[tuple[dict, str]], csv_text: str) -> bytes:
    """`records`: (summary, the record as JSON Lines) for each game; the CSV goes in beside them."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for summary, text in records:
            z.writestr(f"records/{record_name(summary)}", text)
        z.writestr("games.csv", csv_text)
    return out.getvalue()
