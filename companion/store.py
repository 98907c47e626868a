"""Games kept in SQLite: each input is committed before it is acknowledged.

WAL journal with synchronous=FULL: once `append` returns, the input survives
the process being killed or the power being cut. The record (header + inputs)
is the truth; states are never stored, they are replayed.
"""

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

from .record import Record

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id      INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    header  TEXT NOT NULL,
    over    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inputs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    input   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS redo (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    input   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- The game on the table: the one begun or resumed last (one row).
CREATE TABLE IF NOT EXISTS in_use (
    one     INTEGER PRIMARY KEY CHECK (one = 1),
    game_id INTEGER NOT NULL REFERENCES games(id)
);
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class StoreError(Exception):
    """The games file cannot be used: damaged, or not a games file."""


class GameStore:
    """One SQLite file; safe to share between threads (one lock, one connection)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(self._problem(exc)) from None

    def _problem(self, exc: sqlite3.DatabaseError) -> str:
        """What to tell the table: only a damaged file is worth moving aside (a locked or
        read-only one is not, and moving it would hide its games)."""
        if getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
            return (f"the games file {self.path} is damaged or not a games file ({exc}): "
                    f"move it aside (rename it) to start with a new one; "
                    f"`sqlite3 {self.path} .recover` may save the games in it")
        return f"cannot use the games file {self.path}: {exc}"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _tx(self, statements: list[tuple[str, tuple]]) -> list:
        """Run statements in one transaction: all of them are kept, or none."""
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                results = [cur.execute(sql, args).lastrowid for sql, args in statements]
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            return results

    def create(self, header: dict) -> int:
        """A new game, which is now the game on the table."""
        now = _now()
        return self._tx([("INSERT INTO games (created, updated, header) VALUES (?, ?, ?)",
                          (now, now, json.dumps(header, ensure_ascii=False))),
                         ("INSERT OR REPLACE INTO in_use (one, game_id) VALUES (1, last_insert_rowid())", ())])[0]

    def append(self, game_id: int, seq: int, inp: dict, keep_redo: bool = False) -> None:
        """Save input number `seq` (0-based); a new input clears the redo stack."""
        statements = [("INSERT INTO inputs (game_id, seq, input) VALUES (?, ?, ?)",
                       (game_id, seq, json.dumps(inp, ensure_ascii=False))),
                      ("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))]
        if not keep_redo:
            statements.append(("DELETE FROM redo WHERE game_id = ?", (game_id,)))
        else:
            statements.append(("DELETE FROM redo WHERE game_id = ? AND seq = "
                                "(SELECT MAX(seq) FROM redo WHERE game_id = ?)", (game_id, game_id)))
        self._tx(statements)

    def undo(self, game_id: int, seq: int, inp: dict) -> None:
        """Input `seq` moves from the record to the redo stack, in one transaction."""
        self.take_back(game_id, seq, [inp])

    def take_back(self, game_id: int, seq: int, inputs: list[dict]) -> None:
        """Inputs `seq`, `seq` + 1, ... (the last of the record) move to the redo stack, latest
        first, in one transaction: an undo is kept whole or not at all."""
        statements = []
        for i in reversed(range(len(inputs))):
            statements += [("DELETE FROM inputs WHERE game_id = ? AND seq = ?", (game_id, seq + i)),
                           ("INSERT INTO redo (game_id, seq, input) VALUES (?, "
                            "(SELECT COALESCE(MAX(seq), -1) + 1 FROM redo WHERE game_id = ?), ?)",
                            (game_id, game_id, json.dumps(inputs[i], ensure_ascii=False)))]
        statements.append(("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id)))
        self._tx(statements)

    def set_over(self, game_id: int, over: bool = True) -> None:
        self._tx([("UPDATE games SET over = ? WHERE id = ?", (int(over), game_id))])

    def load(self, game_id: int) -> tuple[Record, list]:
        """The record and the redo stack (oldest first) of a game."""
        with self._lock:
            try:
                row = self._db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None:
                    raise KeyError(f"no game {game_id}")
                inputs = [json.loads(r[0]) for r in self._db.execute(
                    "SELECT input FROM inputs WHERE game_id = ? ORDER BY seq", (game_id,))]
                redo = [json.loads(r[0]) for r in self._db.execute(
                    "SELECT input FROM redo WHERE game_id = ? ORDER BY seq", (game_id,))]
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"game {game_id}: {self._problem(exc)}") from None
        return Record(json.loads(row[0]), inputs), redo

    def last_in_use(self) -> int | None:
        """The game begun or resumed last, finished or not (a file from before the in_use
        table: the game updated last)."""
        with self._lock:
            try:
                row = self._db.execute("SELECT game_id FROM in_use").fetchone() or self._db.execute(
                    "SELECT id FROM games ORDER BY updated DESC, id DESC LIMIT 1").fetchone()
            except sqlite3.DatabaseError as exc:
                raise StoreError(self._problem(exc)) from None
        return row[0] if row else None

    def use(self, game_id: int) -> None:
        """Mark `game_id` as the game on the table (it was resumed)."""
        self._tx([("INSERT OR REPLACE INTO in_use (one, game_id) VALUES (1, ?)", (game_id,))])

    def latest_unfinished(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT id FROM games WHERE over = 0 ORDER BY updated DESC, id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def games(self) -> list[dict]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.updated, g.over, g.header, "
                "(SELECT COUNT(*) FROM inputs i WHERE i.game_id = g.id) FROM games g ORDER BY g.id DESC").fetchall()
        out = []
        for gid, created, updated, over, header, n in rows:
            h = json.loads(header)
            players = (h.get("setup") or h.get("position") or {}).get("players", [])
            out.append({"id": gid, "created": created, "updated": updated, "over": bool(over),
                        "players": players, "inputs": n})
        return out
