"""Requests that once answered 500: each must get a 4xx JSON error and change nothing.

Used by tests/web/test_bad_requests.py and benchmarks/hardening_probes.py (which
sends them to a real server). Each is (name, method, path, body, content type):
the body is text, with RECORD standing for a record of 60 inputs (the page's own
download) and HEADER for its first line. A lone surrogate is written the way JSON
escapes it ("\\ud800"), as a client would send it.
"""

import json

BIG = "9" * 5000                 # int() refuses 4,300 digits and more
DEEP = "[" * 100_000 + "]" * 100_000
TOO_BIG_ID = 9223372036854775808  # 2**63: past SQLite's INTEGER
ROLL = '{"type": "gate_roll", "dice": [1, 2, 3, 4, 5, 6, 2]'
JSON = "application/json"
TEXT = "text/plain"


def _input(inner: str) -> str:
    return '{"input": ' + inner + ', "version": VERSION}'


BAD_REQUESTS = [
    ("input: a lone surrogate in source", "POST", "/api/input", _input(ROLL + ', "source": "\\ud800"}'), JSON),
    ("input: a lone surrogate in note", "POST", "/api/input", _input(ROLL + ', "note": "x\\udfff"}'), JSON),
    ("input: type is a list", "POST", "/api/input", _input('{"type": ["pick"], "area": "inn"}'), JSON),
    ("input: type is an object", "POST", "/api/input", _input('{"type": {}}'), JSON),
    ("record: a lone surrogate in a note on line 2", "POST", "/api/record",
     'RECORD\n{"type": "roll", "value": 3, "note": "\\udbff"}\n', TEXT),
    ("game: a lone surrogate in a player's name", "POST", "/api/game",
     '{"players": ["\\ud800", "Bruno"], "first_player": 0}', JSON),
    ("record: a lone surrogate on line 51", "POST", "/api/record", "RECORD51SURROGATE", TEXT),
    ("record as JSON: a lone surrogate on line 51", "POST", "/api/record", "JSON:RECORD51SURROGATE", JSON),
    ("record: a lone surrogate in the header's names", "POST", "/api/record", "HEADERSURROGATE", TEXT),
    ("record: a line nested 100,000 deep", "POST", "/api/record", "RECORD\n" + DEEP + "\n", TEXT),
    ("record as JSON: a line nested 100,000 deep", "POST", "/api/record", "JSON:RECORD\n" + DEEP + "\n", JSON),
    ("record: a 5,000-digit number", "POST", "/api/record",
     'RECORD\n{"type": "roll", "value": ' + BIG + "}\n", TEXT),
    ("pair: a lone surrogate in the code", "POST", "/pair", '{"code": "\\ud800"}', JSON),
    ("resume: game_id 2**63", "POST", "/api/resume", json.dumps({"game_id": TOO_BIG_ID}), JSON),
    ("check payout: a 5,000-digit count as text", "POST", "/api/check/payout",
     json.dumps({"counts": {"Anna": BIG, "Bruno": "1"}}), JSON),
    ("record as JSON: a 5,000-digit number", "POST", "/api/record",
     'JSON:RECORD\n{"type": "roll", "value": ' + BIG + "}\n", JSON),
    ("record: a lone surrogate in the header's meta", "POST", "/api/record", "HEADERMETA", TEXT),
    ("check final: a 5,000-digit stock", "POST", "/api/check/final",
     json.dumps({"players": [{"name": "Anna", "stock": {"gem": BIG}}, {"name": "Bruno"}]}), JSON),
    ("check final: 5,000-digit tiles", "POST", "/api/check/final",
     json.dumps({"players": [{"name": "Anna", "tiles": BIG}, {"name": "Bruno"}]}), JSON),
    ("check final: 5,000-digit tokens", "POST", "/api/check/final",
     json.dumps({"players": [{"name": "Anna", "tokens": BIG}, {"name": "Bruno"}]}), JSON),
    ("check page: a 5,000-digit payout count", "GET",
     f"/check?do=payout&name0=Anna&count0={BIG}&name1=Bruno&count1=1", None, None),
    ("check page: a 5,000-digit final stock", "GET",
     f"/check?do=final&name0=Anna&gem0={BIG}&name1=Bruno", None, None),
]


def body_for(template: str | None, record: str, version: int) -> str | None:
    """The body to send, with RECORD (and its variants) filled in from `record`."""
    if template is None:
        return None
    lines = record.splitlines()
    if "RECORD51SURROGATE" in template:
        spoiled = list(lines)
        spoiled[50] = spoiled[50][:-1] + ', "source": "\\ud800"}'          # line 51 of the file
        template = template.replace("RECORD51SURROGATE", "\n".join(spoiled) + "\n")
    if "HEADERSURROGATE" in template:
        template = template.replace("HEADERSURROGATE", lines[0].replace('"Anna"', '"\\ud800"', 1) + "\n")
    if "HEADERMETA" in template:
        template = template.replace("HEADERMETA", lines[0][:-1] + ', "meta": {"place": "\\ud800"}}\n')
    text = (template.replace("RECORD", record.rstrip("\n"))
            .replace("VERSION", str(version)))
    if text.startswith("JSON:"):
        text = json.dumps({"record": text[len("JSON:"):]})
    return text
