"""The shelf: every game the companion keeps, registered once by its short id.

Callers load a game by its id (`load("survive")`) and never import its package
directly; a record's header names its game (`"game": "survive"`), and a record
that names none was written before the shelf: it is Atlandice.

Each game is a package of pure rules (standard library only) with one protocol:

    new_state(setup) -> state              a bad setup: RuleError("invalid")
    start(state) -> (state, events)        the first events
    expected(state) -> prompt              {"kind", "seat", "options", "context"}: every legal input now
    apply(state, inp) -> (state, events)   a refusal: RuleError (kind, rule, key, params), state unchanged
    state["over"], state["result"]         the end, and the final tally with its breakdown

and may add `apply_in_place`, `normalize`, `copy_state`, `seat_names`, `score`,
`validate_position` and `SETUP_OPTIONS` (see `Rules` for what stands in when one is missing). The table's
history (companion/history/) asks each game the same few things, in its package too:

    totals(state) -> [score per player]    or None while the game keeps none
    DIE_FACES                              the faces of its die (none: no die)
    rolled(inp) -> [faces]                 the faces a roll says came up ([] for a choice)
    player_extra(state) -> [per player]    {line: {item: n}} it adds to a player's record, or absent
    PLAYER_LINES                           {line: {"group": catalog group of its items,
                                           "how": "average" | "total", "shapes": bool}}

Its words
are its own catalogs, `i18n/en.json` and `i18n/pt-BR.json`, said by its `words`
module (companion/shelf.py loads them at the edge).

What a game gives the rest of the companion, and how to add one: docs/games.md.
"""

import importlib
import marshal
from dataclasses import dataclass

from companion.games.errors import invalid

DEFAULT = "atlandice"


