"""The game record (JSON Lines): written, read back, replayed exactly; bad lines named."""

import json

import pytest

from companion.game import Game, ReplayError
from companion.record import Record, RecordError

from .conftest import random_game


def test_round_trip_replays_to_the_same_state(profile):
    game = random_game(profile, seed=11, players=4)
    text = game.record.to_jsonl()
    again = Game.from_jsonl(text)
    assert again.state == game.state and again.version == game.version
    assert again.record.to_jsonl() == text
    header = json.loads(text.splitlines()[0])
    assert header["format"] == "atlandice-record" and header["version"] == 1 and "setup" in header


def test_record_keeps_the_input_source_but_rules_ignore_it(profile):
    game = random_game(profile, seed=2, stop_after=0)
    game.apply({"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6], "source": "camera", "extra": "dropped"})
    assert game.record.inputs[0] == {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6], "source": "camera"}


@pytest.mark.parametrize("text,line,fragment", [
    ("", 1, "empty"),
    ("not json\n", 1, "not valid JSON"),
    ('{"format": "pgn"}\n', 1, "header"),
    ('{"format": "atlandice-record", "version": 9, "setup": {}}\n', 1, "version 9"),
    ('{"format": "atlandice-record", "version": 1}\n', 1, "setup"),
])
def test_unreadable_records_say_which_line(text, line, fragment):
    with pytest.raises(RecordError) as err:
        Record.from_jsonl(text)
    assert err.value.line == line and fragment in str(err.value)


def test_an_illegal_line_is_named_with_the_rule(profile):
    game = random_game(profile, seed=5, stop_after=30)
    lines = game.record.to_jsonl().splitlines()
    lines.insert(3, "")                                          # blank lines are skipped but counted
    lines[10] = json.dumps({"type": "roll", "value": 9})
    with pytest.raises(ReplayError) as err:
        Game.from_jsonl("\n".join(lines))
    assert err.value.line == 11 and "roll" in str(err.value)


def test_a_record_can_start_from_a_position(profile):
    game = random_game(profile, seed=8, stop_after=40)
    while game.expected()["kind"] not in ("pick", "gate_roll"):
        game.apply(game.expected()["options"][0])
    record = Record.new(position=game.state)
    resumed = Game(record)
    assert resumed.state == game.state
    with pytest.raises(ReplayError) as err:
        Game(Record.new(position=dict(game.state, dice_count=5)))
    assert err.value.line == 1


def test_undo_then_redo_gives_the_same_state(profile):
    game = random_game(profile, seed=3, stop_after=60)
    state, version = game.state, game.version
    game.undo()
    game.undo()
    assert game.version == version - 2
    game.redo()
    game.redo()
    assert game.state == state and game.version == version


def test_a_new_input_after_undo_clears_redo(profile):
    game = random_game(profile, seed=4, stop_after=10)
    game.undo()
    assert game.redo_stack
    game.apply(game.expected()["options"][0] if game.expected()["options"] else
               {"type": "roll", "value": 1})
    assert not game.redo_stack
