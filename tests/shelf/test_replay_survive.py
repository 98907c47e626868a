"""`companion replay` on Survive records: the shipped examples' tally, table and events in
words (both languages), JSON out, a record without a profile, and a bad line named."""

import json
from pathlib import Path

import pytest

from companion.games.survive.replay import replay_jsonl
from tests.replay_cli import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("survive-*.jsonl"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_a_survive_example_replays_with_its_tally(path, tmp_path):
    state, _ = replay_jsonl(path.read_text(encoding="utf-8"))      # the engine's own replay, for the figures
    out = run(path, "--score", tmp_path=tmp_path)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert out.stdout.startswith("Score sheet\n")
    for seat in state["result"]["seats"]:
        assert f"Total: {seat['total']}" in out.stdout
    winner = state["players"][state["result"]["winners"][0]]
    assert f"Winner: {winner}" in out.stdout
    data = json.loads(run(path, "--score", "--json", tmp_path=tmp_path).stdout)
    assert data["winners"] == state["result"]["winners"] and data["provisional"] is False


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_a_survive_example_prints_its_table_and_events_in_both_languages(path, tmp_path):
    table = run(path, "--table", "--lang", "pt-BR", tmp_path=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "Peças de Terreno restantes" in table.stdout and "Barcos" in table.stdout
    events = run(path, "--events", tmp_path=tmp_path)
    assert events.returncode == 0, events.stderr
    lines = path.read_text(encoding="utf-8").strip().splitlines()
    assert f"\n{len(lines)}: " in events.stdout                 # the last input, by its line
    assert "Setup 1: put the 5 sea serpents" in events.stdout and "{" not in events.stdout


def test_a_survive_record_without_a_profile_uses_the_games_default_and_says_so(tmp_path):
    lines = EXAMPLES[0].read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    del header["setup"]["profile"]
    # up to its first reveal: which backs lie under which terrain is the profile's (S4)
    first_reveal = next(n for n, line in enumerate(lines) if '"reveal"' in line)
    path = tmp_path / "bare.jsonl"
    path.write_text("\n".join([json.dumps(header)] + lines[1:first_reveal]) + "\n")
    out = run(path, "--score", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "the installed one is used (default, unconfirmed)" in out.stderr


def test_a_bad_survive_line_exits_2_and_names_it(tmp_path):
    lines = EXAMPLES[0].read_text(encoding="utf-8").splitlines()
    first_remove = next(n for n, line in enumerate(lines) if '"remove"' in line)
    lines[first_remove] = '{"type": "remove", "terrain": "forest"}'
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = run(path, "--score", tmp_path=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert f"line {first_remove + 1}:" in out.stderr


def test_a_record_naming_an_unknown_game_exits_2_on_line_1(tmp_path):
    path = tmp_path / "chess.jsonl"
    path.write_text('{"format": "atlandice-record", "version": 1, "game": "chess", "setup": {}}\n')
    out = run(path, tmp_path=tmp_path)
    assert out.returncode == 2 and "line 1: unknown game 'chess'" in out.stderr
