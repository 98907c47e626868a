"""Every record in one zip, and the games and scores as a CSV a spreadsheet or a
score-keeping app imports: one row per player per game (the "long" layout such apps read).

The CSV is built from the summaries; the zip is streamed: `records_zip_stream` yields it a record
at a time, so an export holds one record in memory, never the whole zip. Nothing is read or
written here (the records come from the caller, one by one).
"""

import csv
import io
import zipfile
from collections.abc import Iterable, Iterator

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
    """records/<game>-game-<id>.jsonl; a game name that is no plain word (a damaged header's:
    a newline, a slash) is not put in a file name: 'unknown'."""
    game = summary.get("game")
    plain = isinstance(game, str) and 0 < len(game) <= 40 and all(c.isascii() and (c.isalnum() or c in "_-")
                                                                  for c in game)
    return f"{game if plain else 'unknown'}-game-{summary['id']}.jsonl"


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


class _Pipe(io.RawIOBase):
    """Where the zip is written: what came since the last `take()`; not seekable, so the zip is
    written in one pass (each entry's sizes after its data)."""

    def __init__(self):
        super().__init__()
        self._chunks: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self._chunks.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out = b"".join(self._chunks)
        self._chunks.clear()
        return out


def records_zip_stream(records: Iterable[tuple[dict, str]], csv_text: str) -> Iterator[bytes]:
    """The zip of `records_zip`, in pieces: each record is compressed and given up before the next
    is asked for (`records` may be a generator that loads them one by one)."""
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", zipfile.ZIP_DEFLATED) as z:
        for summary, text in records:
            name = record_name(summary)
            if summary.get("unreadable"):      # kept as the file has it, beside the records
                name = name.replace(".jsonl", ".unreadable.txt")
            z.writestr(f"records/{name}", text)
            if piece := pipe.take():
                yield piece
        z.writestr("games.csv", csv_text)
    yield pipe.take()


def records_zip(records: Iterable[tuple[dict, str]], csv_text: str) -> bytes:
    """`records`: (summary, the record as JSON Lines) for each game; the CSV goes in beside them.
    A summary marked `unreadable` comes with its rows as the games file keeps them (bytes)."""
    return b"".join(records_zip_stream(records, csv_text))
