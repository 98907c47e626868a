"""Each shelf game's profile kept in the data folder (companion/game_profiles.py): saved,
read back after a restart, used by the next game of that game and never by the game under
way, refused when the game's own check refuses it (nothing written, nothing changed)."""

import json

import pytest

from companion.game_profiles import load_profile, save_profile
from companion.game import Game
from companion.game_profiles import GameProfiles, has_profile
from companion.games.atlandice import RuleError
from companion.session import Session
from companion.shelf import default_profile
from companion.store import GameStore

SETUP = {"players": ["Ana", "Bruno"], "first_player": 0, "challenges": []}


def checked(values=(1, 1, 2, 2, 3, 3, 4, 4, 5, 6)) -> dict:
    """Survive's default corrected as a table would: other numbers, marked confirmed."""
    return dict(default_profile("survive"), name="our box", confirmed=True, values=list(values))


def open_session(tmp_path) -> Session:
    return Session(GameStore(tmp_path / "g.sqlite3"), load_profile(),
                   profiles=GameProfiles(tmp_path / "calibration"))


def test_every_game_with_a_profile_keeps_it_the_same_way():
    assert has_profile("survive") and has_profile("atlandice") and has_profile("atlantis")
    for game in ("atlandice", "survive", "atlantis"):
        assert default_profile(game)["confirmed"] is False


def test_atlandices_board_profile_saved_before_is_used_and_kept_until_saved_again(tmp_path):
    # The board profile saved (TOML) before every game's profile was kept alike: read at start
    # through a restart, left on disk; saving again writes the game's own file beside it.
    board = dict(default_profile("atlandice"), name="our board", confirmed=True)
    board["icons"] = dict(board["icons"], market=1)
    before = tmp_path / "board_profile.toml"
    save_profile(board, before)
    kept = before.read_bytes()
    for _ in range(2):                                    # a start, then a restart
        profiles = GameProfiles(tmp_path)
        assert profiles.check() == [] and profiles.get("atlandice") == board
    sess = Session(GameStore(tmp_path / "g.sqlite3"), profiles=GameProfiles(tmp_path))
    sess.new_game({"players": ["Ana", "Bruno"], "first_player": 0})
    assert sess.game.record.header["setup"]["profile"] == board
    sess.set_profile(dict(board, name="our board, again"), "atlandice")
    assert before.read_bytes() == kept                    # the old file is never rewritten
    again = GameProfiles(tmp_path)
    assert again.get("atlandice")["name"] == "our board, again"
    assert json.loads((tmp_path / "atlandice_profile.json").read_text())["icons"]["market"] == 1


def test_a_damaged_board_profile_saved_before_is_said_and_the_default_used(tmp_path):
    (tmp_path / "board_profile.toml").write_text("track = [", encoding="utf-8")
    profiles = GameProfiles(tmp_path)
    problems = profiles.check()
    assert len(problems) == 1 and "board_profile.toml" in problems[0] and "not valid TOML" in problems[0]
    assert profiles.get("atlandice") == default_profile("atlandice")


def test_a_profile_file_chosen_in_the_configuration_is_read_and_saved_as_toml(tmp_path):
    path = tmp_path / "mine.toml"
    profiles = GameProfiles(tmp_path / "data", {"atlandice": path})
    changed = dict(default_profile("atlandice"), name="mine", confirmed=True)
    profiles.save("atlandice", changed)
    assert load_profile(path) == changed and "confirmed = true" in path.read_text()
    assert GameProfiles(tmp_path / "data", {"atlandice": path}).get("atlandice") == changed
    assert not (tmp_path / "data").exists()


def test_a_saved_profile_is_read_back_after_a_restart(tmp_path):
    profiles = GameProfiles(tmp_path)
    assert profiles.get("survive") == default_profile("survive")
    assert profiles.get("survive")["confirmed"] is False
    profiles.save("survive", checked())
    assert json.loads((tmp_path / "survive_profile.json").read_text(encoding="utf-8"))["confirmed"] is True
    again = GameProfiles(tmp_path)                     # a restart: read from the file
    assert again.get("survive") == checked()
    again.check()


