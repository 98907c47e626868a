"""Every game's profile, kept alike: what its box holds and its rules text does not say
(Atlandice's clock track and icons, Survive's explorer values and tile backs, Atlantis's
tiles and cards).

The game's package ships a default, marked unconfirmed (`default_profile.toml`, read by
companion/shelf.py), and checks any profile (`validate_profile`; a profile set now also by
`validate_new_profile` when it has one). The table corrects it and marks it confirmed on the
game's profile page (/profile/<game>); it is saved in the data folder and used for the next
game of that game. A game keeps the profile it began with: the session writes it into the
record's setup.

    profiles = GameProfiles(paths.calibration_dir(data_dir))
    profiles.get(game_id)            # the one saved here, else the package's default
    profiles.save(game_id, p)        # checked by the game, written atomically; a RuleError changes nothing

A profile saved under the name the game's package gives as `PROFILE_FILE_BEFORE` (TOML) is
read until the profile is saved again, which writes the game's JSON file beside it.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import tomllib
from pathlib import Path

from . import games, json_text, paths
from .games.errors import RuleError
from .shelf import default_profile
from .store import StoreError

FILE = "{game}_profile.json"
log = logging.getLogger("companion.profile")


class ProfileError(ValueError):
    """A profile file that cannot be read, is not TOML or JSON, or that the game refuses."""


# An OSError's errno -> what the table is told (catalog "errors"); any other: profile_io.
_WRITE_KINDS = {errno.ENOSPC: "profile_full", errno.EDQUOT: "profile_full", errno.EROFS: "profile_read_only",
                errno.EACCES: "profile_read_only", errno.EPERM: "profile_read_only"}


def has_profile(game_id: str) -> bool:
    """Whether a game of the shelf keeps a profile (its package checks one)."""
    return hasattr(games.load(game_id).module, "validate_profile")


def validate(game_id: str, profile: object, new: bool = False) -> dict:
    """The game's own check: a clean copy, or RuleError("invalid") naming the fault. `new`: a
    profile set now (the game's `validate_new_profile`, stricter than what a record may keep)."""
    module = games.load(game_id).module
    check = getattr(module, "validate_new_profile", None) if new else None
    return (check or module.validate_profile)(profile)


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


def load_profile(path: str | Path | None = None, game: str = games.DEFAULT) -> dict:
    """A profile of `game` read from `path` (TOML, or JSON by its suffix) and checked by the
    game; the package's default when `path` is empty. ProfileError says why not, with the path."""
    if not path:
        return default_profile(game)
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"cannot read the profile {path}: {exc.strerror or exc}") from None
    try:
        data = json_text.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        kind = "JSON" if path.suffix == ".json" else "TOML"
        raise ProfileError(f"{path}: not valid {kind}: {exc}") from None
    try:
        return validate(game, data)
    except RuleError as exc:
        raise ProfileError(f"{path}: {exc.message}") from None


def save_profile(profile: dict, path: str | Path, game: str = games.DEFAULT) -> None:
    """Check a profile of `game` and write it to `path` (write_atomically; TOML or JSON by suffix)."""
    path = Path(path)
    write_atomically(path, profile_text(validate(game, profile), path))


def profile_text(profile: dict, path: Path) -> str:
    """The profile as its file keeps it: TOML for a .toml file, else JSON."""
    if path.suffix == ".toml":
        return toml_text(profile)
    return json.dumps(profile, ensure_ascii=False, indent=1) + "\n"


def toml_text(data: dict, table: str = "") -> str:
    """Plain data (text, numbers, true/false, lists of them, nested tables) as TOML."""
    plain = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = ([f"[{table}]"] if table and plain else []) + plain
    for k, v in data.items():
        if isinstance(v, dict):
            out += ["", toml_text(v, f"{table}.{_key(k)}" if table else _key(k)).rstrip("\n")]
    return "\n".join(out).lstrip("\n") + "\n"


def _key(key: object) -> str:
    key = str(key)
    return key if key and all(c.isalnum() or c in "-_" for c in key) and key.isascii() else json.dumps(key)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    # JSON's string escapes are TOML's too (a newline, say, must not break the file).
    return json.dumps(str(value), ensure_ascii=False)


class GameProfiles:
    """The saved profiles of a data folder (`folder` None: kept in memory only). `files`: a
    game's profile file chosen in the configuration instead ({game id: path})."""

    def __init__(self, folder: str | Path | None = None, files: dict | None = None):
        self.folder = Path(folder) if folder else None
        self.files = {g: Path(p) for g, p in (files or {}).items() if p}
        self._kept: dict[str, dict] = {}
        self.problems: dict[str, str] = {}     # game -> why its saved profile was not used

    @classmethod
    def of(cls, config) -> "GameProfiles":
        """The profiles a configuration keeps: its data folder's, and the first game's file
        when `game.board_profile` names one."""
        return cls(paths.calibration_dir(config.data_dir), {games.DEFAULT: config.game.board_profile})

    def path(self, game_id: str) -> Path | None:
        games.load(game_id)                 # an unknown game never names a file
        if game_id in self.files:
            return self.files[game_id]
        return self.folder / FILE.format(game=game_id) if self.folder else None

    def _before(self, game_id: str) -> Path | None:
        """Where the game's profile was saved before (its package's PROFILE_FILE_BEFORE)."""
        name = getattr(games.load(game_id).module, "PROFILE_FILE_BEFORE", None)
        return self.folder / name if name and self.folder and game_id not in self.files else None

    def get(self, game_id: str) -> dict:
        """The profile the next game of `game_id` begins with."""
        if game_id not in self._kept:
            self._kept[game_id] = self._read(game_id)
        return self._kept[game_id]

    def use(self, game_id: str, profile: object) -> dict:
        """Use `profile` for the next games of `game_id` without writing it (a session in memory)."""
        self._kept[game_id] = validate(game_id, profile)
        return self._kept[game_id]

    def save(self, game_id: str, profile: object) -> dict:
        """Check, write, and use from the next game; refused (RuleError), nothing is written; a
        disk that refuses (StoreError, naming the file): nothing changed either."""
        clean = validate(game_id, profile, new=True)
        path = self.path(game_id)
        if path is not None:
            # Synced and renamed: a power cut leaves the old file or the new, never half.
            write_atomically(path, profile_text(clean, path))
        self._kept[game_id] = clean
        self.problems.pop(game_id, None)
        return clean

    def check(self) -> list[str]:
        """Read every game's saved profile now (at start): a damaged or empty file is said at
        once, with its path (returned, and logged), and that game's default is used; nothing
        stops the start."""
        for rules in games.shelf():
            if has_profile(rules.id):
                self.get(rules.id)
        return list(self.problems.values())

    def _read(self, game_id: str) -> dict:
        """The saved profile, else the default; a damaged one: the default, and why in `problems`."""
        try:
            return self._saved(game_id)
        except ProfileError as exc:
            self.problems[game_id] = (f"{exc}; the default profile of {game_id} is used until it is saved "
                                      f"again on its profile page")
            log.warning("%s", self.problems[game_id])
            return default_profile(game_id)

    def _saved(self, game_id: str) -> dict:
        path = self.path(game_id)
        if path is not None and path.is_file():
            return load_profile(path, game_id)
        before = self._before(game_id)
        if before is not None and before.is_file():
            return load_profile(before, game_id)
        return default_profile(game_id)
