"""An Atlantis game through the shared session: saved before acknowledged, undo and redo,
a restart in the middle (the store read back), the end scored; the path laid by the table."""

import json
import random

import pytest

from companion.game_profiles import load_profile
from companion.game import Game
from companion.games.atlantis.simulate import random_input
from companion.games.atlandice import RuleError
from companion.session import Session
from companion.store import GameStore

SETUP = {"players": ["Ana", "Bruno"], "first_player": 1, "path": "shuffle"}


def open_session(path) -> Session:
    return Session(GameStore(path), load_profile())


def dump(state) -> str:
    return json.dumps(state, sort_keys=True)


def test_an_atlantis_game_to_the_end_with_undo_redo_and_a_restart(tmp_path):
    path = tmp_path / "g.sqlite3"
    sess = open_session(path)
    sess.new_game(SETUP, game="atlantis")
    header = sess.game.record.header
    assert header["game"] == "atlantis" and header["setup"]["profile"]["colours"]   # Atlantis's own profile
    assert sess.snapshot()["game"] == "atlantis" and sess.proposal() is None        # a shuffle: no proposal
    rng = random.Random(5)
    restarted = undone = False
    while sess.game.expected()["kind"] != "over":
        inp = dict(random_input(rng, sess.game.state), source="hand")
        sess.submit(inp, sess.game.version)
        if sess.game.version == 20 and not undone:
            undone = True
            before = dump(sess.game.state)
            sess.undo()
            assert sess.game.version == 19 and sess.snapshot()["can_redo"]
            sess.redo()
            assert dump(sess.game.state) == before
        if sess.game.version == 40 and not restarted:
            after = dump(sess.game.state)
            sess.undo()                                     # left undone across the restart
            state, game_id = dump(sess.game.state), sess.game_id
            sess.close()
            sess = open_session(path)                       # a restart: the store read back
            assert sess.resume_last() and sess.game_id == game_id and sess.game.game_id == "atlantis"
            assert dump(sess.game.state) == state
            sess.redo()                                     # the redo stack was kept too
            assert dump(sess.game.state) == after
            restarted = True
    assert restarted
    state = sess.game.state
    assert state["over"] and state["result"]["winners"]
    assert sess.game.score()["scores"] == state["result"]["scores"]
    stored = sess.store.games()[0]
    assert stored["game"] == "atlantis" and stored["over"] and stored["players"] == SETUP["players"]
    record, _ = sess.store.load(sess.game_id)
    assert all(inp["source"] == "hand" for inp in record.inputs)            # the table's note kept
    assert Game(record).state["result"] == state["result"]                  # replayed afresh: the same end
    sess.close()


def test_the_table_lays_the_path_and_a_refusal_changes_nothing(tmp_path):
    sess = open_session(tmp_path / "g.sqlite3")
    sess.new_game(dict(SETUP, path="table"), game="atlantis")
    prompt = sess.game.expected()
    assert prompt["kind"] == "lay" and prompt["context"]["position"] == 1
    sess.submit({"type": "lay", "colour": "blue", "value": 3}, 0)
    assert sess.game.expected()["context"]["position"] == 2
    with pytest.raises(RuleError) as err:
        sess.submit({"type": "lay", "colour": "purple", "value": 3}, 1)
    assert err.value.key == "atlantis.unknown_colour"
    assert sess.game.version == 1 and len(sess.store.load(sess.game_id)[0].inputs) == 1
    sess.close()
