"""Each shelf game's profile, kept in the data folder beside Atlandice's board profile.

A game's profile is what its box holds and its rules text does not say (Survive's
explorer values and tile backs, Atlantis's tiles and cards); the game's package ships a
default, marked unconfirmed, and checks any profile (`validate_profile`). The table
corrects it and marks it confirmed on the game's profile page; it is saved here and
used for the next game of that game. A game keeps the profile it began with: the
session writes it into the record's setup.

    profiles = GameProfiles(paths.calibration_dir(data_dir))
    profiles.get("survive")          # the one saved here, else the package's default
    profiles.save("survive", p)      # checked by the game, written atomically; a RuleError changes nothing

Atlandice's board profile keeps its own file and editor (companion/board_profile.py).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from . import games, json_text
from .board_profile import ProfileError, write_atomically
from .games.errors import RuleError
from .shelf import default_profile

FILE = "{game}_profile.json"
log = logging.getLogger("companion.profile")


def has_profile(game_id: str) -> bool:
    """Whether a game of the shelf keeps a game profile (its package checks one)."""
    return game_id != games.DEFAULT and hasattr(games.load(game_id).module, "validate_profile")


def validate(game_id: str, profile: object) -> dict:
    """The game's own check: a clean copy, or RuleError("invalid") naming the fault."""
    return games.load(game_id).module.validate_profile(profile)


class GameProfiles:
    """The saved profiles of a data folder (`folder` None: kept in memory only)."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder) if folder else None
        self._kept: dict[str, dict] = {}
        self.problems: dict[str, str] = {}     # game -> why its saved profile was not used

    def path(self, game_id: str) -> Path | None:
        games.load(game_id)                 # an unknown game never names a file
        return self.folder / FILE.format(game=game_id) if self.folder else None

    def get(self, game_id: str) -> dict:
        """The profile the next game of `game_id` begins with."""
        if game_id not in self._kept:
            self._kept[game_id] = self._read(game_id)
        return self._kept[game_id]

    def save(self, game_id: str, profile: object) -> dict:
        """Check, write, and use from the next game; refused (RuleError), nothing is written; a
        disk that refuses (StoreError, naming the file): nothing changed either."""
        clean = validate(game_id, profile)
        path = self.path(game_id)
        if path is not None:
            # Synced and renamed: a power cut leaves the old file or the new, never half.
            write_atomically(path, json.dumps(clean, ensure_ascii=False, indent=1) + "\n")
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
        if path is None or not path.is_file():
            return default_profile(game_id)
        try:
            data = json_text.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ProfileError(f"cannot read the game profile {path}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise ProfileError(f"{path}: not valid JSON: {exc}") from None
        try:
            return validate(game_id, data)
        except RuleError as exc:
            raise ProfileError(f"{path}: {exc.message}") from None
