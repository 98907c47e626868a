"""docs/openapi.json describes exactly the routes the app has, with their methods."""

import json
import re
from pathlib import Path

from .conftest import XHR

SPEC = json.loads((Path(__file__).resolve().parents[2] / "docs" / "openapi.json").read_text(encoding="utf-8"))
HTTP = {"get", "post", "put", "patch", "delete"}


def app_routes(app) -> set[tuple[str, str]]:
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        paths = [rule.rule]
        m = re.search(r"<any\(([^)]*)\):\w+>", rule.rule)
        if m:
            paths = [rule.rule[:m.start()] + v.strip() + rule.rule[m.end():] for v in m.group(1).split(",")]
        for path in paths:
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", path)     # <int:game_id> is {game_id}
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                out.add((path, method.lower()))
    return out


def spec_routes() -> set[tuple[str, str]]:
    return {(path, method) for path, item in SPEC["paths"].items() for method in item if method in HTTP}


def test_the_spec_lists_every_route_and_no_other(app):
    assert app_routes(app) - spec_routes() == set(), "routes missing from docs/openapi.json"
    assert spec_routes() - app_routes(app) == set(), "docs/openapi.json lists routes the app lacks"


def test_every_operation_documents_its_errors_and_writes_need_pairing():
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            assert op.get("summary"), (path, method)
            assert {"200", "201", "308"} & set(op["responses"]), (path, method)   # 308: an address moved
            if method == "post" and path.startswith("/api/") and not path.startswith("/api/check/"):
                assert op.get("security") == [{"pairedTablet": []}], path
                assert "403" in op["responses"], path


def test_refs_resolve():
    text = json.dumps(SPEC)
    for ref in set(re.findall(r'"\$ref": "#/components/(\w+)/(\w+)"', text)):
        assert ref[1] in SPEC["components"][ref[0]], ref


def test_the_documented_examples_are_what_the_api_answers(paired, game_session):
    example = SPEC["paths"]["/api/game"]["post"]["requestBody"]["content"]["application/json"]["example"]
    assert paired.post("/api/game", json=example, headers=XHR).status_code == 201
    roll = {"input": {"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]}, "version": 0}
    assert paired.post("/api/input", json=roll, headers=XHR).status_code == 200
    state = paired.get("/api/state").json
    documented = SPEC["paths"]["/api/state"]["get"]["responses"]["200"]["content"]["application/json"]["example"]
    assert set(documented) == set(state), "the documented snapshot has the same keys as the real one"
    payout = SPEC["paths"]["/api/check/payout"]["post"]
    body = payout["requestBody"]["content"]["application/json"]["example"]
    answer = paired.post("/api/check/payout", json=body, headers=XHR).json
    assert answer == payout["responses"]["200"]["content"]["application/json"]["example"]
