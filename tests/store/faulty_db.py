"""A SQLite connection that fails, or stops, after so many input rows: a disk that fills or
breaks midway, a process killed midway. Put in a GameStore's place with `break_store`."""

import sqlite3
import sys
import time


def storage_fault(message: str = "disk I/O error", name: str = "SQLITE_IOERR_WRITE") -> sqlite3.OperationalError:
    """The error SQLite raises (its result code's name included, as sqlite3 sets it)."""
    error = sqlite3.OperationalError(message)
    error.sqlite_errorname = name
    return error


class _Cursor:
    def __init__(self, cursor, conn):
        self._cursor, self._conn = cursor, conn

    def execute(self, sql, args=()):
        if sql.startswith("INSERT INTO inputs"):
            self._conn.row()
        return self._cursor.execute(sql, args)

    def executemany(self, sql, rows):
        def counted():
            for row in rows:
                if sql.startswith("INSERT INTO inputs"):
                    self._conn.row()
                yield row
        return self._cursor.executemany(sql, counted())

    def __getattr__(self, name):
        return getattr(self._cursor, name)


class FaultyConnection:
    """After `after` input rows: raise `error`, or (error None) say "midway" and hang until killed."""

    def __init__(self, real, after: int, error: Exception | None):
        self._real, self.after, self.error, self.rows = real, after, error, 0

    def row(self):
        self.rows += 1
        if self.rows > self.after:
            if self.error is not None:
                raise self.error
            print("midway", flush=True)
            time.sleep(600)
            sys.exit(1)

    def cursor(self):
        return _Cursor(self._real.cursor(), self)

    def execute(self, sql, *args):
        return self.cursor().execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._real, name)


def break_store(store, after: int, error: Exception | None) -> None:
    store._db = FaultyConnection(store._db, after, error)
