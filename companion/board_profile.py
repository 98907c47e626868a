"""Load and save the board profile (R12) from TOML; the rules check it."""

import errno
import json
import logging
import os
import tomllib
from pathlib import Path

from . import paths
from .games.errors import RuleError
from .games.atlandice.profile import validate_profile
from .store import StoreError

log = logging.getLogger("companion.profile")

DEFAULT_PROFILE_PATH = Path(__file__).resolve().parent.parent / "calibration" / "board_profile.toml"
PROFILE_FILE = "board_profile.toml"


class ProfileError(ValueError):
    pass


# An OSError's errno -> what the table is told (catalog "errors"); any other: profile_io.
_WRITE_KINDS = {errno.ENOSPC: "profile_full", errno.EDQUOT: "profile_full", errno.EROFS: "profile_read_only",
                errno.EACCES: "profile_read_only", errno.EPERM: "profile_read_only"}


def write_atomically(path: str | Path, text: str) -> None:
    """Write `text` to `path` so a power cut leaves the old file or the new, never half or empty:
    a temporary file beside it, synced, renamed over it, the folder synced. A disk that refuses
    (full, read-only, failing) is a StoreError naming the file (507 or 503 on the page); the old
    file is left as it was and no temporary file stays."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            raise
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StoreError(_WRITE_KINDS.get(exc.errno, "profile_io"), str(path), exc.strerror or str(exc),
                         source="the system") from None


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
    """Write atomically (write_atomically): a power cut leaves the old or the new file, never half;
    a disk that refuses is a StoreError naming the file, and the old file stays."""
    write_atomically(path, dump_profile(profile))


def load_or_default(path: str | Path | None, say=log.warning) -> dict:
    """The profile at `path`, or, when it cannot be read or is empty or damaged, the shipped
    default, having said why (with its path) through `say`: a bad file never stops the start."""
    try:
        return load_profile(path)
    except ProfileError as exc:
        say(f"{exc}; the shipped board profile is used until it is saved again on the profile page")
        return load_profile()


def _quote(text: str) -> str:
    # JSON's string escapes are TOML's too (a newline, say, once broke the file and the start).
    return json.dumps(text, ensure_ascii=False)
