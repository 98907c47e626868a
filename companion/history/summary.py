"""One game's summary, derived from its record alone: what the games list, the players'
records and the dice need, so that none of them replays the record again.

    summarize(header, inputs) -> {
        "game": "atlandice", "players": ["Ana", "Bruno"], "over": True,
        "scores": [31, 27] (None while the game keeps none), "winners": [0],
        "faces": [1, ..., 6], "rolls": {face: times}, "readings": {"camera": n, "corrected": n, "typed": n},
        "extra": [per player, the game's own: Atlandice's stock and tiles] or None,
        "error": None (or why the record no longer replays: its rolls are still counted)}

A summary is a cache of its record: anything in it can be derived again from the record.
"""

from companion.games.errors import RuleError

from .shelf import game_id, header_players, shelf_game

# An input's "source": the camera's reading entered as read, or after the table changed a die.
CAMERA = "camera"
CORRECTED = "corrected"


def readings(game, inputs: list) -> dict:
    """The chance inputs by where their faces came from: the camera (as read, or corrected by
    the table) or typed (by hand, on a tablet)."""
    out = {"camera": 0, "corrected": 0, "typed": 0}
    for inp in inputs:
        if game.rolls(inp):
            source = inp.get("source")
            out["camera" if source == CAMERA else "corrected" if source == CORRECTED else "typed"] += 1
    return out


def summarize(header: dict, inputs: list) -> dict:
    gid = game_id(header)
    game = shelf_game(header)
    out = {"game": gid, "players": header_players(header), "inputs": len(inputs), "over": False,
           "scores": None, "winners": [], "faces": [], "rolls": {}, "readings": {}, "extra": None,
           "error": None}
    if game is None:
        return dict(out, error=f"unknown game {gid!r}")
    rolls = {face: 0 for face in game.faces}
    for inp in inputs:
        for face in game.rolls(inp):
            rolls[face] += 1
    out.update(faces=list(game.faces), rolls=rolls, readings=readings(game, inputs))
    try:
        state = game.replay(header, inputs).state
    except (RuleError, ValueError, KeyError, TypeError) as exc:
        return dict(out, error=str(exc))
    over = bool(state.get("over"))
    out.update(players=game.players(state), over=over, scores=game.totals(state),
               winners=game.winners(state) if over else [],
               extra=game.extra(state) if game.extra else None)
    return out
