"""The README's two commands, pyproject.toml and .ci/run must agree, and stay so.

Also the architecture rule that keeps the rules engine pure.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from companion import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI_RUN = ROOT / ".ci" / "run"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def quick_start_commands() -> list[str]:
    """The one-line ```sh blocks of the README's "Quick start" section, in order."""
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", README, re.S | re.M)
    assert section, "README.md has no '## Quick start' section"
    blocks = re.findall(r"^```sh\n(.*?)^```", section.group(1), re.S | re.M)
    assert all(block.count("\n") == 1 for block in blocks), "each command is one line"
    return [block.strip() for block in blocks]


def start_command() -> str:
    (command,) = [c for c in quick_start_commands() if "companion serve" in c]
    return command


def readme_test_command() -> str:
    (command,) = [c for c in quick_start_commands() if "pytest" in c]
    return command


def steps(command: str) -> list[list[str]]:
    return [shlex.split(step) for step in command.split("&&")]


def test_readme_has_exactly_the_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert commands == [start_command(), readme_test_command()]
    for command in commands:  # a fresh venv: nothing from the machine is assumed
        assert steps(command)[0] == ["python3", "-m", "venv", ".venv"]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    lines = [line.strip() for line in CI_RUN.read_text(encoding="utf-8").splitlines()]
    assert readme_test_command() in lines
    assert "set -euo pipefail" in lines
    assert os.access(CI_RUN, os.X_OK), ".ci/run must be executable"
    assert subprocess.run(["bash", "-n", str(CI_RUN)]).returncode == 0


def test_the_start_command_runs_the_installed_console_script() -> None:
    install, run = steps(start_command())[1:]
    assert install == [".venv/bin/pip", "install", "-e", "."]
    script, subcommand = run
    assert script == ".venv/bin/companion"
    assert PYPROJECT["project"]["scripts"] == {"companion": "companion.cli:main"}
    commands = next(a for a in cli.build_parser()._actions if a.dest == "command")
    assert subcommand in commands.choices  # `serve` is a real subcommand


def test_the_test_command_installs_the_test_extra_and_runs_the_suite() -> None:
    install, run = steps(readme_test_command())[1:]
    assert install == [".venv/bin/pip", "install", "-e", ".[test]"]
    assert run == [".venv/bin/python", "-m", "pytest"]
    names = [Requirement(r).name for r in PYPROJECT["project"]["optional-dependencies"]["test"]]
    assert "pytest" in names
    assert PYPROJECT["tool"]["pytest"]["ini_options"]["testpaths"] == ["tests"]


def test_python_version_matches_the_readme() -> None:
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
    assert "Python 3.11" in README
    assert sys.version_info >= (3, 11)


def all_requirements() -> list[Requirement]:
    project = PYPROJECT["project"]
    extras = [r for group in project["optional-dependencies"].values() for r in group]
    return [Requirement(r) for r in [*project["dependencies"], *extras]]


def test_opencv_is_headless_and_picamera2_is_not_from_pip() -> None:
    names = {Requirement(r).name.lower() for r in PYPROJECT["project"]["dependencies"]}
    assert "opencv-python-headless" in names
    assert not names & {"opencv-python", "opencv-contrib-python", "picamera2"}
    assert not {r.name.lower() for r in all_requirements()} & {"opencv-python", "picamera2"}


@pytest.mark.parametrize("requirement", all_requirements(), ids=str)
def test_every_dependency_has_a_compatible_range(requirement: Requirement) -> None:
    operators = {spec.operator for spec in requirement.specifier}
    assert operators & {">=", "~="}, f"{requirement} has no lower bound"
    assert operators & {"<", "~="}, f"{requirement} has no upper bound"


def test_the_default_config_ships_with_the_package() -> None:
    data = PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    assert "*.toml" in data
    assert (ROOT / "companion" / "default_config.toml").is_file()


def test_the_dice_reader_models_ship_small_and_run_without_torch() -> None:
    assert "*.onnx" in PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    models = sorted((ROOT / "vision" / "models").glob("*.onnx"))
    assert [m.name for m in models] == ["dice_cls.onnx", "dice_cls_wide.onnx", "dice_det.onnx"]
    assert all(m.stat().st_size < 3_000_000 for m in models)        # "a few MB at most"
    # Reading a frame loads the nets with OpenCV alone: torch is for training only.
    code = ("import sys, vision; r = vision.read(vision.render([4, 2], seed=1)); "
            "assert sorted(r.values) == [2, 4], r; "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('torch', 'onnx')], 'torch imported'")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


ADAPTERS = {"cv2", "numpy", "flask", "werkzeug", "waitress", "gpiozero", "picamera2", "segno",
            "platformdirs", "sqlite3", "vision", "hardware", "web", "calibration", "playwright"}


def imported_modules(file: Path) -> list[tuple[str, int]]:
    """(absolute module name, line) of every import in a file of the repository."""
    package = list(file.relative_to(ROOT).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"), str(file))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve it, so `from .. import store` is caught
                base = package[:len(package) - node.level + 1]
                found.append((".".join([*base, *([node.module] if node.module else [])]),
                              node.lineno))
            else:
                found.append((node.module or "", node.lineno))
    return found


# Every game on the shelf (Atlandice's engine included, docs/engine-api.md) is pure: standard
# library only, its own package, the shared error shape (companion.games.errors), and chance
# only in its simulator. So it runs and is tested without a camera, a Pi, a database or a browser.
GAMES = ROOT / "companion" / "games"


def games_files() -> list[Path]:
    return sorted(GAMES.rglob("*.py")) if GAMES.is_dir() else []


# What every game may import from the shelf itself: pure, standard library only (checked too).
SHARED_PURE = ("companion.games.errors", "companion.games.page", "companion.games.plural")


def game_import_fault(file: Path, module: str) -> str | None:
    """Why `module` may not be imported by `file` of companion/games/, or None."""
    parts = file.relative_to(GAMES).parts
    own = "companion.games" + (f".{parts[0]}" if len(parts) > 1 else "")
    top = module.split(".")[0]
    if top in ADAPTERS:
        return "an adapter"
    if top == "companion":   # its own game's package, the shared error shape and page helper
        if not (module == own or module.startswith(own + ".") or module in SHARED_PURE):
            return "outside its game"
    elif top not in sys.stdlib_module_names:
        return "not the standard library"
    if top == "random" and file.name != "simulate.py":
        return "chance outside the simulator"
    if top in ("os", "io", "pathlib", "time", "datetime", "socket", "subprocess", "shutil"):
        return "I/O or the clock"
    return None


@pytest.mark.skipif(not GAMES.is_dir(), reason="companion/games/ does not exist yet")
@pytest.mark.parametrize("file", games_files(), ids=lambda f: str(f.relative_to(ROOT)))
def test_every_game_imports_only_the_standard_library(file: Path) -> None:
    for module, line in imported_modules(file):
        assert game_import_fault(file, module) is None, f"{file.relative_to(ROOT)}:{line} imports {module}"


def test_the_games_purity_check_catches_bad_imports() -> None:
    assert game_import_fault(GAMES / "survive" / "table.py", "companion.games.page") is None
    engine = GAMES / "survive" / "engine.py"
    assert game_import_fault(engine, "companion.games.survive.tiles") is None
    assert game_import_fault(engine, "companion.games.errors") is None
    assert game_import_fault(engine, "companion.games.atlantis.tiles") == "outside its game"
    assert game_import_fault(engine, "companion.session") == "outside its game"
    assert game_import_fault(engine, "flask") == "an adapter"
    assert game_import_fault(engine, "hypothesis") == "not the standard library"
    assert game_import_fault(engine, "random") == "chance outside the simulator"
    assert game_import_fault(GAMES / "survive" / "simulate.py", "random") is None
    assert game_import_fault(engine, "pathlib") == "I/O or the clock"
    atlandice = GAMES / "atlandice" / "engine.py"
    assert game_import_fault(atlandice, "companion.games.atlandice.inputs") is None
    assert game_import_fault(engine, "companion.games.atlandice.inputs") == "outside its game"
    assert game_import_fault(atlandice, "companion.i18n") == "outside its game"
    assert game_import_fault(atlandice, "companion.store") == "outside its game"


def shipped_packages() -> list[str]:
    """The packages pyproject.toml installs: setuptools' `packages.find` (namespaces on, its
    default there) is every folder below the root whose dotted name matches an `include`
    pattern and no `exclude` one."""
    from fnmatch import fnmatchcase

    find = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    found = []
    for folder in sorted(p for p in ROOT.rglob("*") if p.is_dir()):
        parts = folder.relative_to(ROOT).parts
        if not all(part.isidentifier() for part in parts):
            continue
        name = ".".join(parts)
        if any(fnmatchcase(name, pat) for pat in find["include"]) and \
                not any(fnmatchcase(name, pat) for pat in find.get("exclude", ())):
            found.append(name)
    return found


def test_the_installed_package_carries_the_reader_but_not_its_tools() -> None:
    # The Pi installs the reader; the bench, its sheet and the training (torch) stay in the checkout.
    packages = shipped_packages()
    assert {"vision", "vision.models", "companion", "web", "hardware"} <= set(packages)
    assert (ROOT / "vision_tools" / "bench.py").is_file() and (ROOT / "vision_tools" / "train").is_dir()
    assert not [p for p in packages if p.split(".")[0] == "vision_tools" or "train" in p.split(".")], packages
    modules = [f for p in packages for f in (ROOT / p.replace(".", "/")).glob("*.py")]
    assert not [f for f in modules if f.stem in ("bench", "sheet", "train_dice", "sweep")], modules
    for file in modules:
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names] + \
                   [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level]
        assert not [m for m in imported if m.split(".")[0] in ("torch", "onnx")], file
