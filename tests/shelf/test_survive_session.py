"""A Survive game through the shared session: every input saved before it is acknowledged,
undo and redo, a restart in the middle (the store read back), the end tallied."""

import json
import random

import pytest

from companion.game_profiles import load_profile
from companion.game import Game
from companion.games.survive.simulate import random_input
from companion.session import Session
from companion.store import GameStore

SETUP = {"players": ["Ana", "Bruno", "Caio"], "first_player": 1, "challenges": [1]}


def open_session(path) -> Session:
    return Session(GameStore(path), load_profile())


def test_a_survive_game_to_the_end_with_undo_redo_and_a_restart(tmp_path):
    path = tmp_path / "g.sqlite3"
    sess = open_session(path)
    sess.new_game(SETUP, game="survive")
    assert sess.snapshot()["game"] == "survive"
    assert sess.game.record.header["game"] == "survive"
    assert sess.game.record.header["setup"]["profile"]["values"]      # Survive's own profile, not the board's
    rng = random.Random(7)
    restarted = undone = False
    while sess.game.expected()["kind"] != "over":
        prompt = sess.game.expected()
        sess.submit(random_input(rng, prompt), sess.game.version)
        if sess.game.version == 30 and not undone:
            undone = True
            before = json.dumps(sess.game.state, sort_keys=True)
            taken = sess.undo()
            assert sess.game.version == 29 and sess.snapshot()["can_redo"]
            sess.redo()
            assert json.dumps(sess.game.state, sort_keys=True) == before
        if sess.game.version == 60 and not restarted:
            after = json.dumps(sess.game.state, sort_keys=True)
            sess.undo()                                     # left undone across the restart
            state, game_id = json.dumps(sess.game.state, sort_keys=True), sess.game_id
            sess.close()
            sess = open_session(path)                       # a restart: the store read back
            assert sess.resume_last() and sess.game_id == game_id
            assert sess.game.game_id == "survive"
            assert json.dumps(sess.game.state, sort_keys=True) == state
            sess.redo()                                     # the redo stack was kept too
            assert json.dumps(sess.game.state, sort_keys=True) == after
            restarted = True
    assert restarted and taken
    state = sess.game.state
    assert state["over"] and state["result"]["winners"]
    assert sess.game.score()["seats"][0]["colours"]
    stored = sess.store.games()[0]
    assert stored["game"] == "survive" and stored["over"] and stored["players"] == SETUP["players"]
    # The stored record is the whole game: replayed afresh it ends the same.
    record, _ = sess.store.load(sess.game_id)
    assert Game(record).state["result"] == state["result"]
    sess.close()


def test_a_refused_survive_input_changes_nothing_and_says_why(tmp_path):
    sess = open_session(tmp_path / "g.sqlite3")
    sess.new_game(SETUP, game="survive")
    from companion.games.atlandice import RuleError
    with pytest.raises(RuleError) as err:
        sess.submit({"type": "setup", "step": 5}, 0)
    assert err.value.key == "setup_step"
    assert sess.game.version == 0 and sess.store.load(sess.game_id)[0].inputs == []
    sess.close()


def test_confirm_enters_a_survive_step_with_one_way_on_and_never_a_choice(tmp_path):
    sess = open_session(tmp_path / "g.sqlite3")
    sess.new_game(SETUP, game="survive")
    assert sess.proposal()["input"] == {"type": "setup", "step": 1}
    sess.confirm()
    assert sess.game.version == 1
    for step in range(2, 9):
        sess.submit({"type": "setup", "step": step}, sess.game.version)
    assert len(sess.game.expected()["options"]) > 1 and sess.proposal() is None
    sess.close()


def test_an_unknown_game_is_refused_and_nothing_is_stored(tmp_path):
    sess = open_session(tmp_path / "g.sqlite3")
    from companion.games.atlandice import RuleError
    with pytest.raises(RuleError) as err:
        sess.new_game(SETUP, game="chess")
    assert err.value.key == "unknown_game"
    assert sess.game is None and sess.store.games() == []
    sess.close()


def test_the_creature_die_is_tapped_never_read_as_a_d6(tmp_path):
    # Survive's creature die step is called "roll" too: the dice proposal, the camera's reading
    # and the settle watcher are Atlandice's, and stay out of it.
    from companion.games.errors import RuleError

    sess = open_session(tmp_path / "g.sqlite3")
    sess.new_game(SETUP, game="survive")
    rng = random.Random(3)
    while sess.game.expected()["kind"] != "roll":
        sess.submit(random_input(rng, sess.game.expected()), sess.game.version)
    assert sess.desk.dice_wanted() is None
    with pytest.raises(RuleError) as err:
        sess.desk.set_die(4)
    assert err.value.key == "no_roll_now"
