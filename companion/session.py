"""The game session: one game, its record in SQLite, undo and redo, the profiles in force.

The session is the only way in for every adapter (the tablet page, the
button panel, the camera loop, the command line). It sees one input at a time
(one lock), saves each input in SQLite before acknowledging it, and tells
listeners that something changed (`change_id`, `wait_for_change`).

The dice of a roll (the camera's readings, the table's corrections, what CONFIRM enters)
are its dice desk's (`session.desk`, companion/dice_desk.py), which takes the camera and
the reader, injected (duck-typed), so the session runs and is tested with no camera at all.
"""

import logging
import secrets
import threading
from typing import Callable

from . import games
from .dice_desk import DiceDesk
from .game import Game
from .game_profiles import GameProfiles
from .record import Record, record_date
from .games.errors import RuleError, illegal
from .store import GameStore, StoreError

log = logging.getLogger(__name__)

AUTO = "auto"   # the source of an input the companion entered itself: a step with one legal option


class StaleVersion(Exception):
    """An input made against an older state (another tablet got there first)."""

    def __init__(self, sent: int, current: int, message: str | None = None):
        super().__init__(message or f"the game has moved on (you saw version {sent}, it is now {current}): "
                                    "look again before choosing")
        self.sent = sent
        self.current = current

    def to_dict(self) -> dict:
        return {"error": "stale", "message": str(self), "rule": None, "version": self.current,
                "key": "stale", "params": {"sent": self.sent, "current": self.current}}


class StaleProposal(StaleVersion):
    """CONFIRM from a page that showed another proposal (a die corrected on another tablet meanwhile)."""

    def __init__(self, version: int):
        super().__init__(version, version, "the proposal changed since this page showed it: "
                                           "look again before confirming")


