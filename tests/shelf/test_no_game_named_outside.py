"""Outside companion/games/ no module, template or script names a game: no game-id string, no
import of a game's package, no file named after a game (the registry's list aside). The shared
parts ask the registry (companion/games/__init__.py), so a new game touches only its package."""

import re
from pathlib import Path

from companion import games

ROOT = Path(__file__).resolve().parents[2]
SHARED = ("companion", "web", "hardware", "vision", "calibration")
KINDS = {".py", ".html", ".js", ".css", ".json", ".toml", ".svg"}

# Lines that hold a game's id without naming the game (none today).
NOT_A_GAME: dict[str, str] = {}


def naming(ids: list[str], root: Path = ROOT) -> dict[str, list[str]]:
    """Each shared file that names one of `ids`, with the lines (or its name) that do."""
    quoted = re.compile(r"""["'](%s)["']""" % "|".join(map(re.escape, ids)))
    package = re.compile(r"games[./](%s)\b" % "|".join(map(re.escape, ids)))
    found: dict[str, list[str]] = {}
    for top in SHARED:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith("companion/games/") or "__pycache__" in rel or not path.is_file():
                continue
            if any(i in path.name.lower() for i in ids):
                found.setdefault(rel, []).append(path.name)
            if path.suffix not in KINDS:
                continue
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                allowed = NOT_A_GAME.get(rel)
                if (quoted.search(line) or package.search(line)) and not (allowed and allowed in line):
                    found.setdefault(rel, []).append(line.strip())
    return found


def test_no_shared_file_names_a_game():
    found = naming([g.id for g in games.shelf()])
    assert not found, f"shared files naming a game (ask the registry instead): {found}"


def test_the_search_finds_a_game_named_in_each_way(tmp_path):
    # The search itself: a quoted id, an import and a file name are each caught.
    web = tmp_path / "web"
    web.mkdir()
    (web / "a.py").write_text('x = "toss"\n', encoding="utf-8")
    (web / "b.py").write_text("from companion.games.toss import rules\n", encoding="utf-8")
    (web / "toss_view.html").write_text("<p></p>\n", encoding="utf-8")
    (web / "c.py").write_text('note = "tossing a coin"\n', encoding="utf-8")
    found = naming(["toss"], tmp_path)
    assert set(found) == {"web/a.py", "web/b.py", "web/toss_view.html"}
