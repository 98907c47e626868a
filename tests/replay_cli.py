"""`companion replay ARGS` in a fresh process, with an empty config and its own data folder."""

import os
import subprocess
import sys


def run(*args, tmp_path):
    config = tmp_path / "config.toml"
    config.touch()
    env = dict(os.environ, ATLANDICE_CONFIG=str(config), ATLANDICE_DATA_DIR=str(tmp_path / "data"))
    return subprocess.run([sys.executable, "-m", "companion", "replay", *map(str, args)],
                          capture_output=True, text=True, timeout=60, env=env)
