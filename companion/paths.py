"""Where the companion keeps its files, following the platform's conventions.

On Linux (the Pi included) that is the XDG layout:
  config  ~/.config/atlandice-companion/config.toml   ($XDG_CONFIG_HOME)
  data    ~/.local/share/atlandice-companion/          ($XDG_DATA_HOME)
platformdirs gives the matching folders on macOS and Windows.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "atlandice-companion"

# Environment variables that choose files rather than configuration values.
CONFIG_ENV = "ATLANDICE_CONFIG"
DATA_DIR_ENV = "ATLANDICE_DATA_DIR"

# Inside the data folder: one SQLite database and the camera calibrations.
DATABASE_NAME = "companion.sqlite3"
CALIBRATION_DIR_NAME = "calibration"


def default_config_path(env: Mapping[str, str] | None = None) -> Path:
    """The config file to read: $ATLANDICE_CONFIG, else the user's config folder."""
    env = os.environ if env is None else env
    explicit = env.get(CONFIG_ENV, "")
    if explicit:
        return Path(explicit).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "config.toml"


def default_data_dir() -> Path:
    """The platform's per-user data folder (the config may move it: `data_dir`)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def database_path(data_dir: Path) -> Path:
    """The SQLite file of games and sessions inside a data folder."""
    return data_dir / DATABASE_NAME


def calibration_dir(data_dir: Path) -> Path:
    """Where camera calibrations (board homography, dice colours) are saved."""
    return data_dir / CALIBRATION_DIR_NAME


def ensure_dir(path: Path) -> Path:
    """Create a folder (and its parents) on first use; return it."""
    path.mkdir(parents=True, exist_ok=True)
    return path