class Session:
    def __init__(self, store: GameStore, profile: dict | None = None, camera=None, panel=None,
                 reader: Callable | None = None, annotate: Callable | None = None,
                 encode_png: Callable | None = None, calibration=None,
                 roll_keeper: Callable | None = None, profiles: GameProfiles | None = None,
                 enter_settled_die: bool = True):
        self.store = store
        # A single die the settle watcher read surely is entered at once, without CONFIRM
        # (enter_settled; [dice] enter_settled_die).
        self.enter_settled_die = enter_settled_die
        # Every game's profile (companion/game_profiles.py); none given: kept in memory.
        self.profiles = profiles if profiles is not None else GameProfiles()
        if profile is not None:      # the first game's, used without being written
            self.profiles.use(games.DEFAULT, profile)
        self.panel = panel
        self.lock = threading.RLock()
        self._changed = threading.Condition(self.lock)
        self.change_id = 0
        # This run of the companion. change_id starts again at 0 on a restart, so a page still
        # open from an earlier run tells runs apart by this, not by comparing counts.
        self.boot = secrets.token_hex(4)
        self.game: Game | None = None
        self.game_id: int | None = None
        # Counts every change of the game (input, undo, redo, another game). Unlike the version it
        # never comes back after an undo: a reading is proposed only at the count it was asked at.
        self.game_changes = 0
        # The history entries the last UNDO took back, or the last REDO put back: every page says
        # what the press did (until the next change).
        self.last_undone: list[dict] | None = None
        self.last_redone: list[dict] | None = None
        self.last_refusal: dict | None = None  # why the last button press was refused (shown, then cleared)
        # The camera's readings, the table's corrections and the dice CONFIRM enters at a roll.
        self.desk = DiceDesk(self, camera=camera, reader=reader, annotate=annotate, encode_png=encode_png,
                             calibration=calibration, roll_keeper=roll_keeper)

    # --- games -------------------------------------------------------------

    def new_game(self, setup: dict, meta: dict | None = None, game: str = games.DEFAULT) -> None:
        """A new game of `game` (an id on the shelf, companion/games/), with its profile in force."""
        rules_id = game
        with self.lock:
            setup = dict(setup, profile=self.profile_of(rules_id))
            game = Game.new(setup, meta, rules_id)   # refuses a bad setup before anything is stored
            self.game_id = self.store.create(game.record.header)
            self.game = game
            self._game_changed()

    def load_record(self, text: str) -> None:
        """A shared record (JSON Lines) becomes the current game, stored anew, marked as loaded
        (not a game played here: the history keeps it apart, with the date its header gives)."""
        record = Record.from_jsonl(text)
        game = Game(record)                      # RecordError / ReplayError say which line
        with self.lock:
            # One transaction: a load cut short (killed, a write refused) leaves the table as it was.
            game_id = self.store.create(game.record.header, game.record.inputs, over=game.state["over"],
                                        imported=True, played=record_date(game.record.header))
            self.game, self.game_id = game, game_id
            self._game_changed()

    def resume(self, game_id: int | None = None) -> bool:
        """Pick up game `game_id`, or the latest unfinished game; it becomes the game in use."""
        with self.lock:
            game_id = game_id if game_id is not None else self.store.latest_unfinished()
            if game_id is None:
                return False
            record, redo = self.store.load(game_id)
            game = Game(record, redo)
            self.store.use(game_id)     # a file that cannot be written keeps the game in use
            self.game, self.game_id = game, game_id
            self._game_changed()
            return True

    def resume_last(self) -> bool:
        """After a restart or a power cut: the game that was on the table, finished or not
        (a game just scored shows its scoring again, not an older game left unfinished).

        Raises ReplayError if that game's record no longer replays: the caller says so and
        starts with no game, rather than not starting at all."""
        game_id = self.store.last_in_use()
        return game_id is not None and self.resume(game_id)

    def _require_game(self) -> Game:
        if self.game is None:
            raise illegal("no game in progress: set one up first", key="no_game")
        return self.game

    # --- inputs --------------------------------------------------------------

    def submit(self, inp: dict, version: int | None = None) -> list[dict]:
        """Apply one input: checked, saved, then acknowledged. Refused inputs change nothing.

        Then every step left with a single legal option (`forced`) is entered by the companion
        itself, each an input of its own with source "auto", saved the same way."""
        with self.lock:
            game = self._require_game()
            if version is not None and version != game.version:
                raise StaleVersion(version, game.version)
            before = game.version
            events = list(self._enter(inp))    # a copy: the game's history keeps the list entered
            roll = self.desk.roll_to_keep(game.record.inputs[before])   # before the change forgets the reading
            try:
                while (option := self._forced()) is not None:
                    events += self._enter(dict(option, source=AUTO))
            except StoreError as exc:
                # The table's input is saved; the step left waits for CONFIRM, which says the fault.
                log.warning("a step the companion enters by itself was not saved: %s", exc)
            self.last_refusal = None
            self._game_changed(game.version - before)
            if roll is not None:                # saved: now keep it, off this thread
                self.desk.keep(roll)
            return events

    def _enter(self, inp: dict, keep_redo: bool = False) -> list[dict]:
        """Check, save (with the game's end, in the same transaction), then apply one input."""
        game = self.game
        state, events, clean = game.check(inp)
        over = state["over"] if state["over"] != game.state["over"] else None
        self.store.append(self.game_id, game.version, clean, keep_redo=keep_redo, over=over)
        if keep_redo:
            game.redo_stack.pop()
        game.commit(state, events, clean, keep_redo=keep_redo)
        return events

    def _forced(self) -> dict | None:
        """The step the companion enters by itself now, if any (the game says: Rules.forced)."""
        return self.game.rules.forced(self.game.expected())

    def undo(self) -> list[dict]:
        """Take back the last input the table entered, with the inputs the companion entered
        after it by itself (else they would be entered again at once). Returns them, in order."""
        with self.lock:
            game = self._require_game()
            inputs = game.record.inputs
            if not inputs:
                raise illegal("nothing to undo", key="nothing_to_undo")
            count = 1
            while count < len(inputs) and inputs[-count].get("source") == AUTO:
                count += 1
            undone = game.history[-count:]
            taken = inputs[-count:]
            # No input is taken once a game is over, so with any taken back it is not over.
            self.store.take_back(self.game_id, game.version - count, taken, over=False)
            game.take_back(count)
            self._game_changed()
            self.last_undone = undone
            return taken

    def redo(self) -> list[dict]:
        """Put back what the last UNDO took back: the table's input and the automatic ones after it."""
        with self.lock:
            game = self._require_game()
            if not game.redo_stack:
                raise illegal("nothing to redo", key="nothing_to_redo")
            before = game.version
            events = list(self._enter(game.redo_stack[-1], keep_redo=True))   # a copy, as in submit
            try:
                while game.redo_stack and game.redo_stack[-1].get("source") == AUTO:
                    events += self._enter(game.redo_stack[-1], keep_redo=True)
            except StoreError as exc:   # the table's input is back; the rest waits for REDO or CONFIRM
                log.warning("a step the companion had entered was not put back: %s", exc)
            self._game_changed(game.version - before)
            self.last_redone = game.history[before:]
            return events

    def close(self) -> None:
        self.desk.close()
        self.store.close()

    def proposal(self) -> dict | None:
        """What CONFIRM would enter now: the dice read, or the proposed choice (R2)."""
        with self.lock:
            if self.game is None:
                return None
            prompt = self.game.expected()
            want = self.game.rules.camera_dice(prompt)
            if want is not None:
                return self.desk.proposal(prompt, want)
            choice = self.game.rules.preferred(prompt)
            if choice is None:
                return None
            return {"input": choice, "source": "default", "reading": None, "problem": None}

    def confirm(self, shown: dict | None = None) -> list[dict]:
        """CONFIRM: enter the proposal, if there is one that can be entered.

        `shown`: the proposal's input as the page showed it; refused when it is not the proposal
        now (corrected on another tablet meanwhile), so a page never enters what it did not show."""
        with self.lock:
            proposal = self.proposal()
            if proposal is None:
                raise illegal("nothing to confirm yet: read the dice, or choose on the tablet", key="nothing_to_confirm")
            if shown is not None and shown != proposal["input"]:
                raise StaleProposal(self.game.version)
            if proposal["problem"]:
                raise illegal(proposal["problem"], "R1", proposal["problem_key"], **proposal["problem_params"])
            return self.submit(proposal["input"], self.game.version)

    def enter_settled(self, at: int) -> bool:
        """The settle watcher has just proposed the dice it read once still, at game change `at`:
        when they are a single die (an effect's roll: Rules.camera_dice is 1) read surely (no
        problem), the companion enters it at once, source "camera", as CONFIRM would: the table
        goes on from the next prompt, and UNDO takes the roll back (then READ and CONFIRM, or a
        tap, enter it). A roll of several dice, a die read unsure, a reading corrected on a
        tablet, or one proposed for a step already left waits for CONFIRM. Whether it was entered."""
        with self.lock:
            if not self.enter_settled_die or self.game is None or self.game_changes != at:
                return False
            if self.game.rules.camera_dice(self.game.expected()) != 1:
                return False
            proposal = self.proposal()
            if proposal is None or proposal["problem"] or proposal["source"] != "camera":
                return False
            try:
                self.submit(proposal["input"], self.game.version)
            except (RuleError, StoreError) as exc:    # it waits for CONFIRM, which says why
                log.warning("a settled die was not entered: %s", exc)
                return False
            return True

    def press(self, button: str) -> None:
        """A panel or on-screen button. Refusals are shown, never raised to the panel."""
        action = {"confirm": self.confirm, "undo": self.undo, "redo": self.redo,
                  "read": self.desk.read_or_refuse}.get(button)
        if action is None:
            raise ValueError(f"unknown button {button!r}")
        with self.lock:
            self.last_refusal = None
        try:
            action()
        except (RuleError, StaleVersion, StoreError) as exc:
            with self.lock:
                self.last_refusal = {"button": button, **exc.to_dict()}
                self._bump()

    # --- the games' profiles ---------------------------------------------------

    def profile_of(self, game: str) -> dict:
        """The profile the next game of `game` begins with."""
        return self.profiles.get(game)

    def set_profile(self, profile: dict, game: str) -> None:
        """Check, save, and use for the next game of `game` (a game keeps the profile it
        began with). Refused (RuleError) or not written (StoreError): nothing changed."""
        with self.lock:
            self.profiles.save(game, profile)
            self._bump()

    # --- listeners -----------------------------------------------------------

    def _game_changed(self, inputs: int = 1) -> None:
        """`inputs`: how many inputs were added (one change each: the live stream counts on it)."""
        self.game_changes += max(1, inputs)
        self.desk.forget()
        self.last_undone = self.last_redone = None
        self._bump()

    def _bump(self) -> None:
        with self._changed:
            self.change_id += 1
            self._changed.notify_all()

    def notify(self) -> None:
        """Something outside the game changed (camera status): pages should refresh."""
        self._bump()

    def wait_for_change(self, since: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self.change_id > since, timeout=timeout)
            return self.change_id

    def snapshot(self) -> dict:
        """Everything a page needs, as JSON-able data."""
        with self.lock:
            game = self.game
            return {
                "version": game.version if game else None,
                "game": game.game_id if game else None,
                "change_id": self.change_id,
                "boot": self.boot,
                "game_id": self.game_id,
                "game_changes": self.game_changes,
                "state": game.state if game else None,
                "expected": game.expected() if game else None,
                "names": game.names if game else [],
                "history": list(game.history) if game else [],
                "start_events": list(game.start_events) if game else [],
                "proposal": self.proposal(),
                "reading": self.desk.reading(),
                "camera": self.desk.camera_status(),
                "calibration": self.desk.calibration.status() if self.desk.calibration is not None else None,
                "profile": self.profile_of(game.game_id if game else games.DEFAULT),
                "can_undo": bool(game and game.record.inputs),
                "can_redo": bool(game and game.redo_stack),
                "refusal": self.last_refusal,
                # the games file found damaged or read-only: said on every page until it is mended
                "storage": self.store.problem.to_dict() if self.store.problem else None,
                "undone": self.last_undone,
                "redone": self.last_redone,
            }

