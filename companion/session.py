"""The game session: one game, its record in SQLite, and the dice readings.

The session is the only way in for every adapter (the tablet page, the
button panel, the camera loop, the command line). It sees one input at a time
(one lock), saves each input in SQLite before acknowledging it, and tells
listeners that something changed (`change_id`, `wait_for_change`).

The camera and the dice reader are injected (duck-typed) so that the session
runs, and is tested, with no camera at all:
    camera: has `.status` (with `.ok`, `.state`, `.message`, `str()`) and `.capture(timeout)` -> BGR frame
    reader: frame -> reading with `.dice` (each with `.value`, None when unsure) and `.to_dict()`
    annotate: (frame, reading) -> BGR frame with the reading drawn
"""

import logging
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from .game import Game
from .game_profiles import GameProfiles
from .board_profile import save_profile
from .record import Record
from .games.errors import RuleError
from .games.errors import illegal, invalid
from .games.atlandice.profile import validate_new_profile, validate_profile
from .store import GameStore, StoreError

log = logging.getLogger(__name__)

AUTO = "auto"   # the source of an input the companion entered itself: a step with one legal option
CAMERA_SOURCES = ("camera", "corrected")   # dice read by the camera, as read or corrected on a tablet


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
    def __init__(self, store: GameStore, profile: dict, camera=None, panel=None,
                 reader: Callable | None = None, annotate: Callable | None = None,
                 encode_png: Callable | None = None, profile_path=None, calibration=None,
                 roll_keeper: Callable | None = None, profiles: GameProfiles | None = None):
        self.store = store
        self.profile = validate_profile(profile)
        # The other games' profiles (companion/game_profiles.py); none given: kept in memory.
        self.profiles = profiles if profiles is not None else GameProfiles()
        self.camera = camera
        self.panel = panel
        self.reader = reader
        self.annotate = annotate
        self.encode_png = encode_png
        self.profile_path = profile_path
        self.calibration = calibration  # has .calibrate(frame) -> dict and .status() -> dict
        self.roll_keeper = roll_keeper  # (frame, dice, values): keeps a roll entered from a reading
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
        self._reading: dict | None = None      # the last dice reading
        self._frame = None                     # ... and the frame it was read from
        # The dice CONFIRM enters at a roll: the camera's reading, then the table's corrections.
        # {"values": [face or None (unsure)], "source": "camera" | "corrected" | "hand", "at": game_changes}
        self._dice: dict | None = None
        # The history entries the last UNDO took back, or the last REDO put back: every page says
        # what the press did (until the next change).
        self.last_undone: list[dict] | None = None
        self.last_redone: list[dict] | None = None
        self._image: bytes | None = None
        self.last_refusal: dict | None = None  # why the last button press was refused (shown, then cleared)
        # Every reading runs on this one thread: image buffers stay in one malloc arena
        # instead of one per web server thread (see benchmarks/companion_footprint.py).
        self._reader_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dice-reader")

    # --- games -------------------------------------------------------------

    def new_game(self, setup: dict, meta: dict | None = None, game: str = "atlandice") -> None:
        """A new game of `game` (an id on the shelf, companion/games/), with its profile in force."""
        rules_id = game
        with self.lock:
            setup = dict(setup, profile=self.profile_of(rules_id))
            game = Game.new(setup, meta, rules_id)   # refuses a bad setup before anything is stored
            self.game_id = self.store.create(game.record.header)
            self.game = game
            self._game_changed()

    def load_record(self, text: str) -> None:
        """A shared record (JSON Lines) becomes the current game, stored anew."""
        record = Record.from_jsonl(text)
        game = Game(record)                      # RecordError / ReplayError say which line
        with self.lock:
            # One transaction: a load cut short (killed, a write refused) leaves the table as it was.
            game_id = self.store.create(game.record.header, game.record.inputs, over=game.state["over"])
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
            events = self._enter(inp)
            roll = self._roll_to_keep(game.record.inputs[before])   # before the change forgets the reading
            try:
                while (option := self._forced()) is not None:
                    events += self._enter(dict(option, source=AUTO))
            except StoreError as exc:
                # The table's input is saved; the step left waits for CONFIRM, which says the fault.
                log.warning("a step the companion enters by itself was not saved: %s", exc)
            self.last_refusal = None
            self._game_changed(game.version - before)
            if roll is not None:                # saved: now keep it, off this thread
                self._reader_thread.submit(self.roll_keeper, *roll)
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
            events = self._enter(game.redo_stack[-1], keep_redo=True)
            try:
                while game.redo_stack and game.redo_stack[-1].get("source") == AUTO:
                    events += self._enter(game.redo_stack[-1], keep_redo=True)
            except StoreError as exc:   # the table's input is back; the rest waits for REDO or CONFIRM
                log.warning("a step the companion had entered was not put back: %s", exc)
            self._game_changed(game.version - before)
            self.last_redone = game.history[before:]
            return events

    # --- dice readings and proposals ---------------------------------------

    def camera_status(self) -> dict:
        if self.camera is None or self.reader is None:
            return {"status": "unavailable", "reason": "no camera", "message": "camera unavailable: type the dice in"}
        status = self.camera.status
        error = getattr(self.camera, "last_error", None)
        return {"status": "ok" if status.ok else status.state, "reason": getattr(status, "reason", ""),
                "message": status.message, "error": error[0] if error else None,
                "error_at": error[1] if error else None}

    def read_dice(self, frame=None, reading=None, at: int | None = None) -> dict | None:
        """READ: read the dice now (or `frame`, already read as `reading`, from the settled-frame watcher).

        The reading is proposed only while `game_changes` is still `at` (default: now): one that
        ends after an input entered meanwhile, or another game, is shown, not proposed.
        Returns the reading, or None when there is no camera to read from."""
        with self.lock:  # queued in the order asked: a late reading never overwrites a newer one
            at = self.game_changes if at is None else at
            version = self.game.version if self.game else None
            job = self._reader_thread.submit(self._read_dice, frame, reading, at, version)
        return job.result()

    def close(self) -> None:
        self._reader_thread.shutdown(wait=True)
        self.store.close()

    def _read_dice(self, frame, reading, at, version) -> dict | None:
        if self.reader is None:
            return None
        if frame is None:
            frame = self._capture()
            if frame is None:
                return None
        if reading is None:
            reading = self.reader(frame)
        data = reading.to_dict()
        values = [d["value"] for d in data["dice"]]
        with self.lock:
            read = self._reading = {"values": values, "dice": data["dice"],
                                    "unsure": sum(v is None for v in values),
                                    "version": version, "at": at}
            self._frame = frame
            if at == self.game_changes and self.dice_wanted() is not None:
                self._dice = {"values": list(values), "source": "camera", "at": at}   # a new READ replaces corrections
            self._image = None
            self._bump()       # proposed now; the picture with the dice marked follows
        if self.annotate is not None and self.encode_png is not None:
            image = self.encode_png(self.annotate(frame, reading))
            with self.lock:
                if self._reading is read:
                    self._image = image
                    self._bump()
        return dict(read)

    def dice_wanted(self) -> int | None:
        """How many dice the camera should read now (Atlandice's gate roll or an effect's roll),
        else None: no roll, or another game's (Survive's creature die is tapped)."""
        if self.game is None:
            return None
        return self.game.rules.camera_dice(self.game.expected())

    def set_die(self, value: int, index: int | None = None, version: int | None = None) -> None:
        """A die of the proposed roll typed or corrected on a tablet: die `index`, or the first
        one unsure or still missing. Every page shows it; CONFIRM enters it."""
        with self.lock:
            want = self._roll_awaited(version)
            if type(value) is not int or not 1 <= value <= 6:
                raise invalid(f"a die shows 1 to 6, not {value!r}")
            values = list(self._dice["values"]) if self._current_dice() else []
            if index is None:
                index = values.index(None) if None in values else len(values)
            if type(index) is not int or not 0 <= index <= len(values) or index >= max(want, len(values)):
                raise invalid(f"there is no die {index!r} to set ({want} dice are in play)")
            if index == len(values):
                values.append(value)
            else:
                values[index] = value
            # A camera reading the table corrected stays the camera's (the history's track record
            # of the camera, and the rolls kept to teach the reader, tell the two apart).
            source = "corrected" if self._current_dice() and self._dice["source"] in CAMERA_SOURCES else "hand"
            self._dice = {"values": values, "source": source, "at": self.game_changes}
            self._bump()

    def clear_dice(self, version: int | None = None) -> None:
        """Empty the proposed roll, to type it in from the start."""
        with self.lock:
            self._roll_awaited(version)
            self._dice = {"values": [], "source": "hand", "at": self.game_changes}
            self._bump()

    def _roll_awaited(self, version: int | None) -> int:
        game = self._require_game()
        if version is not None and version != game.version:
            raise StaleVersion(version, game.version)
        want = self.dice_wanted()
        if want is None:
            raise illegal("no roll is awaited now: there are no dice to enter", key="no_roll_now")
        return want

    def _current_dice(self) -> dict | None:
        dice = self._dice
        return dice if dice is not None and dice["at"] == self.game_changes else None

    def _roll_to_keep(self, inp: dict):
        """(frame, dice, values) when `inp` enters, die for die, the proposal made from this
        step's camera reading (as read, or corrected on a tablet), for the roll keeper; else None:
        dice typed by hand, or a reading of another roll, never label a frame."""
        reading, dice = self._reading, self._current_dice()
        if self.roll_keeper is None or reading is None or reading["at"] != self.game_changes or dice is None:
            return None
        values = self.game.rules.rolled(inp)
        if (not values or inp.get("source") not in CAMERA_SOURCES or dice["source"] not in CAMERA_SOURCES
                or list(values) != dice["values"] or len(values) != len(reading["dice"])):
            return None
        return self._frame, reading["dice"], list(values)

    def calibrate(self) -> dict | None:
        """Measure the dice's size on a picture taken now, save it, read with it from then on.

        None when there is no camera; ValueError (say why) when no die could be read."""
        if self.calibration is None:
            return None

        def measure():
            frame = self._capture()
            return None if frame is None else self.calibration.calibrate(frame)

        info = self._reader_thread.submit(measure).result()
        self._bump()
        return info

    def _capture(self):
        """A frame taken now, or None when there is no camera or it vanished meanwhile.

        A camera still starting is asked too (`capture` waits for its first frame), and one whose
        last picture could not be used (the next may be good)."""
        if self.camera is None or self.camera.status.state not in ("ok", "starting", "not_reading"):
            return None
        expect = getattr(self.camera, "expect_dice", None)
        if expect is not None:
            with self.lock:
                count = self.dice_wanted()
            expect(count)
        try:
            return self.camera.capture(timeout=3.0)
        except Exception:  # the camera vanished between the check and the frame
            return None

    def _read_or_refuse(self) -> dict:
        reading = self.read_dice()
        if reading is None:
            raise illegal(self.camera_status()["message"], "R1", "camera_unavailable")
        return reading

    def last_image(self) -> bytes | None:
        with self.lock:
            return self._image

    def proposal(self) -> dict | None:
        """What CONFIRM would enter now: the dice read, or the proposed choice (R2)."""
        with self.lock:
            if self.game is None:
                return None
            prompt = self.game.expected()
            want = self.game.rules.camera_dice(prompt)
            if want is not None:
                return self._dice_proposal(prompt, want)
            choice = self.game.rules.preferred(prompt)
            if choice is None:
                return None
            return {"input": choice, "source": "default", "reading": None, "problem": None}

    def _dice_proposal(self, prompt: dict, want: int) -> dict | None:
        """The dice as read, then corrected: exactly what every page shows and CONFIRM enters."""
        dice = self._current_dice()
        if dice is None:
            return None
        values, source = dice["values"], dice["source"]
        unsure = sum(v is None for v in values)
        problem, key, params = None, None, {}
        if unsure:
            problem = f"{unsure} die/dice could not be read: look at the tray and correct them"
            key, params = "dice_unsure", {"n": unsure}
        elif len(values) < want and source == "hand":
            problem = f"{want - len(values)} more dice to enter"
            key, params = "dice_missing", {"n": want - len(values)}
        elif len(values) != want:
            problem = (f"{want} dice are in play but {len(values)} were read: "
                       "a die off the tray, or two dice stacked? Read again or correct")
            key, params = "dice_read_count", {"want": want, "got": len(values)}
        inp = self.game.rules.roll_input(prompt, values, source)
        reading = self._reading if self._reading is not None and self._reading["at"] == self.game_changes else None
        return {"input": inp, "source": source, "reading": reading, "problem": problem,
                "problem_key": key, "problem_params": params}

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

    def press(self, button: str) -> None:
        """A panel or on-screen button. Refusals are shown, never raised to the panel."""
        action = {"confirm": self.confirm, "undo": self.undo, "redo": self.redo,
                  "read": self._read_or_refuse}.get(button)
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

    # --- the board profile (R12) -------------------------------------------

    def profile_of(self, game: str = "atlandice") -> dict:
        """The profile the next game of `game` begins with."""
        return self.profile if game == "atlandice" else self.profiles.get(game)

    def set_profile(self, profile: dict, game: str = "atlandice") -> None:
        """Validate, save, and use for the next game of `game` (a game keeps the profile it
        began with). Refused (RuleError): nothing is saved or changed."""
        if game != "atlandice":
            with self.lock:
                self.profiles.save(game, profile)
                self._bump()
            return
        profile = validate_new_profile(profile)
        if self.profile_path:
            save_profile(profile, self.profile_path)
        with self.lock:
            self.profile = profile
            self._bump()

    # --- listeners -----------------------------------------------------------

    def _game_changed(self, inputs: int = 1) -> None:
        """`inputs`: how many inputs were added (one change each: the live stream counts on it)."""
        self.game_changes += max(1, inputs)
        self._reading = None   # the dice on the tray were for the step before
        self._frame = None
        self._dice = None
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
                "reading": dict(self._reading, current=self._reading["at"] == self.game_changes)
                           if self._reading else None,
                "camera": self.camera_status(),
                "calibration": self.calibration.status() if self.calibration is not None else None,
                "profile": self.profile,
                "can_undo": bool(game and game.record.inputs),
                "can_redo": bool(game and game.redo_stack),
                "refusal": self.last_refusal,
                # the games file found damaged or read-only: said on every page until it is mended
                "storage": self.store.problem.to_dict() if self.store.problem else None,
                "undone": self.last_undone,
                "redone": self.last_redone,
            }

