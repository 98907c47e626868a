"""`companion replay FILE [--score] [--table]`: JSON out, or exit 2 naming the line."""

import json
import subprocess
import sys

import pytest

from .conftest import random_game


def run(*args):
    return subprocess.run([sys.executable, "-m", "companion", "replay", *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def test_replay_prints_the_state_as_json(tmp_path, profile):
    game = random_game(profile, seed=12, players=2, stop_after=50)
    path = tmp_path / "game.jsonl"
    path.write_text(game.record.to_jsonl())
    out = run(path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["version"] == 50 and data["state"] == game.state


def test_replay_score_prints_the_breakdown(tmp_path, profile):
    game = random_game(profile, seed=13, players=4)
    path = tmp_path / "game.jsonl"
    path.write_text(game.record.to_jsonl())
    score = json.loads(run(path, "--score", "--json").stdout)
    assert score["total"] == game.state["result"]["total"] and score["provisional"] is False
    table = run(path, "--table", "--lang", "pt-BR").stdout
    assert "Joias" in table and "Total" in table


def test_a_bad_line_exits_2_and_names_it(tmp_path, profile):
    game = random_game(profile, seed=14, stop_after=20)
    lines = game.record.to_jsonl().splitlines()
    lines[7] = '{"type": "pick", "area": "inn", "for": "neutral"}'
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = run(path)
    assert out.returncode == 2 and out.stdout == ""
    assert "line 8" in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("line, why", [
    ('{"type": "pick", "area": "inn", "source": "\\ud800"}', "lone surrogate"),   # once: exit 1, unexpected
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),                            # once: RecursionError
    ('{"type": "roll", "value": ' + "9" * 5000 + "}", "too large"),                # once: no line number
    ('{"type": ["pick"], "area": "inn"}', "unknown input type"),                   # once: TypeError
    ('{"type": {}}', "unknown input type"),
])
def test_a_line_the_companion_cannot_keep_exits_2_and_names_it(tmp_path, profile, line, why):
    game = random_game(profile, seed=14, stop_after=60)
    lines = game.record.to_jsonl().splitlines()
    lines[50] = line
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run(path)
    assert out.returncode == 2 and out.stdout == ""
    assert f"{path}: line 51: " in out.stderr and why in out.stderr and "unexpected" not in out.stderr


def test_a_line_that_is_not_utf8_exits_2_and_names_it(tmp_path, profile):
    game = random_game(profile, seed=14, stop_after=20)
    lines = game.record.to_jsonl().encode("utf-8").splitlines()
    lines[5] = lines[5].replace(b'"type"', b'"type", "note": "\xe9t\xe9"', 1)
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    out = run(path)
    assert out.returncode == 2 and out.stdout == ""
    assert f"{path}: line 6: " in out.stderr and "UTF-8" in out.stderr
