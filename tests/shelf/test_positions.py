"""A game started from a position, for any game of the shelf that reads one: its record names
its game, and the record written out replays to the same table."""

from pathlib import Path

from companion.game import Game
from companion.games.atlantis.position import to_position
from companion.record import Record

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_an_atlantis_position_makes_an_atlantis_record_that_replays_the_same():
    lines = (GOLDEN / "atlantis" / "atlantis-table-3p.jsonl").read_text(encoding="utf-8").splitlines()
    for n in range(60, len(lines)):                    # the first turn's start after line 60
        played = Game(Record.from_jsonl("\n".join(lines[:n]) + "\n"))
        if played.state["step"]["t"] == "turn":
            break
    game = Game.from_position(to_position(played.state), game="atlantis")
    assert game.record.header["game"] == "atlantis" and game.game_id == "atlantis"
    again = Game.from_jsonl(game.record.to_jsonl())
    assert again.game_id == "atlantis" and again.expected() == game.expected()
    assert again.expected()["seat"] == played.expected()["seat"]
