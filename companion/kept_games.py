"""The games kept in the store, each with its summary: derived from its record once, then
kept until the record changes (a cache, never a second truth).

Both places a summary is kept are checked against the record on every read:
- in memory, with the version of the record it was derived from (when it was last written,
  whether it is over, its number of inputs, its last input, and the count of changes to its
  inputs the games file keeps by triggers, so an edit in the middle of a record is noticed);
- in the games file (its table `summaries`, whose code is at the end here), so that the first request after a
  restart does not replay every record: with a fingerprint of the record (its header and
  the version above) and of the code that derives a summary (the games' rules, the
  history, the replay), so a kept summary outlives a restart but neither a change of its
  record nor an upgrade of the rules. It is written only to a healthy, writable file
  (`store.problem` is None); a write that fails is skipped, and `rebuild` drops them all:
  nothing is lost, everything is derived again.
A summary that does not match is derived again. The game on the table, the only one that
changes, is always summarized afresh and never kept: an undo and another input within the
same second leave no stale summary behind.
"""

import hashlib
import json
import logging
import threading
from functools import cache
from pathlib import Path

from .history.summary import FORMAT, from_text, summarize, to_text
from .record import RecordError
from .store import GameStore, StoreError, game_versions

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
# The code a summary is derived by: a kept summary derived by other code is derived again.
DERIVED_BY = ("games", "history", "game.py", "record.py")


@cache
def code_digest() -> str:
    digest = hashlib.sha256(str(FORMAT).encode())
    for name in DERIVED_BY:
        path = HERE / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(str(file.relative_to(HERE)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def fingerprint(header: str, version: tuple) -> str:
    """What a kept summary must match: its record (header text, when last written, over, number
    of inputs, last input's text) and the code that derived it."""
    text = json.dumps([code_digest(), header, *version], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class KeptGames:
    def __init__(self, store: GameStore):
        self.store = store
        self._lock = threading.Lock()
        self._summaries: dict[int, tuple[tuple, dict]] = {}
        self._in_file: dict[int, tuple[str, str]] | None = None   # read once, taken as used

    def summaries(self) -> list[dict]:
        """Every game's summary, newest first, with its id, created, updated, imported (loaded from
        a shared record, not played here) and played (the date that record gives, or None)."""
        return self.page(0, None)[1]

    def page(self, start: int, stop: int | None) -> tuple[int, list[dict]]:
        """How many games there are, and the summaries of games start..stop (newest first):
        only those are summarized, so a first look at the list does not replay every record."""
        rows = game_versions(self.store)
        in_play = self.store.last_in_use()
        out, to_keep = [], []
        for gid, created, updated, over, header, n, last, edits, imported, played in rows[start:stop]:
            version = (updated, over, n, last, edits)
            with self._lock:
                kept = self._summaries.pop(gid, None) if gid == in_play else self._summaries.get(gid)
            if kept is not None and kept[0] == version:
                out.append(kept[1])
                continue
            if gid == in_play:
                found, _ = self._summarize(gid)
            else:
                mark = fingerprint(header, version)
                found = self._from_file(gid, mark)
                if found is None:
                    found, keepable = self._summarize(gid)
                    if keepable:
                        to_keep.append((gid, mark, to_text(found)))
            summary = dict(found, id=gid, created=created, updated=updated, imported=imported, played=played)
            if gid != in_play:
                with self._lock:
                    self._summaries[gid] = (version, summary)
            out.append(summary)
        self._keep(to_keep)
        with self._lock:
            for gone in set(self._summaries) - {row[0] for row in rows}:
                del self._summaries[gone]
        return len(rows), out

    def rebuild(self) -> None:
        """Forget every kept summary, in memory and in the file: each is derived again when asked."""
        with self._lock:
            self._summaries.clear()
            self._in_file = {}
        drop_summaries(self.store)

    def _from_file(self, gid: int, mark: str) -> dict | None:
        """The summary the file keeps for `gid`, if it was derived from this very record."""
        with self._lock:
            if self._in_file is None:
                try:
                    self._in_file = kept_summaries(self.store)
                except StoreError as exc:
                    log.warning("the kept summaries cannot be read, deriving them again: %s", exc)
                    self._in_file = {}
            kept = self._in_file.pop(gid, None)
        if kept is None or kept[0] != mark:
            return None
        try:
            return from_text(kept[1])
        except (ValueError, KeyError, TypeError):
            return None

    def _keep(self, rows: list[tuple[int, str, str]]) -> None:
        if not rows or self.store.problem is not None:     # a damaged or read-only file: never written
            return
        try:
            keep_summaries(self.store, rows)
        except StoreError as exc:       # a cache: the records are the truth, and are untouched
            log.warning("the games' summaries were not kept: %s", exc)

    def _summarize(self, gid: int) -> tuple[dict, bool]:
        """The game's summary, and whether it may be kept (not a row the store could not read)."""
        try:
            record, _ = self.store.load(gid)
        except StoreError as exc:       # a damaged row: the list still shows the game, and why
            return dict(summarize({}, []), error=str(exc)), False
        except RecordError as exc:      # a row that is no record's line: shown as unreadable, and why
            return dict(summarize({"game": "?"}, []), error=str(exc),
                        unreadable={"line": exc.line, "key": exc.key, "params": exc.params}), False
        return summarize(record.header, record.inputs), True


# --- the table `summaries` in the games file ---------------------------------------------

# Each game's summary (companion/history/summary.py) with the fingerprint of the record it was
# derived from: a cache, created on its first write, never by opening a file (a read-only or
# damaged file is never written), and dropped without losing anything.
SUMMARIES = """
CREATE TABLE IF NOT EXISTS summaries (
    game_id     INTEGER PRIMARY KEY,    -- games(id)
    fingerprint TEXT NOT NULL,
    summary     TEXT NOT NULL
)"""


def kept_summaries(store: GameStore) -> dict[int, tuple[str, str]]:
    """{game id: (fingerprint, summary as text)} as kept in the file ({} when none are)."""
    with store.reading() as db:
        if not store.has_table(db, "summaries"):
            return {}
        return {gid: (fp, text) for gid, fp, text in db.execute(
            "SELECT game_id, fingerprint, summary FROM summaries")}


def keep_summaries(store: GameStore, rows: list[tuple[int, str, str]]) -> None:
    """Keep (game id, fingerprint, summary text) rows, in one transaction. StoreError when the
    file is not to be written (store.problem) or the write fails."""
    with store.transaction() as cur:
        cur.execute(SUMMARIES)
        cur.executemany("INSERT OR REPLACE INTO summaries (game_id, fingerprint, summary) VALUES (?, ?, ?)",
                        rows)


def drop_summaries(store: GameStore) -> None:
    """Forget every kept summary: they are derived again from the records when next asked."""
    with store.transaction() as cur:
        cur.execute("DROP TABLE IF EXISTS summaries")
