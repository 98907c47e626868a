"""The players' merged names, kept in the games file: two spellings of a name the table said are
one player (the history's /players page). A preference of this table, not game data: a record
keeps the names as they were typed, and companion/history/players.py applies the merges.

    merged_names.merge(store, "anna", "Ana")    # a name's key -> the name it was merged into
    merged_names.aliases(store)                 # {"anna": "Ana"}
"""

from .store import GameStore

# Created by the first merge (a file from before it, or one that cannot be written, has none).
TABLE = """
CREATE TABLE IF NOT EXISTS player_aliases (
    alias  TEXT PRIMARY KEY,     -- a name's key (companion.history.players.name_key)
    player TEXT NOT NULL         -- the name it was merged into
)"""


def aliases(store: GameStore) -> dict:
    """{a name's key: the name it was merged into}."""
    with store.reading() as db:
        if not store.has_table(db, "player_aliases"):
            return {}
        return dict(db.execute("SELECT alias, player FROM player_aliases").fetchall())


def merge(store: GameStore, alias: str, player: str) -> None:
    """The name whose key is `alias` is one player with `player`."""
    with store.transaction() as cur:
        cur.execute(TABLE)
        cur.execute("INSERT OR REPLACE INTO player_aliases (alias, player) VALUES (?, ?)", (alias, player))


def unmerge(store: GameStore, alias: str) -> None:
    with store.transaction() as cur:
        cur.execute(TABLE)
        cur.execute("DELETE FROM player_aliases WHERE alias = ?", (alias,))
