"""`companion replay` on Atlantis records: the shipped examples' score, table and events in
words (both languages), JSON out, and a bad line named."""

import json
from pathlib import Path

import pytest

from companion.games.atlantis import replay
from tests.replay_cli import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("atlantis-*.jsonl"))


def engine_replay(path):
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return replay(lines[0]["setup"], lines[1:])[0]


def test_there_are_atlantis_examples():
    assert len(EXAMPLES) == 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_atlantis_example_replays_with_its_score(path, tmp_path):
    state = engine_replay(path)                                   # the engine's own replay, for the figures
    out = run(path, "--score", tmp_path=tmp_path)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert out.stdout.startswith("Score sheet\n")
    for line in state["result"]["scores"]:
        assert f"= Total: {line['total']}\n" in out.stdout
        for settled in line["settlement"]:
            assert f"from space {settled['from']}: -{settled['cost']}" in out.stdout
    assert ": -0\n" not in out.stdout                             # a free way home is no payment
    winner = state["players"][state["result"]["winners"][0]]
    assert f"Winner with {state['result']['best']} points: {winner}" in out.stdout
    data = json.loads(run(path, "--score", "--json", tmp_path=tmp_path).stdout)
    assert data["winners"] == state["result"]["winners"] and data["provisional"] is False
    pt = run(path, "--score", "--lang", "pt-BR", tmp_path=tmp_path)
    assert pt.returncode == 0 and f"Vence com {state['result']['best']} pontos: {winner}" in pt.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_atlantis_example_prints_its_table_and_events_in_both_languages(path, tmp_path):
    table = run(path, "--table", "--lang", "pt-BR", tmp_path=tmp_path)
    assert table.returncode == 0, table.stderr
    assert table.stdout.startswith("O caminho\n") and "\n 27 água" in table.stdout and "Peças" in table.stdout
    events = run(path, "--events", tmp_path=tmp_path)
    assert events.returncode == 0, events.stderr
    lines = path.read_text(encoding="utf-8").strip().splitlines()
    assert f"\n{len(lines)}: cards_left " in events.stdout           # the last input, by its line
    assert "goes from Atlantis to space" in events.stdout and "{" not in events.stdout
    assert "(ruling A16)" in events.stdout                           # crossings settled at the end


def test_a_broken_atlantis_record_names_its_line(tmp_path):
    lines = EXAMPLES[0].read_text(encoding="utf-8").splitlines()
    lines[3] = json.dumps({"type": "cards_left", "count": 3})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run(bad, "--score", tmp_path=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert "line 4:" in out.stderr
