"""Load and save the board profile (R12) from TOML; the rules check it."""

import json
import tomllib
from pathlib import Path

from . import paths
from .games.errors import RuleError
from .games.atlandice.profile import validate_profile

DEFAULT_PROFILE_PATH = Path(__file__).resolve().parent.parent / "calibration" / "board_profile.toml"
PROFILE_FILE = "board_profile.toml"


class ProfileError(ValueError):
    pass


def load_profile(path: str | Path | None = None) -> dict:
    """Read and validate a board profile; the shipped default when `path` is empty."""
    path = Path(path) if path else DEFAULT_PROFILE_PATH
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProfileError(f"cannot read the board profile {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: not valid TOML: {exc}") from None
    try:
        return validate_profile(data)
    except RuleError as exc:
        raise ProfileError(f"{path}: {exc.message}") from None


def profile_paths(config) -> tuple[Path, Path]:
    """(where the installed profile is read from, where edits are saved): the config's
    game.board_profile, else the one saved in the data folder, else the shipped default."""
    if config.game.board_profile:
        return config.game.board_profile, config.game.board_profile
    saved = paths.calibration_dir(config.data_dir) / PROFILE_FILE
    return (saved if saved.is_file() else DEFAULT_PROFILE_PATH), saved


def installed_profile(config) -> dict:
    """The profile the page uses for a new game."""
    return load_profile(profile_paths(config)[0])


def dump_profile(profile: dict) -> str:
    """The profile as TOML text (the same layout as the shipped default)."""
    profile = validate_profile(profile)
    lines = [
        f"name = {_quote(profile['name'])}",
        f"confirmed = {'true' if profile['confirmed'] else 'false'}",
        "track = [" + ", ".join(_quote(s) for s in profile["track"]) + "]",
        "",
        "[icons]",
    ]
    lines += [f"{name} = {value}" for name, value in profile["icons"].items()]
    return "\n".join(lines) + "\n"


def save_profile(profile: dict, path: str | Path) -> None:
    """Write atomically, so a power cut leaves the old or the new file, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(dump_profile(profile), encoding="utf-8")
    tmp.replace(path)


def _quote(text: str) -> str:
    # JSON's string escapes are TOML's too (a newline, say, once broke the file and the start).
    return json.dumps(text, ensure_ascii=False)
