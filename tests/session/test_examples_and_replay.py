"""The record people write and read: the shipped examples, the profile default, --events,
the score sheet, and a line that is not needed."""

import json
from pathlib import Path

import pytest

from companion.game import Game, ReplayError
from companion.shelf import words_for
from companion.record import Record
from companion.replay import fill_in_profile
from tests.replay_cli import run

ROOT = Path(__file__).resolve().parents[2]
# Atlandice's examples: those whose first line names no other game (survive-*.jsonl are Survive's).
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").glob("*.jsonl")
                  if json.loads(p.read_text(encoding="utf-8").splitlines()[0]).get("game", "atlandice") == "atlandice")


def test_the_examples_are_the_documented_ones():
    assert {p.name for p in EXAMPLES} == {"three-players.jsonl", "two-players.jsonl",
                                          "tie-at-an-empty-district.jsonl", "finished.jsonl"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_replays_with_score(path, tmp_path):
    out = run(path, "--score", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Score sheet") and "Total" in out.stdout
    assert "the installed one is used (default, unconfirmed)" in out.stderr


def test_the_whole_games_end_and_the_tie_is_asked(profile):
    games = {p.name: Game(_with(Record.from_jsonl(p.read_text()), profile)) for p in EXAMPLES}
    assert all(games[n].state["over"] for n in ("three-players.jsonl", "two-players.jsonl", "finished.jsonl"))
    assert games["two-players.jsonl"].state["neutral"]
    tie = games["tie-at-an-empty-district.jsonl"]
    assert any(e["input"]["type"] == "tile_taker" for e in tie.history)
    assert tie.state["tiles"][1] == ["I-clock"] and tie.state["tokens"][0] == 1 + 3


def _with(record, profile):
    fill_in_profile(record.header, lambda: profile)
    return record


def test_a_record_without_a_profile_is_replayed_with_the_installed_one(tmp_path, profile):
    path = ROOT / "docs" / "examples" / "tie-at-an-empty-district.jsonl"
    out = run(path, "--json", tmp_path=tmp_path)
    assert out.returncode == 0 and json.loads(out.stdout)["state"]["profile"] == profile
    header = json.loads(path.read_text().splitlines()[0])
    with pytest.raises(ReplayError) as err:      # without the replay's default: said missing
        Game(Record(header))
    assert "board profile is missing" in str(err.value)


def test_events_in_both_languages(tmp_path):
    path = ROOT / "docs" / "examples" / "tie-at-an-empty-district.jsonl"
    en = run(path, "--events", tmp_path=tmp_path).stdout
    assert "5: tile_taker 1\n   Bruno takes the Inn tile: tied for the most Provisions (2), the table chose. (the table chooses who takes a tied tile)" in en
    assert "2: pick inn\n   Eric takes a die at the Inn." in en
    pt = run(path, "--events", "--lang", "pt-BR", tmp_path=tmp_path).stdout
    assert "Pousada" in pt and "(a mesa escolhe quem pega uma peça empatada)" in pt and "Eric takes" not in pt


def test_the_score_sheet_names_players_and_keeps_its_columns(tmp_path):
    out = run(ROOT / "docs" / "examples" / "finished.jsonl", "--score", tmp_path=tmp_path).stdout
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("Resource"))
    assert header.split() == ["Resource", "Ana", "Bruno", "Eric"]
    depleted = next(line for line in lines if line.startswith("Books (depleted)"))
    total = next(line for line in lines if line.startswith("Total"))
    assert len(depleted) == len(header) == len(total)        # every column ends where its name ends
    assert total.split() == ["Total", "16", "20", "17"] and "Winners: Bruno" in out
    table = run(ROOT / "docs" / "examples" / "finished.jsonl", "--table", "--score", tmp_path=tmp_path).stdout
    rows = [line for line in table.splitlines() if line.startswith(("Resource", "Books (depleted)", "Total"))]
    assert len({len(r) for r in rows}) == 1


def test_the_next_step_is_in_the_tables_language(tmp_path):
    out = run(ROOT / "docs" / "examples" / "tie-at-an-empty-district.jsonl", "--table", "--lang", "pt-BR",
              tmp_path=tmp_path).stdout
    assert "Próximo: um dado a pegar Ana" in out and "pick" not in out


def test_a_line_for_a_skipped_step_is_refused_as_not_needed(profile):
    # Eric takes the Inn's last Provision; an extra "resource" line after the visit is not needed
    # when nothing is left: here, after the District emptied and was refilled, the next pick comes.
    text = (ROOT / "docs" / "examples" / "tie-at-an-empty-district.jsonl").read_text().splitlines()
    header = json.loads(text[0])
    header["position"]["districts"]["jeweller"]["resources"] = {"gem": 0}
    header["position"]["market"]["gem"] = 9
    lines = [json.dumps(header), '{"type": "pick", "area": "jeweller"}', '{"type": "resource", "resource": "gem"}']
    with pytest.raises(ReplayError) as err:
        Game(_with(Record.from_jsonl("\n".join(lines)), profile))
    assert err.value.line == 3 and err.value.error.key == "not_needed"
    assert str(err.value).startswith("line 3: This line (a resource to take) is not needed here. "
                                     "Nothing is left at the Jeweller: Eric takes nothing.")
    pt = words_for("atlandice", "pt-BR").refusal(err.value.error.to_dict())
    assert pt.startswith("Esta linha (um recurso a pegar) não é necessária aqui.") and "Eric" in pt


def test_every_skipped_step_is_documented():
    from companion.games.atlandice.inputs import KINDS
    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc.split("### Steps with no line")[1].split("###")[0]
    documented = {k for row in section.splitlines() if row.startswith("| `")
                  for k in row.split("|")[1].replace("`", "").replace(",", " ").split()}
    skippable = {k for k, kind in KINDS.items() if kind.skipped_by} | {"swap", "move", "take_from", "submarine",
                                                                       "tile_taker", "pick"}
    assert skippable <= documented
    for event in ("visit.nothing_to_take", "donation.cannot", "empty.reveal", "empty.depleted"):
        assert any(event in kind.skipped_by for kind in KINDS.values())


def test_the_documented_header_replays_as_written(tmp_path):
    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    block = doc.split("The beginning of a 3-player game:")[1].split("```json")[1].split("```")[0]
    path = tmp_path / "doc.jsonl"
    path.write_text(block.strip() + "\n")
    out = run(path, "--events", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Ana takes a Tool from the Engineering Works." in out.stdout
