"""Any request gets a 2xx or a 4xx, never a 500; a 4xx says what is wrong and changes nothing."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.game import Game
from companion.games.atlandice.inputs import FIELDS
from companion.games.atlandice.simulate import random_input

from .bad_requests import BAD_REQUESTS, body_for
from .conftest import CODE, SETUP, XHR


def long_record(profile: dict) -> str:
    """A record of 60 inputs, Anna first (not the game on the table)."""
    rng = random.Random(29)
    game = Game.new(dict(SETUP, profile=profile))
    while game.version < 60:
        game.apply(random_input(rng, game.expected()))
    return game.record.to_jsonl()


def table(sess) -> tuple:
    """Everything a refused request must leave as it was."""
    game = sess.game
    return (sess.game_id, game and game.record.to_jsonl(), game and list(game.redo_stack),
            sess.store.games(), sess.store.last_in_use(), sess.profile_of("atlandice"))


@pytest.fixture
def started(paired, game_session):
    assert paired.post("/api/game", json=SETUP, headers=XHR).status_code == 201
    return paired


@pytest.mark.parametrize("name, method, path, template, content_type", BAD_REQUESTS,
                         ids=[r[0] for r in BAD_REQUESTS])
def test_a_request_that_once_gave_a_500_is_a_4xx_that_changes_nothing(
        started, game_session, name, method, path, template, content_type):
    data = body_for(template, long_record(game_session.profile_of("atlandice")), game_session.game.version)
    before = table(game_session)
    if method == "GET":
        r = started.get(path, headers={"Accept": "application/json"})
    else:
        r = started.post(path, data=data.encode(), content_type=content_type, headers=XHR)
    assert 400 <= r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300])
    if r.is_json:
        assert r.json["error"] and r.json["message"] and "internal" not in r.json["message"]
    assert table(game_session) == before


@pytest.mark.parametrize("template, says", [
    (BAD_REQUESTS[0][3], "lone surrogate"),
    ('{"input": ' + "[" * 100 + "]" * 100 + "}", "nested too deep (at most 64 levels)"),
    ('{"game_id": 9223372036854775808}', "too large (at most 9223372036854775807)"),
])
def test_a_json_body_the_companion_cannot_keep_says_why(started, game_session, template, says):
    r = started.post("/api/input", data=body_for(template, "", 1), content_type="application/json", headers=XHR)
    assert r.status_code == 400 and says in r.json["message"]
    r = started.post("/api/input?lang=pt-BR", data=body_for(template, "", 1), content_type="application/json",
                     headers=XHR)
    assert r.status_code == 400 and r.json["message"] != r.get_json()["key"]


def test_a_record_refused_on_line_51_names_it(started, game_session):
    text = body_for("RECORD51SURROGATE", long_record(game_session.profile_of("atlandice")), 1)
    r = started.post("/api/record", data=text.encode(), content_type="text/plain", headers=XHR)
    assert r.status_code == 400 and r.json["line"] == 51 and "lone surrogate" in r.json["message"]


# --- any body, on every POST route ---------------------------------------------------

KEYS = ["input", "version", "type", "players", "first_player", "tops", "game_id", "record", "counts",
        "taker", "code", "track", "icons", "confirmed", "neutral", "depleted", "stock", "tiles", "tokens",
        "area", "dice", "source", "note", "for", "resource", "value", "seat", "tile", "pair"]
texts = st.one_of(st.text(max_size=12), st.sampled_from(["\ud800", "a\udfff", "", " ", "Anna", "9" * 5000]
                                                        + list(FIELDS)))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 10), st.integers(), st.floats(), texts)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.one_of(texts, st.sampled_from(KEYS)), inner, max_size=4), max_leaves=12)
objects = st.dictionaries(st.sampled_from(KEYS), values, max_size=5)
# Bodies shaped like the page's own, one field spoiled at a time more often than not.
inputs = st.fixed_dictionaries({"type": st.one_of(st.sampled_from(list(FIELDS)), values)},
                               optional={k: values for k in KEYS if k != "type"})
shaped = st.one_of(
    st.fixed_dictionaries({"input": inputs, "version": st.one_of(st.integers(0, 2), values)}),
    st.fixed_dictionaries({"players": st.lists(texts, min_size=2, max_size=4), "first_player": st.integers(0, 3)}),
    st.fixed_dictionaries({"counts": st.dictionaries(texts, values, min_size=2, max_size=4)},
                          optional={"taker": values}),
    st.fixed_dictionaries({"players": st.lists(st.dictionaries(st.sampled_from(["name", "stock", "tiles", "tokens"]),
                                                               values), min_size=2, max_size=4)}),
    st.fixed_dictionaries({"game_id": st.one_of(st.integers(), values)}),
    st.fixed_dictionaries({"code": values}),
)
lines = st.lists(values.map(json.dumps), max_size=4).map("\n".join)
bodies = st.one_of(
    shaped.map(lambda o: (json.dumps(o).encode(), "application/json")),
    lines.map(lambda t: (t.encode(), "text/plain")),
    objects.map(lambda o: (json.dumps(o).encode(), "application/json")),
    values.map(lambda v: (json.dumps(v).encode(), "application/json")),
    st.binary(max_size=64).map(lambda b: (b, "application/json")),
    st.binary(max_size=64).map(lambda b: (b, "text/plain")),
    st.integers(1, 3000).map(lambda n: (b"[" * n + b"]" * n, "application/json")),
    st.integers(10, 400).map(lambda n: (b'{"a": ' + b"9" * n + b"}", "application/json")),
    st.just((b"", "application/json")),
)


def post_routes(app) -> list[str]:
    routes = []
    for rule in app.url_map.iter_rules():
        if "POST" in rule.methods:
            if rule.arguments:         # /api/<any(undo, redo, confirm, read):button>
                routes += [rule.rule.split("<")[0] + b for b in ("undo", "redo", "confirm", "read")]
            else:
                routes.append(rule.rule)
    return sorted(routes)


def test_the_property_covers_every_post_route(app):
    assert {"/api/input", "/api/game", "/api/record", "/api/resume", "/api/profile", "/api/undo",
            "/api/check/payout", "/api/check/final", "/pair"} <= set(post_routes(app))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(data=st.data())
def test_any_body_on_any_post_route_is_a_2xx_or_a_4xx_that_changes_nothing(started, app, game_session, data):
    route = data.draw(st.sampled_from(post_routes(app)))
    payload, content_type = data.draw(bodies)
    if route == "/api/record" and content_type == "text/plain" and data.draw(st.booleans()):
        payload = game_session.game.record.to_jsonl().encode() + payload   # a real header, then lines
    before = table(game_session)
    r = started.post(route, data=payload, content_type=content_type, headers=XHR)
    assert r.status_code < 500, (route, payload[:200], r.get_data(as_text=True)[:300])
    if r.status_code >= 400:
        assert table(game_session) == before, (route, payload[:200])
    if route == "/unpair":          # pair again, so that the next example reaches the paired routes
        started.post("/pair", json={"code": CODE}, headers=XHR)