def test_a_refused_profile_writes_nothing_and_changes_nothing(tmp_path):
    profiles = GameProfiles(tmp_path)
    profiles.save("survive", checked())
    before = (tmp_path / "survive_profile.json").read_bytes()
    wrong = checked()
    wrong["backs"] = dict(wrong["backs"], beach=dict(wrong["backs"]["beach"], shark=9))   # 22 beaches
    for bad in (wrong, checked(values=[1, 2, 3]), dict(checked(), colours=["red", "red", "blue", "green"]),
                dict(checked(), confirmed="yes"), "not a profile"):
        with pytest.raises(RuleError) as err:
            profiles.save("survive", bad)
        assert err.value.kind == "invalid" and err.value.key == "profile"
    assert (tmp_path / "survive_profile.json").read_bytes() == before
    assert profiles.get("survive") == checked()
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("text, says", [('{"values": [1, 2', "not valid JSON"), ("", "not valid JSON"),
                                         (json.dumps(dict(checked(), values=[7] * 10)), "values")])
def test_a_damaged_or_empty_saved_profile_is_said_with_its_path_at_start_and_the_default_used(tmp_path, text, says):
    (tmp_path / "survive_profile.json").write_text(text, encoding="utf-8")
    profiles = GameProfiles(tmp_path)
    problems = profiles.check()                       # once stopped the start (ProfileError)
    assert len(problems) == 1 and "survive_profile.json" in problems[0] and says in problems[0]
    assert "default profile of survive is used" in problems[0]
    assert profiles.get("survive") == default_profile("survive")
    assert (tmp_path / "survive_profile.json").read_text(encoding="utf-8") == text    # left as it was
    profiles.save("survive", checked())               # saved again: the problem is gone
    assert profiles.problems == {} and GameProfiles(tmp_path).check() == []


def test_an_unknown_game_has_no_profile_file(tmp_path):
    with pytest.raises(RuleError) as err:
        GameProfiles(tmp_path).save("../board", checked())
    assert err.value.key == "unknown_game"
    assert list(tmp_path.iterdir()) == []


def test_the_next_game_uses_it_and_the_game_under_way_keeps_its_own(tmp_path):
    sess = open_session(tmp_path)
    sess.new_game(SETUP, game="survive")
    sess.submit({"type": "setup", "step": 1}, 0)
    began_with = sess.game.record.header["setup"]["profile"]
    assert began_with == default_profile("survive")
    sess.set_profile(checked(), "survive")
    # the game under way: its record and its state still hold the profile it began with
    assert sess.game.record.header["setup"]["profile"] == began_with
    assert sess.game.state["profile"]["confirmed"] is False
    first = sess.game_id
    board = dict(sess.profile_of("atlandice"))
    sess.close()

    sess = open_session(tmp_path)                     # a restart
    assert sess.resume(first)
    assert sess.game.state["profile"] == began_with   # the stored game replays with its own profile
    sess.new_game(SETUP, game="survive")              # the next game: the saved one
    assert sess.game.record.header["setup"]["profile"] == checked()
    assert sess.game.state["profile"]["values"] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 6]
    record, _ = sess.store.load(sess.game_id)
    assert Game(record).state["profile"] == checked()
    assert sess.profile_of("atlandice") == board                      # Atlandice's board profile untouched
    sess.new_game({"players": ["Ana", "Bruno"], "first_player": 0})
    assert "track" in sess.game.record.header["setup"]["profile"]
    sess.close()


def test_the_session_refuses_a_bad_profile_and_keeps_the_last(tmp_path):
    sess = open_session(tmp_path)
    sess.set_profile(checked(), "survive")
    seen = sess.change_id
    with pytest.raises(RuleError):
        sess.set_profile(dict(checked(), values=[0] * 10), "survive")
    assert sess.profile_of("survive") == checked() and sess.change_id == seen
    sess.new_game(SETUP, game="survive")
    assert sess.game.record.header["setup"]["profile"] == checked()
    sess.close()


def test_a_save_the_disk_refuses_loses_nothing_of_the_board_profile_saved_before(tmp_path, monkeypatch):
    from companion.store import StoreError
    board = dict(default_profile("atlandice"), name="our board", confirmed=True)
    before = tmp_path / "board_profile.toml"
    save_profile(board, before)
    kept = before.read_bytes()
    profiles = GameProfiles(tmp_path)

    def refuse(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr("companion.game_profiles.os.fsync", refuse)
    with pytest.raises(StoreError):
        profiles.save("atlandice", dict(board, name="new"))
    monkeypatch.undo()
    assert profiles.get("atlandice") == board and before.read_bytes() == kept
    assert not (tmp_path / "atlandice_profile.json").exists()
    assert GameProfiles(tmp_path).get("atlandice") == board          # and after a restart
