"""Fixtures shared by the whole suite (each part's own live in its folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Variables that choose the companion's configuration, whose values on a
# developer's machine must not leak into the tests.
_CONFIG_ENV_PREFIXES = ("ATLANDICE_CONFIG", "ATLANDICE_DATA_DIR", "ATLANDICE_SERVER_",
                        "ATLANDICE_CAMERA_", "ATLANDICE_GPIO_", "ATLANDICE_GAME_", "ATLANDICE_WEB_")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the user's config and data folders at a fresh temporary folder.

    No test reads the developer's ~/.config/atlandice-companion or writes into
    ~/.local/share; a test that wants a config sets ATLANDICE_CONFIG itself.
    Returns the folder (config in ./config, data in ./data on Linux).
    """
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    for name in list(os.environ):
        if name.startswith(_CONFIG_ENV_PREFIXES):
            monkeypatch.delenv(name)
    return home
