"""One game's summary, derived from its record alone: what the games list, the players'
records and the dice need, so that none of them replays the record again.

    summarize(header, inputs) -> {
        "game": game id, "players": ["Ana", "Bruno"], "over": True,
        "scores": [31, 27] (None while the game keeps none), "winners": [0],
        "faces": [1, ..., 6], "rolls": {face: times}, "readings": {"camera": n, "corrected": n, "typed": n},
        "extra": [per player, the game's own: Atlandice's stock and tiles] or None,
        "error": None (or why the record no longer replays: its rolls are still counted)}

Every game is asked the same questions through the shelf (companion/games/: totals,
winners, its die's faces, the faces each input rolled, what it adds to a player's record),
so nothing here knows a game by name. A summary is a cache of its record: anything in it
can be derived again from the record (to_text/from_text keep it as text).
"""

import json

import companion.games as games
from companion.game import Game
from companion.games.errors import RuleError
from companion.record import Record

# The shape of a summary: a summary kept as text in another shape is derived again.
FORMAT = 1

# An input's "source": the camera's reading entered as read, or after the table changed a die.
CAMERA = "camera"
CORRECTED = "corrected"


def game_id(header: dict) -> str:
    """The game a record's header names (none named: Atlandice), as text."""
    game = games.game_of(header)
    return game if isinstance(game, str) else repr(game)


def rules_of(header: dict) -> games.Rules | None:
    """The shelf's game of this header, or None for a game this companion does not have."""
    try:
        return games.load(games.game_of(header))
    except RuleError:
        return None


def header_players(header: dict) -> list:
    """The players' names as the header gives them (for a record that no longer replays)."""
    start = (header.get("setup") or header.get("position") or {}) if isinstance(header, dict) else {}
    players = start.get("players", []) if isinstance(start, dict) else []
    return [p for p in players if isinstance(p, str)] if isinstance(players, list) else []


def readings(rules: games.Rules, inputs: list) -> dict:
    """The chance inputs by where their faces came from: the camera (as read, or corrected by
    the table) or typed (by hand, on a tablet)."""
    out = {"camera": 0, "corrected": 0, "typed": 0}
    for inp in inputs:
        if rules.rolled(inp):
            source = inp.get("source")
            out["camera" if source == CAMERA else "corrected" if source == CORRECTED else "typed"] += 1
    return out


def summarize(header: dict, inputs: list) -> dict:
    gid = game_id(header)
    rules = rules_of(header)
    out = {"game": gid, "players": header_players(header), "inputs": len(inputs), "over": False,
           "scores": None, "winners": [], "faces": [], "rolls": {}, "readings": {}, "extra": None,
           "error": None}
    if rules is None:
        return dict(out, error=f"unknown game {gid!r}")
    rolls = {face: 0 for face in rules.die_faces}
    for inp in inputs:
        for face in rules.rolled(inp):
            rolls[face] += 1
    out.update(faces=list(rules.die_faces), rolls=rolls, readings=readings(rules, inputs))
    try:
        state = Game(Record(header, list(inputs))).state
    except (RuleError, ValueError, KeyError, TypeError) as exc:
        return dict(out, error=str(exc))
    over = bool(state.get("over"))
    out.update(players=rules.players(state), over=over, scores=rules.totals(state),
               winners=rules.winners(state), extra=rules.player_extra(state))
    return out


def to_text(summary: dict) -> str:
    """A summary as JSON text (its rolls as pairs: a face need not be a string)."""
    return json.dumps(dict(summary, rolls=list(summary["rolls"].items())), ensure_ascii=False)


def from_text(text: str) -> dict:
    summary = json.loads(text)
    return dict(summary, rolls={face: n for face, n in summary["rolls"]})
