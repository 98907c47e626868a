"""Games kept in SQLite: each input is committed before it is acknowledged.

WAL journal with synchronous=FULL: once `append` returns, the input survives
the process being killed or the power being cut. The record (header + inputs)
is the truth; states are never stored, they are replayed.
"""

import json
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from .record import Record, RecordError

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


# A change to a game's inputs made anywhere (this companion, or a tool editing the file while it
# is stopped: triggers live in the file) counts in games.edits, so a summary derived earlier
# notices an edit in the middle of a record (companion/kept_games.py).
EDITS = """
CREATE TRIGGER IF NOT EXISTS inputs_inserted AFTER INSERT ON inputs
    BEGIN UPDATE games SET edits = edits + 1 WHERE id = NEW.game_id; END;
CREATE TRIGGER IF NOT EXISTS inputs_updated AFTER UPDATE ON inputs
    BEGIN UPDATE games SET edits = edits + 1 WHERE id IN (OLD.game_id, NEW.game_id); END;
CREATE TRIGGER IF NOT EXISTS inputs_deleted AFTER DELETE ON inputs
    BEGIN UPDATE games SET edits = edits + 1 WHERE id = OLD.game_id; END;
"""


# A game loaded from a shared record (POST /api/record) is kept apart from the games played
# here: imported = 1, and played = the date its record's header gives (meta "created" or
# "date"), NULL when it gives none.
IMPORTED = """
BEGIN;
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN played TEXT;
COMMIT;
"""


# When a row was written: UTC, to the second (what every table of the games file keeps).
def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# SQLite's result codes (their extended forms too) -> what the table is told (catalog "errors").
_KINDS = (("SQLITE_FULL", "storage_full"), ("SQLITE_CORRUPT", "storage_damaged"),
          ("SQLITE_NOTADB", "storage_damaged"), ("SQLITE_READONLY", "storage_read_only"),
          ("SQLITE_IOERR", "storage_io"), ("SQLITE_BUSY", "storage_busy"), ("SQLITE_LOCKED", "storage_busy"))


class StoreError(Exception):
    """The games file cannot be used or written: what happened, which file and what to do.

    `key` names the fault (storage_full, storage_io, storage_read_only, storage_damaged,
    storage_busy, storage_other: the catalogs' "errors" say each in both languages);
    `detail` holds SQLite's own words."""

    def __init__(self, key: str, path: str, detail: str = "", source: str = "SQLite"):
        from .i18n import explain     # here: the store is imported by the light command line
        self.key, self.path, self.detail = key, path, detail
        text = explain({"key": key, "params": {"path": path}}, "en")
        super().__init__(f"{text} ({source}: {detail})" if detail else text)

    @property
    def full(self) -> bool:
        """The disk is full (507), rather than the file unwritable (503)."""
        return self.key.endswith("_full")

    def to_dict(self) -> dict:
        return {"error": "storage", "message": str(self), "rule": None, "key": self.key,
                "params": {"path": self.path}, "detail": self.detail}


