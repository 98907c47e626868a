"""The games kept in the store, each with its summary: derived from its record once, then
kept in memory until the record changes (a cache, never a second truth).

A summary is remembered with the version of the record it was derived from (its number of
inputs, the last input, when it was last written and whether it is over); a record that
moved on is summarized again. The game on the table, the only one that changes, is always
summarized afresh and never kept: an undo and another input within the same second leave
no stale summary behind. So the games list replays only the records that changed since it
was last asked (and the game in play), not every record at each request.
"""

import threading

from .history.summary import summarize
from .store import GameStore, StoreError, game_versions


class KeptGames:
    def __init__(self, store: GameStore):
        self.store = store
        self._lock = threading.Lock()
        self._summaries: dict[int, tuple[tuple, dict]] = {}

    def summaries(self) -> list[dict]:
        """Every game's summary, newest first, with its id, created, updated."""
        return self.page(0, None)[1]

    def page(self, start: int, stop: int | None) -> tuple[int, list[dict]]:
        """How many games there are, and the summaries of games start..stop (newest first):
        only those are summarized, so a first look at the list does not replay every record."""
        rows = game_versions(self.store)
        in_play = self.store.last_in_use()
        out = []
        for gid, created, updated, over, header, n, last in rows[start:stop]:
            version = (updated, over, n, last)
            with self._lock:
                kept = self._summaries.pop(gid, None) if gid == in_play else self._summaries.get(gid)
            if kept is None or kept[0] != version:
                summary = dict(self._summarize(gid), id=gid, created=created, updated=updated)
                if gid != in_play:
                    with self._lock:
                        self._summaries[gid] = (version, summary)
            else:
                summary = kept[1]
            out.append(summary)
        with self._lock:
            for gone in set(self._summaries) - {row[0] for row in rows}:
                del self._summaries[gone]
        return len(rows), out

    def _summarize(self, gid: int) -> dict:
        try:
            record, _ = self.store.load(gid)
        except StoreError as exc:       # a damaged row: the list still shows the game, and why
            return dict(summarize({}, []), error=str(exc))
        return summarize(record.header, record.inputs)
