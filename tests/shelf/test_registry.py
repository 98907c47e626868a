"""The shelf: every game registered once by its id, loaded by it, with its names in both
languages; an unknown id is refused by name; a record's first line picks the game."""

import json
from pathlib import Path

import pytest

from companion import games
from companion.game_profiles import load_profile
from companion.game import Game, ReplayError
from companion.i18n import LANGUAGES
from companion.record import Record
from companion.games.atlandice import RuleError
from companion.shelf import catalog, default_profile, listing, words_for

ROOT = Path(__file__).resolve().parents[2]


def test_the_shelf_lists_each_game_once_with_its_names_in_both_languages():
    ids = [g["id"] for g in listing()]
    assert ids[:2] == ["atlandice", "survive"] and len(set(ids)) == len(ids)
    for g in listing():
        assert set(g["names"]) == set(LANGUAGES) and all(n.strip() for n in g["names"].values())
    assert games.load("survive").names["pt-BR"] == "Survive: Fuga de Atlântida!"


def test_a_game_is_loaded_by_its_id_and_follows_the_protocol():
    for rules in games.shelf():
        for name in ("new_state", "start", "expected", "apply"):
            assert callable(getattr(rules.module, name)), (rules.id, name)
    assert games.load("survive").module.GAME == "survive"
    assert games.load("atlandice").module.GAME == "atlandice"


@pytest.mark.parametrize("bad", ["chess", "", None, 3, "Survive"])
def test_an_unknown_game_is_refused_with_the_games_there_are(bad):
    with pytest.raises(RuleError) as err:
        games.load(bad)
    assert err.value.kind == "invalid" and err.value.key == "unknown_game"
    assert "atlandice" in err.value.params["known"] and "survive" in err.value.params["known"]


def test_a_game_cannot_be_registered_twice():
    with pytest.raises(ValueError):
        games.register("survive", "companion.games.survive", "x", "y")
    assert [g.id for g in games.shelf()].count("survive") == 1


def test_the_unknown_game_refusal_is_said_in_both_languages():
    with pytest.raises(RuleError) as err:
        games.load("chess")
    en = words_for("atlandice", "en").refusal(err.value.to_dict())
    pt = words_for("atlandice", "pt-BR").refusal(err.value.to_dict())
    assert '"chess"' in en and "survive" in en and en != pt and '"chess"' in pt


def test_a_record_without_a_game_is_atlandice_and_one_naming_an_unknown_game_is_refused_on_line_1():
    old = (ROOT / "docs" / "examples" / "three-players.jsonl").read_text(encoding="utf-8")
    assert "game" not in json.loads(old.splitlines()[0])
    record = Record.from_jsonl(old)
    record.header["setup"]["profile"] = load_profile()      # as `companion replay` fills it in
    game = Game(record)
    assert game.game_id == "atlandice" and game.state["over"]
    header = dict(json.loads(old.splitlines()[0]), game="chess")
    with pytest.raises(ReplayError) as err:
        Game(Record(header))
    assert err.value.line == 1 and err.value.error.key == "unknown_game"


def test_a_new_record_names_its_game():
    profile = default_profile("survive")
    game = Game.new({"players": ["Ana", "Bruno"], "first_player": 0, "profile": profile}, game="survive")
    header = json.loads(game.record.to_jsonl().splitlines()[0])
    assert header["game"] == "survive" and header["format"] == "atlandice-record"
    again = Game.from_jsonl(game.record.to_jsonl())
    assert again.game_id == "survive" and again.expected()["kind"] == "setup"


def test_every_game_has_both_catalogs_with_the_same_keys():
    def keys(tree, prefix=""):
        out = set()
        for k, v in tree.items():
            out |= keys(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
        return out
    for rules in games.shelf():
        assert keys(catalog(rules.id, "en")) == keys(catalog(rules.id, "pt-BR")), rules.id
