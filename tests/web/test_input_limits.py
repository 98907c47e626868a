"""What a tablet may add to an input (its `note`, its `source`) is bounded: a longer one is a 400
that names the field, in the page's language, and nothing is recorded."""

import pytest

from companion.games.errors import META_LIMITS

from .conftest import SETUP, post

ROLL = {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}


@pytest.fixture
def started(paired, game_session):
    assert post(paired, "/api/game", SETUP).status_code == 201
    return paired


@pytest.mark.parametrize("field", ["note", "source"])
def test_a_note_or_source_too_long_is_refused_and_recorded_nowhere(started, game_session, field):
    limit = META_LIMITS[field]
    r = post(started, "/api/input", {"input": dict(ROLL, **{field: "x" * (limit + 1)}), "version": 0})
    assert r.status_code == 400 and r.json["error"] == "invalid" and r.json["key"] == "input_text_long"
    assert r.json["params"] == {"field": field, "limit": limit, "length": limit + 1}
    assert f"{field} may be at most {limit} characters" in r.json["message"]
    assert game_session.game.version == 0 and game_session.store.load(game_session.game_id)[0].inputs == []
    r = post(started, "/api/input?lang=pt-BR", {"input": dict(ROLL, **{field: "x" * 10**6}), "version": 0})
    assert r.status_code == 400 and f"O campo {field}" in r.json["message"]
    assert game_session.game.version == 0


def test_a_note_at_the_limit_is_kept_as_it_was_sent(started, game_session):
    note = "é" * META_LIMITS["note"]
    r = post(started, "/api/input", {"input": dict(ROLL, note=note), "version": 0})
    assert r.status_code == 200
    assert game_session.game.record.inputs[0]["note"] == note
    assert game_session.store.load(game_session.game_id)[0].inputs[0]["note"] == note


def test_a_kept_record_with_a_long_note_still_loads(started, game_session):
    """The bound is on what comes in: nothing recorded before it is refused when read back."""
    from companion.game_profiles import load_profile
    from companion.game import Game

    game = Game.new(dict(SETUP, profile=load_profile()))
    game.apply(dict(ROLL, note="x" * 5 * META_LIMITS["note"]))
    r = started.post("/api/record", data=game.record.to_jsonl(), content_type="text/plain",
                     headers={"X-Requested-With": "XMLHttpRequest"})
    assert r.status_code == 201
    assert len(game_session.game.record.inputs[0]["note"]) == 5 * META_LIMITS["note"]