class GameStore:
    """One SQLite file; safe to share between threads (one lock, one connection).

    The games file holds the records' tables, created here on opening, and the tables of the
    parts that keep something beside the games, each table's code with its owner: the paired
    tablets (web/tablets.py), the history's kept summaries (companion/kept_games.py) and the
    players' merged names (companion/merged_names.py). An owner creates its table in its first
    write (`transaction`) and reads through `reading`, finding none in a file from before it or
    one never written (`has_table`).

    `problem` is a StoreError when the file was found damaged or read-only on opening: its
    games can still be read, and every write is refused with that reason, so a damaged
    file is never written over."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.problem: StoreError | None = None
        try:
            self._db.execute("PRAGMA foreign_keys=ON")
            # Looked at before anything is written: a damaged file is left exactly as it is,
            # not even given a new table.
            self.problem = self._damage()
            if self.problem is None:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                try:
                    self._db.executescript(SCHEMA)
                    if not self.has_column(self._db, "games", "edits"):
                        self._db.execute("ALTER TABLE games ADD COLUMN edits INTEGER NOT NULL DEFAULT 0")
                    # A record loaded (shared, not played here) and its own date; a file from
                    # before them is given them, its games played here.
                    if not self.has_column(self._db, "games", "imported"):
                        self._db.executescript(IMPORTED)
                    self._db.executescript(EDITS)
                except sqlite3.DatabaseError as exc:
                    # A read-only file from before a newer table: shown as it is, never written.
                    if self._error(exc).key != "storage_read_only":
                        raise
                    self.problem = self._error(exc)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise self._error(exc) from None
        self.problem = self.problem or self._check()

    def _damage(self) -> StoreError | None:
        """A damaged page anywhere in the file (read only). A file too damaged to be read as a
        database at all raises: the companion cannot start on it."""
        found = [row[0] for row in self._db.execute("PRAGMA quick_check(1)")]
        if found != ["ok"]:
            return StoreError("storage_damaged", self.path, "; ".join(found))
        return None

    def _check(self) -> StoreError | None:
        """A file that cannot be written, found before play."""
        try:
            with self.transaction(check=False) as cur:
                cur.execute("DELETE FROM in_use WHERE 0")   # writes nothing, but needs write access
        except StoreError as exc:
            return exc
        return None

    def _error(self, exc: sqlite3.Error) -> StoreError:
        name = getattr(exc, "sqlite_errorname", "") or ""
        key = next((key for code, key in _KINDS if name.startswith(code)), "storage_other")
        return StoreError(key, self.path, str(exc))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self, check: bool = True):
        """One write transaction: all of it is kept, or none. A write that fails (a full
        disk, an I/O error) raises StoreError saying so and leaves the file as it was."""
        with self._lock:
            if check and self.problem is not None:
                raise StoreError(self.problem.key, self.path, self.problem.detail)
            cur = self._db.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                yield cur
                cur.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    try:
                        self._db.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass  # SQLite rolled back by itself: the fault below is the one to say
                if isinstance(exc, sqlite3.Error):
                    raise self._error(exc) from None
                raise

    @contextmanager
    def reading(self):
        """The connection, for reading only, under the store's lock; a fault raises StoreError."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.DatabaseError as exc:
                raise self._error(exc) from None

    def _tx(self, statements: list[tuple[str, tuple]]) -> list:
        """Run statements in one transaction: all of them are kept, or none."""
        with self.transaction() as cur:
            return [cur.execute(sql, args).lastrowid for sql, args in statements]

    def create(self, header: dict, inputs: list = (), over: bool = False, imported: bool = False,
               played: str | None = None) -> int:
        """A new game, which is now the game on the table; with `inputs` (a record loaded),
        all in one transaction: a load cut short leaves the table as it was. `imported`: a
        shared record loaded, not a game played here; `played`: the date its record gives."""
        when = now()
        with self.transaction() as cur:
            game_id = cur.execute("INSERT INTO games (created, updated, header, over, imported, played) "
                                  "VALUES (?, ?, ?, ?, ?, ?)",
                                  (when, when, json.dumps(header, ensure_ascii=False), int(over), int(imported),
                                   played)).lastrowid
            cur.executemany("INSERT INTO inputs (game_id, seq, input) VALUES (?, ?, ?)",
                            ((game_id, seq, json.dumps(inp, ensure_ascii=False)) for seq, inp in enumerate(inputs)))
            cur.execute("INSERT OR REPLACE INTO in_use (one, game_id) VALUES (1, ?)", (game_id,))
        return game_id

    def append(self, game_id: int, seq: int, inp: dict, keep_redo: bool = False,
               over: bool | None = None) -> None:
        """Save input number `seq` (0-based); a new input clears the redo stack. `over`: the game
        ends (True) or goes on again (False) with it, said in the same transaction."""
        statements = [("INSERT INTO inputs (game_id, seq, input) VALUES (?, ?, ?)",
                       (game_id, seq, json.dumps(inp, ensure_ascii=False))),
                      ("UPDATE games SET updated = ? WHERE id = ?", (now(), game_id))]
        if not keep_redo:
            statements.append(("DELETE FROM redo WHERE game_id = ?", (game_id,)))
        else:
            statements.append(("DELETE FROM redo WHERE game_id = ? AND seq = "
                                "(SELECT MAX(seq) FROM redo WHERE game_id = ?)", (game_id, game_id)))
        if over is not None:
            statements.append(("UPDATE games SET over = ? WHERE id = ?", (int(over), game_id)))
        self._tx(statements)

    def undo(self, game_id: int, seq: int, inp: dict) -> None:
        """Input `seq` moves from the record to the redo stack, in one transaction."""
        self.take_back(game_id, seq, [inp])

    def take_back(self, game_id: int, seq: int, inputs: list[dict], over: bool | None = None) -> None:
        """Inputs `seq`, `seq` + 1, ... (the last of the record) move to the redo stack, latest
        first, in one transaction: an undo is kept whole or not at all (`over` as for `append`)."""
        statements = []
        for i in reversed(range(len(inputs))):
            statements += [("DELETE FROM inputs WHERE game_id = ? AND seq = ?", (game_id, seq + i)),
                           ("INSERT INTO redo (game_id, seq, input) VALUES (?, "
                            "(SELECT COALESCE(MAX(seq), -1) + 1 FROM redo WHERE game_id = ?), ?)",
                            (game_id, game_id, json.dumps(inputs[i], ensure_ascii=False)))]
        statements.append(("UPDATE games SET updated = ? WHERE id = ?", (now(), game_id)))
        if over is not None:
            statements.append(("UPDATE games SET over = ? WHERE id = ?", (int(over), game_id)))
        self._tx(statements)

    def set_over(self, game_id: int, over: bool = True) -> None:
        self._tx([("UPDATE games SET over = ? WHERE id = ?", (int(over), game_id))])

    def load(self, game_id: int) -> tuple[Record, list]:
        """The record and the redo stack (oldest first) of a game. A row that is not a record's
        line (not UTF-8, not JSON, not an object) raises RecordError naming the line of the
        record it would be (the header is line 1) as UnreadableRow: that game cannot be replayed,
        nothing else stops."""
        with self.reading() as db:
            row = db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"no game {game_id}")
            try:
                header = parse_row(row[0], 1)
                inputs = [parse_row(r[1], r[0] + 2) for r in db.execute(
                    "SELECT seq, CAST(input AS BLOB) FROM inputs WHERE game_id = ? ORDER BY seq", (game_id,))]
                redo = [parse_row(r[1], None) for r in db.execute(
                    "SELECT seq, CAST(input AS BLOB) FROM redo WHERE game_id = ? ORDER BY seq", (game_id,))]
            except RecordError as exc:
                raise UnreadableRow(game_id, exc) from None
        return Record(header, inputs), redo

    def raw_record(self, game_id: int) -> bytes:
        """A game's rows exactly as the file keeps them, one a line (header first): what an
        export keeps of a game whose record cannot be read (nothing recorded is left out)."""
        with self.reading() as db:
            row = db.execute("SELECT CAST(header AS BLOB) FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"no game {game_id}")
            rows = [row[0]] + [r[0] for r in db.execute(
                "SELECT CAST(input AS BLOB) FROM inputs WHERE game_id = ? ORDER BY seq", (game_id,))]
        return b"".join(bytes(r or b"").replace(b"\n", b"\\n") + b"\n" for r in rows)

    def last_in_use(self) -> int | None:
        """The game begun or resumed last, finished or not (a file from before the in_use
        table: the game updated last)."""
        with self.reading() as db:
            marked = db.execute("SELECT game_id FROM in_use").fetchone() if self.has_table(db, "in_use") else None
            row = marked or db.execute(
                "SELECT id FROM games ORDER BY updated DESC, id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def use(self, game_id: int) -> None:
        """Mark `game_id` as the game on the table (it was resumed); already marked, nothing is
        written (a file that cannot be written still shows its last game)."""
        if self.problem is not None:    # nothing can be written: the game is shown all the same
            return
        with self.reading() as db:
            if self.has_table(db, "in_use") and db.execute("SELECT game_id FROM in_use").fetchone() == (game_id,):
                return
        self._tx([("INSERT OR REPLACE INTO in_use (one, game_id) VALUES (1, ?)", (game_id,))])

    def imported_count(self) -> int:
        """How many games were loaded from shared records (none in a file from before)."""
        with self.reading() as db:
            if not self.has_column(db, "games", "imported"):
                return 0
            return db.execute("SELECT COUNT(*) FROM games WHERE imported = 1").fetchone()[0]

    def latest_unfinished(self) -> int | None:
        with self.reading() as db:
            row = db.execute("SELECT id FROM games WHERE over = 0 ORDER BY updated DESC, id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def games(self) -> list[dict]:
        with self.reading() as db:
            imported = self._imported_columns(db)
            rows = db.execute(
                "SELECT g.id, g.created, g.updated, g.over, CAST(g.header AS BLOB), "
                f"(SELECT COUNT(*) FROM inputs i WHERE i.game_id = g.id), {imported} FROM games g "
                "ORDER BY g.id DESC").fetchall()
        from . import games as shelf
        out = []
        for gid, created, updated, over, header, n, was_imported, played in rows:
            entry = {"id": gid, "created": created, "updated": updated, "over": bool(over),
                     "players": [], "inputs": n, "game": None, "imported": bool(was_imported), "played": played}
            try:
                h = parse_row(header, 1)
            except RecordError as exc:       # listed, with why, and never offered to resume
                out.append(dict(entry, unreadable=str(exc)))
                continue
            start = h.get("setup") or h.get("position") or {}
            players = start.get("players", []) if isinstance(start, dict) else []
            game = shelf.game_of(h)
            entry.update(players=[p for p in players if isinstance(p, str)] if isinstance(players, list) else [],
                         game=game if isinstance(game, str) else repr(game))
            if entry["game"] not in {g.id for g in shelf.shelf()}:
                entry["unreadable"] = f"line 1: unknown game {game!r}"
            out.append(entry)
        return out

    @staticmethod
    def has_column(db, table: str, column: str) -> bool:
        return any(row[1] == column for row in db.execute(f"PRAGMA table_info({table})"))

    @classmethod
    def _imported_columns(cls, db) -> str:
        """The columns saying whether a game was loaded and its own date (in a file that could not
        be given them, a read-only one from before: played here, no date)."""
        return "g.imported, g.played" if cls.has_column(db, "games", "imported") else "0, NULL"

    def has_table(self, db, name: str) -> bool:
        """Whether the file holds table `name` (a read-only or damaged file may predate it)."""
        return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


class UnreadableRow(RecordError):
    """A row of game `game_id` in the games file that is no record's line (not UTF-8 text, not
    JSON, not an object): which line of its record, and why. That game cannot be replayed;
    everything else goes on."""

    def __init__(self, game_id: int, exc: RecordError):
        super().__init__(exc.line, exc.message, exc.key, exc.params, exc.detail)
        self.game_id = game_id


def parse_row(raw: bytes | str, line: int | None) -> dict:
    """A stored line of a record (`line`: its number in the record, None for the redo stack) as
    the object it must be; RecordError says why not (not UTF-8 text, not JSON, not an object)."""
    where = line or 0
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(where, "this line is not UTF-8 text", "record_encoding") from None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise RecordError(where, "not valid JSON", "record_json", detail=str(exc)[:200]) from None
    if not isinstance(value, dict):
        if line == 1:
            raise RecordError(1, "the header must be a JSON object", "record_header",
                              {"format": "atlandice-record"})
        raise RecordError(where, "an input must be a JSON object with a 'type'", "record_input")
    return value


# --- read in bulk by the history's kept summaries (companion/kept_games.py) ---------------

def game_versions(store: GameStore) -> list[tuple]:
    """Every game, newest first: (id, created, updated, over, header text, number of inputs,
    the last input's text, the count of changes to its inputs, whether it was loaded from a shared
    record, the date that record gives). What tells a summary derived earlier from a game's record
    whether the record has changed since."""
    with store.reading() as db:
        # edits: every change to the game's inputs (the triggers of EDITS), so an edit in the middle
        # of a record is noticed too; 0 in a file that could not be given the column (read-only)
        edits = "g.edits" if store.has_column(db, "games", "edits") else "0"
        rows = db.execute(
            "SELECT g.id, g.created, g.updated, g.over, CAST(g.header AS BLOB), "
            "(SELECT COUNT(*) FROM inputs i WHERE i.game_id = g.id), "
            "(SELECT CAST(input AS BLOB) FROM inputs i WHERE i.game_id = g.id ORDER BY seq DESC LIMIT 1), "
            f"{edits}, {store._imported_columns(db)} FROM games g ORDER BY g.id DESC").fetchall()
    # Text for the fingerprints (a row that is not UTF-8 is refused when its record is read).
    return [(gid, created, updated, over, _text(header), n, None if last is None else _text(last), edits,
             bool(imported), played)
            for gid, created, updated, over, header, n, last, edits, imported, played in rows]


def _text(raw: bytes | str) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
