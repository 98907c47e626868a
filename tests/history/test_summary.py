"""A game's summary from its record: the game's own scoring, the rolls, where the faces came from."""

import json
from pathlib import Path

from companion.game import Game
from companion.record import Record
from companion.history.summary import summarize
from companion.games.atlandice.final_scoring import score_state

from .conftest import random_record

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_a_finished_game_is_scored_by_the_rules(profile):
    record = random_record(profile, 5)
    s = summarize(record.header, record.inputs)
    state = Game(record).state
    assert s["over"] and s["error"] is None and s["game"] == "atlandice"
    assert s["scores"] == state["result"]["total"][:3]
    assert s["winners"] == state["result"]["winners"]
    assert [list(e["tiles"]) for e in s["extra"]] == state["tiles"][:3]
    assert [e["stock"] for e in s["extra"]] == state["stocks"][:3]


def test_every_face_rolled_is_counted(profile):
    record = random_record(profile, 6)
    s = summarize(record.header, record.inputs)
    expected = {f: 0 for f in range(1, 7)}
    for inp in record.inputs:
        for face in inp.get("dice", []) + ([inp["value"]] if inp["type"] == "roll" else []):
            expected[face] += 1
    assert s["rolls"] == expected and sum(expected.values()) > 50


def test_readings_count_where_the_faces_came_from(profile):
    record = random_record(profile, 7, sources=("camera", "corrected", "hand", "tablet"))
    s = summarize(record.header, record.inputs)
    sources = [i.get("source") for i in record.inputs if i["type"] in ("gate_roll", "roll")]
    assert s["readings"] == {"camera": sources.count("camera"), "corrected": sources.count("corrected"),
                             "typed": sources.count("hand") + sources.count("tablet")}
    assert all(s["readings"].values())


def test_an_unfinished_game_has_the_score_as_it_stands_and_no_winner(profile):
    record = random_record(profile, 8, stop_after=60)
    s = summarize(record.header, record.inputs)
    assert not s["over"] and s["winners"] == []
    assert s["scores"] == score_state(Game(record).state)["total"][:3]


def test_a_two_player_game_leaves_the_neutral_seat_out(profile):
    record = random_record(profile, 9, names=("Ana", "Bruno"))
    s = summarize(record.header, record.inputs)
    assert s["players"] == ["Ana", "Bruno"] and len(s["scores"]) == 2 and len(s["extra"]) == 2


def test_a_record_that_no_longer_replays_still_counts_its_rolls(profile):
    record = random_record(profile, 10, stop_after=30)
    broken = record.inputs + [{"type": "swap", "give": "gem", "district": "inn", "take": "gem"}]
    s = summarize(record.header, broken)
    assert s["error"] and s["scores"] is None and not s["over"]
    assert s["players"] == ["Ana", "Bruno", "Eric"] and sum(s["rolls"].values()) > 0


def test_a_survive_record_is_summarized_by_its_own_rules():
    lines = [json.loads(line) for line in (EXAMPLES / "survive-2p-volcano.jsonl").read_text().splitlines()
             if line.strip()]
    s = summarize(lines[0], lines[1:])
    assert s["game"] == "survive" and s["over"] and s["error"] is None
    assert s["faces"] == ["serpent", "shark", "whale"]
    rolled = [i["face"] for i in lines[1:] if i["type"] == "creature_roll"]
    assert s["rolls"] == {f: rolled.count(f) for f in s["faces"]}
    assert s["winners"] and len(s["scores"]) == 2
    result = Game(Record(lines[0], lines[1:])).state["result"]      # its explorers, as its tally counts them
    assert s["extra"] == [{"explorers": {"saved": sum(c["saved"] for c in seat["colours"]),
                                         "lost": sum(c["lost"] for c in seat["colours"])}} for seat in result["seats"]]


def test_a_game_this_companion_does_not_have():
    s = summarize({"format": "atlandice-record", "version": 1, "game": "chess", "setup": {"players": ["A", "B"]}}, [])
    assert s["game"] == "chess" and s["error"] and s["players"] == ["A", "B"] and s["faces"] == []
