"""Golden playthroughs: every game's records replayed, the text compared exactly.

For each record kept here (`<game>/<name>.jsonl`, or a play with UNDO and REDO,
`<game>/<name>.play.jsonl`), `companion replay --events --table --score` in both
languages and `--score --json` are kept beside it (`<name>.en.txt`, `<name>.pt-BR.txt`,
`<name>.score.json`) and must come out the same, byte for byte. A play is pressed through
the session first (each UNDO and REDO where the table pressed it), and what the session
said at each press is kept too (`<name>.said.txt`).

A change that means to alter the text rewrites them on purpose:
`UPDATE_GOLDEN=1 python -m pytest tests/golden`, then `git diff tests/golden` shows
exactly what changed.
"""

import contextlib
import io
import json
import os
from argparse import Namespace
from pathlib import Path

import pytest

from companion.game_profiles import load_profile
from companion.replay import main_replay
from companion.session import Session
from companion.store import GameStore

HERE = Path(__file__).resolve().parent
LANGS = ("en", "pt-BR")
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
RECORDS = sorted(p for p in HERE.glob("*/*.jsonl"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name.removesuffix('.jsonl')}"


def replay(path: Path, lang: str = "en", **flags) -> str:
    args = Namespace(file=path, lang=lang, installed_profile=None,
                     **{k: flags.get(k, False) for k in ("events", "table", "score", "json")})
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main_replay(args)
    assert not status, err.getvalue()
    return out.getvalue()


def play(path: Path, tmp_path: Path) -> tuple[Path, str]:
    """Press a play through the session: (its record, written out; what each UNDO/REDO said)."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    sess = Session(GameStore(tmp_path / "g.sqlite3"), load_profile())
    said = []
    try:
        sess.load_record(json.dumps(lines[0], ensure_ascii=False) + "\n")
        for n, step in enumerate(lines[1:], start=2):
            do = step.get("do")
            if do == "undo":
                taken = sess.undo()
                said.append(f"{n}: undo -> {json.dumps(taken, ensure_ascii=False)}")
            elif do == "redo":
                events = sess.redo()
                said.append(f"{n}: redo -> {len(events)} events, version {sess.game.version}")
            else:
                sess.submit(step, sess.game.version)
        record = tmp_path / path.name.replace(".play", "")
        record.write_text(sess.game.record.to_jsonl(), encoding="utf-8")
    finally:
        sess.close()
    return record, "\n".join(said) + "\n"


def check(expected: Path, text: str) -> None:
    if UPDATE:
        expected.write_text(text, encoding="utf-8")
        return
    assert expected.is_file(), f"no golden {expected.name}: write it with UPDATE_GOLDEN=1"
    assert text == expected.read_text(encoding="utf-8"), \
        f"{expected.name} differs (UPDATE_GOLDEN=1 rewrites it when the change is meant)"


def test_every_game_has_its_golden_records():
    games = {p.parent.name for p in RECORDS}
    assert {"atlandice", "survive", "atlantis"} <= games
    for game in games:
        names = [p.name for p in RECORDS if p.parent.name == game]
        assert any(n.endswith(".play.jsonl") for n in names), f"{game}: no play with undo"
        assert len(names) >= 3, f"{game}: a whole game, a two-player game and a play with undo"


@pytest.mark.parametrize("path", RECORDS, ids=_id)
def test_the_replay_text_is_the_golden_one(path, tmp_path):
    folder = HERE / path.parent.name
    stem = path.name.removesuffix(".jsonl")
    if stem.endswith(".play"):
        stem = stem.removesuffix(".play")
        path, said = play(path, tmp_path)
        check(folder / f"{stem}.said.txt", said)
    for lang in LANGS:
        check(folder / f"{stem}.{lang}.txt", replay(path, lang, events=True, table=True, score=True))
    check(folder / f"{stem}.score.json", replay(path, score=True, json=True))
