"""A step with a single legal option is entered by the session itself, undone with the tap before it."""

import random

import pytest

from companion.game import Game
from companion.games.atlandice.simulate import random_input, random_setup
from companion.games.atlandice import forced
from companion.session import AUTO, Session
from companion.store import GameStore

SETUP = {"players": ["Anna", "Bruno", "Eric"], "first_player": 0,
         "tops": {"jeweller": "J-odd", "library": "L-high", "inn": "I-clock", "works": "E1", "blacksmith": "B-even"}}
ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 6]}


@pytest.fixture
def session(tmp_path, profile):
    s = Session(GameStore(tmp_path / "g.sqlite3"), profile)
    yield s
    s.store.close()


def test_the_only_resource_is_taken_once_by_the_companion_and_said(session):
    session.new_game(SETUP)
    session.submit(ROLL)
    session.submit({"type": "pick", "area": "library"})   # the Library holds Books only
    assert session.game.record.inputs[1:] == [{"type": "pick", "area": "library", "for": "self"},
                                              {"type": "resource", "resource": "book", "source": AUTO}]
    assert session.game.expected()["kind"] == "roll"      # chance: never entered by the companion
    entry = session.snapshot()["history"][-1]
    assert entry["input"]["source"] == AUTO and entry["events"][0]["key"] == "visit.take"


def test_the_submarines_extra_goes_with_the_visit(session):
    session.new_game(SETUP)
    session.submit(ROLL)
    assert session.game.state["submarine"] == "works"
    session.submit({"type": "pick", "area": "works"})
    assert session.game.record.inputs[2:] == [{"type": "resource", "resource": "tool", "source": AUTO}] * 2
    assert [e["events"][0]["params"]["reason"] for e in session.game.history[2:]] == ["visit", "submarine"]
    assert session.game.state["stocks"][0]["tool"] == 2


def test_undo_takes_the_tap_back_with_what_the_companion_entered_after_it(session):
    session.new_game(SETUP)
    session.submit(ROLL)
    before = session.game.state
    session.submit({"type": "pick", "area": "works"})
    taken = session.undo()
    assert [i["type"] for i in taken] == ["pick", "resource", "resource"]
    assert session.game.version == 1 and session.game.state == before
    assert session.game.expected()["kind"] == "pick"      # not entered again: the pick is to be made
    assert [e["input"]["type"] for e in session.snapshot()["undone"]] == ["pick", "resource", "resource"]
    session.redo()                                       # all of it comes back
    assert session.game.version == 4 and not session.game.redo_stack
    # The store holds the same: a restart resumes the game as it is.
    record, redo = session.store.load(session.game_id)
    assert record.inputs == session.game.record.inputs and redo == []
    session.undo()
    record, redo = session.store.load(session.game_id)
    assert len(record.inputs) == 1 and [i["type"] for i in redo] == ["resource", "resource", "pick"]


def test_a_record_with_forced_steps_replays_the_same(session, profile):
    session.new_game(SETUP)
    session.submit(ROLL)
    session.submit({"type": "pick", "area": "works"})
    replayed = Game.from_jsonl(session.game.record.to_jsonl())
    assert replayed.state == session.game.state
    assert replayed.record.inputs == session.game.record.inputs


def test_a_record_from_before_replays_unchanged_and_nothing_is_added_to_it(session, profile):
    # Written without the companion entering anything: forced steps are explicit inputs.
    rng = random.Random(3)
    setup = random_setup(rng, 3, profile)
    old = Game.new(setup)
    while old.expected()["kind"] != "over":
        old.apply(random_input(rng, old.expected()))
    assert any(forced(g) for g in _prompts(old)), "the old record has forced steps entered by hand"
    session.load_record(old.record.to_jsonl())
    assert session.game.state == old.state
    assert session.game.record.inputs == old.record.inputs


def test_a_whole_game_through_the_session_taps_only_decisions(session, profile):
    rng = random.Random(11)
    setup = random_setup(rng, 3, profile)
    setup.pop("profile")
    session.new_game(setup)
    taps = 0
    while session.game.expected()["kind"] != "over":
        prompt = session.game.expected()
        assert forced(prompt) is None, "a forced step was left to the table"
        session.submit(random_input(rng, prompt))
        taps += 1
    inputs = session.game.record.inputs
    auto = [i for i in inputs if i.get("source") == AUTO]
    assert auto and taps + len(auto) == len(inputs)
    assert not any(i["type"] in ("gate_roll", "roll", "reveal", "tile_taker") for i in auto)
    assert Game.from_jsonl(session.game.record.to_jsonl()).state == session.game.state


def _prompts(game: Game) -> list[dict]:
    """The prompt before each input of `game`."""
    replay = Game(type(game.record)(dict(game.record.header), []))
    out = []
    for inp in game.record.inputs:
        out.append(replay.expected())
        replay.apply(inp)
    return out
