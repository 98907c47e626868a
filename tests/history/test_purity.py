"""The history's statistics are pure: standard library only, no I/O, no clock, no store, no page."""

import sys
from pathlib import Path

import pytest

from tests.test_packaging import ADAPTERS, imported_modules

HISTORY = Path(__file__).resolve().parents[2] / "companion" / "history"
INWARD = ("companion.history", "companion.games.atlandice", "companion.games", "companion.game", "companion.record")


@pytest.mark.parametrize("file", sorted(HISTORY.glob("*.py")), ids=lambda f: f.name)
def test_the_history_imports_only_the_standard_library_and_the_games(file):
    for module, line in imported_modules(file):
        top = module.split(".")[0]
        where = f"{file.name}:{line} imports {module}"
        assert top not in ADAPTERS, where
        if top == "companion":
            assert module.startswith(INWARD), where
        else:
            assert top in sys.stdlib_module_names, where
            assert top not in ("os", "pathlib", "time", "datetime", "random", "sqlite3", "socket"), where