@dataclass(frozen=True)
class Rules:
    """One game of the shelf: its id, its names (en, pt-BR) and its rules package."""

    id: str
    names: dict
    package: str

    @property
    def module(self):
        return importlib.import_module(self.package)

    def new_state(self, setup: dict) -> dict:
        return self.module.new_state(setup)

    def from_position(self, position: dict) -> dict:
        check = getattr(self.module, "validate_position", None)
        if check is None:
            raise invalid(f"a {self.id} record starts from a setup, not a position", key="record_start")
        return check(position)

    def start(self, state: dict) -> tuple[dict, list]:
        return self.module.start(state)

    def expected(self, state: dict) -> dict:
        return self.module.expected(state)

    def apply_in_place(self, state: dict, inp: object) -> list[dict]:
        """Apply one input to `state` itself; on a RuleError nothing was changed."""
        own = getattr(self.module, "apply_in_place", None)
        if own is not None:
            return own(state, inp)
        new, events = self.module.apply(state, inp)
        state.clear()
        state.update(new)
        return events

    def normalize(self, inp: object) -> dict:
        """The input as the record keeps it (the game's own cleaning, when it has one)."""
        own = getattr(self.module, "normalize", None)
        if own is not None:
            return own(inp)
        if not isinstance(inp, dict):
            raise invalid("an input must be a JSON object with a 'type'", key="input_object")
        return dict(inp)

    def copy_state(self, state: dict) -> dict:
        own = getattr(self.module, "copy_state", None)
        # marshal round-trips plain data several times faster than copy.deepcopy.
        return own(state) if own is not None else marshal.loads(marshal.dumps(state))

    @property
    def table(self):
        """The game's table view, its package's `table` module (every game has one): `table(snap,
        words, rng)`, `final(state, words, names)`, optionally `so_far(game, words, names)`,
        `players_at(game, words)` and `step(state, prompt, asked, words)` (docs/games.md)."""
        return importlib.import_module(self.package + ".table")

    @property
    def check(self):
        """The game's check page, sums its rules do without a game (its package's `check`
        module: `form(args, words)`, `TEMPLATE`, and the sums its API takes, Atlandice's
        `payout` and `final`), or None when it has none (docs/games.md)."""
        name = self.package + ".check"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            return None

    @property
    def text(self):
        """The game's replay text (`companion replay`): its package's `text` module, with
        `table_lines(game, words, cli)`, `score_lines(game, words, cli)` and optionally
        `notation(inp)` (docs/games.md)."""
        return importlib.import_module(self.package + ".text")

    @property
    def setup_options(self) -> tuple:
        """What a new game asks besides the players and who goes first, as data the setup form
        draws (each {"key", "kind": "choice" | "checks", "among", "words", "choice_words"},
        optionally "players": the player counts it is asked at); a dotted key is nested
        ("tops.inn" -> {"tops": {"inn": ...}})."""
        return tuple(getattr(self.module, "SETUP_OPTIONS", ()))

    @property
    def setup_keys(self) -> tuple:
        """What a new game's setup may hold (the API keeps nothing else): the players, who goes
        first and each setup option's key, or the game's own `SETUP_KEYS`."""
        own = getattr(self.module, "SETUP_KEYS", None)
        if own is not None:
            return tuple(own)
        return ("players", "first_player", *dict.fromkeys(o["key"].split(".")[0] for o in self.setup_options))

    # --- what the session enters or proposes by itself, and asks the camera for -------

    def forced(self, prompt: dict) -> dict | None:
        """The input the session enters by itself now (a step the table has no choice in), or
        None. None by default: a game's one-option steps pace the table, which taps them."""
        own = getattr(self.module, "forced", None)
        return own(prompt) if own is not None else None

    def preferred(self, prompt: dict) -> dict | None:
        """What CONFIRM may enter without a tap: the prompt's `default` when it carries one (the
        input that goes on when the table has nothing else to say, any game); else the game's
        own `preferred`; else a step with one legal option that is not chance
        (`prompt["chance"]`: the table rolls it)."""
        if prompt.get("default") is not None:
            return prompt["default"]
        own = getattr(self.module, "preferred", None)
        if own is not None:
            return own(prompt)
        options = prompt["options"] or []       # None: a step whose inputs cannot be listed
        return options[0] if len(options) == 1 and not prompt.get("chance") else None

    @property
    def reads_dice(self) -> bool:
        """Whether the camera reads this game's dice at some prompt (its package has camera_dice):
        the table shows READ and the camera's state then."""
        return hasattr(self.module, "camera_dice")

    def camera_dice(self, prompt: dict) -> int | None:
        """How many dice the camera should read at this prompt; None: the camera reads none
        (a game's die tapped on the tablet, or no roll)."""
        own = getattr(self.module, "camera_dice", None)
        return own(prompt) if own is not None else None

    def roll_input(self, prompt: dict, values: list, source: str) -> dict:
        """The input the dice read (and corrected) at this prompt enter (a game with camera_dice)."""
        return self.module.roll_input(prompt, values, source)

    def skipped_step(self, error, last_events: list) -> dict | None:
        """The event of the last step that stood for the refused line (a step the rules skipped,
        such as nothing left to take): the record's line was not needed. None: a plain refusal."""
        own = getattr(self.module, "skipped_step", None)
        return own(error, last_events) if own is not None else None

    def seat_names(self, state: dict) -> list[str]:
        own = getattr(self.module, "seat_names", None)
        return own(state) if own is not None else list(state["players"])

    def score(self, state: dict) -> dict | None:
        """The final tally with its breakdown; before the end, what the game can say so far
        (marked provisional), or None when it cannot say it before the end."""
        own = getattr(self.module, "score", None)
        if own is not None:
            return own(state)
        if state.get("over") and state.get("result") is not None:
            return dict(state["result"], provisional=False)
        return None

    # --- what the table's history asks (companion/history/) ---------------------------

    def players(self, state: dict) -> list[str]:
        """The players' names by seat, without a neutral seat."""
        return list(state["players"])

    def totals(self, state: dict) -> list | None:
        own = getattr(self.module, "totals", None)
        return own(state) if own is not None else None

    def winners(self, state: dict) -> list[int]:
        """The winning seats once the game is over ([] before)."""
        result = state.get("result")
        return list(result["winners"]) if state.get("over") and result else []

    @property
    def die_faces(self) -> tuple:
        return tuple(getattr(self.module, "DIE_FACES", ()))

    def rolled(self, inp: dict) -> list:
        own = getattr(self.module, "rolled", None)
        return own(inp) if own is not None and isinstance(inp, dict) else []

    def player_extra(self, state: dict) -> list | None:
        """Per player, what the game adds to their record at a game's end: {line: {item: n}},
        a line of `player_lines` each, or None."""
        own = getattr(self.module, "player_extra", None)
        return own(state) if own is not None else None

    @property
    def player_lines(self) -> dict:
        """How the players' page says each line of `player_extra`, summed over a player's
        finished games: its items' catalog group, "average" (a game's mean) or "total"
        (the most first), and whether its items are drawn as the page's resource shapes.
        Its heading is the game's page line "players_<line>"."""
        return dict(getattr(self.module, "PLAYER_LINES", {}))


_SHELF: dict[str, Rules] = {}


def register(game_id: str, package: str, en: str, pt_br: str) -> Rules:
    """Put a game on the shelf: its id (the record's "game"), its rules package, its names."""
    if game_id in _SHELF:
        raise ValueError(f"a game {game_id!r} is already on the shelf")
    _SHELF[game_id] = Rules(game_id, {"en": en, "pt-BR": pt_br}, package)
    return _SHELF[game_id]


def load(game_id: object) -> Rules:
    """The game `game_id`; RuleError("invalid", key "unknown_game") names the ones there are."""
    rules = _SHELF.get(game_id) if isinstance(game_id, str) else None
    if rules is None:
        known = ", ".join(_SHELF)
        raise invalid(f"unknown game {game_id!r}: this companion keeps {known}", key="unknown_game",
                      game=str(game_id), known=known)
    return rules


def shelf() -> list[Rules]:
    """Every game, in the order registered."""
    return list(_SHELF.values())


def game_of(header: dict) -> str:
    """The game a record's first line names (none named: Atlandice, as before the shelf)."""
    return header.get("game", DEFAULT) if isinstance(header, dict) else DEFAULT


register("atlandice", "companion.games.atlandice", "Atlandice", "Atlandice")
register("survive", "companion.games.survive", "Survive: Escape from Atlantis!", "Survive: Fuga de Atlântida!")
register("atlantis", "companion.games.atlantis", "Atlantis", "Atlantis")
