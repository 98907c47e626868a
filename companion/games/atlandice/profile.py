"""The board profile: what the printed board shows and the text does not (R12).

A profile is plain data:

    {"name": "...", "confirmed": False,
     "track": ["start", "", "survey:gem", "donation", ..., "end"],
     "icons": {"J-odd": 2, ..., "E3": 3, "market": 2}}

`track` lists the clock spaces from the start space (arrow) to the end space
(waves). A space is "" (nothing), "survey:<resource>", "survey:total" or
"donation". `icons` gives the clock icons (1-3) of every tile and of the Black
Market. The default shipped in calibration/ is marked unconfirmed until the
owner checks it against their copy.
"""

from ..errors import invalid
from .names import MARKET, RESOURCES, TILES

SPACE_KINDS = ("", "donation", "survey:total") + tuple(f"survey:{r}" for r in RESOURCES)
MIN_SPACES, MAX_SPACES = 5, 60
MAX_NAME = 60            # a profile's name, characters


# Where the profile was saved (TOML, in the data folder's calibration folder) before every
# game's profile was kept alike: still read until the table saves the profile again.
PROFILE_FILE_BEFORE = "board_profile.toml"


def validate_profile(profile: object) -> dict:
    """Return a clean copy of `profile`, or raise RuleError("invalid") naming the fault."""
    if profile is None:
        raise invalid("the board profile is missing: give the clock track and the clock icons "
                      "(`companion replay` uses the installed profile when the record has none)", "R12")
    if not isinstance(profile, dict):
        raise invalid("the board profile must be a table", "R12")
    track = profile.get("track")
    if not isinstance(track, list) or not all(isinstance(s, str) for s in track):
        raise invalid("board profile: 'track' must be a list of spaces", "R12")
    if not MIN_SPACES <= len(track) <= MAX_SPACES:
        raise invalid(f"board profile: the track must have {MIN_SPACES} to {MAX_SPACES} spaces, not {len(track)}", "R12")
    if track[0] != "start" or track[-1] != "end":
        raise invalid("board profile: the track must begin with 'start' and finish with 'end'", "R12")
    for i, space in enumerate(track[1:-1], start=1):
        if space not in SPACE_KINDS:
            raise invalid(f"board profile: space {i} is {space!r}; expected one of {', '.join(repr(k) for k in SPACE_KINDS)}", "R12")
    icons = profile.get("icons")
    if not isinstance(icons, dict):
        raise invalid("board profile: 'icons' must be a table", "R12")
    wanted = set(TILES) | {MARKET}
    unknown = set(icons) - wanted
    if unknown:
        raise invalid(f"board profile: unknown tile(s) in icons: {', '.join(sorted(unknown))}", "R12")
    for name in sorted(wanted):
        value = icons.get(name)
        if type(value) is not int or not 1 <= value <= 3:
            raise invalid(f"board profile: the clock icons of {name} must be 1, 2 or 3, not {value!r}", "R12")
    confirmed = profile.get("confirmed", False)
    if not isinstance(confirmed, bool):
        raise invalid("board profile: 'confirmed' must be true or false", "R12")
    return {
        "name": str(profile.get("name", "custom")),
        "confirmed": confirmed,
        "track": list(track),
        "icons": {name: icons[name] for name in list(TILES) + [MARKET]},
    }


def validate_new_profile(profile: object) -> dict:
    """`validate_profile`, for a profile set now: its name also one line of 1 to MAX_NAME
    characters. Only here: records keep the profile they began with, and one saved with
    another name must still replay."""
    name = profile.get("name", "custom") if isinstance(profile, dict) else None
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME or not name.isprintable():
        raise invalid(f"board profile: 'name' must be text of 1 to {MAX_NAME} characters on one line", "R12")
    return validate_profile(dict(profile, name=name.strip()))


def end_space(profile: dict) -> int:
    return len(profile["track"]) - 1
