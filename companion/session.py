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

import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from .game import Game
from .board_profile import save_profile
from .record import Record
from .rules import RuleError
from .rules.errors import illegal
from .rules.inputs import is_chance
from .rules.names import DISTRICT_RESOURCE
from .rules.profile import validate_new_profile, validate_profile
from .store import GameStore, StoreError


class StaleVersion(Exception):
    """An input made against an older state (another tablet got there first)."""

    def __init__(self, sent: int, current: int):
        super().__init__(f"the game has moved on (you saw version {sent}, it is now {current}): "
                         "look again before choosing")
        self.sent = sent
        self.current = current

    def to_dict(self) -> dict:
        return {"error": "stale", "message": str(self), "rule": None, "version": self.current,
                "key": "stale", "params": {"sent": self.sent, "current": self.current}}


class Session:
    def __init__(self, store: GameStore, profile: dict, camera=None, panel=None,
                 reader: Callable | None = None, annotate: Callable | None = None,
                 encode_png: Callable | None = None, profile_path=None, calibration=None,
                 roll_keeper: Callable | None = None):
        self.store = store
        self.profile = validate_profile(profile)
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
        self._image: bytes | None = None
        self.last_refusal: dict | None = None  # why the last button press was refused (shown, then cleared)
        # Every reading runs on this one thread: image buffers stay in one malloc arena
        # instead of one per web server thread (see benchmarks/companion_footprint.py).
        self._reader_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dice-reader")

    # --- games -------------------------------------------------------------

    def new_game(self, setup: dict, meta: dict | None = None, game: str = "atlandice") -> None:
        """A new game of `game` (an id on the shelf, companion/games/), with its profile in force."""
        from .shelf import default_profile
        rules_id = game
        setup = dict(setup, profile=self.profile if rules_id == "atlandice" else default_profile(rules_id))
        with self.lock:
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
        """Apply one input: checked, saved, then acknowledged. Refused inputs change nothing."""
        with self.lock:
            game = self._require_game()
            if version is not None and version != game.version:
                raise StaleVersion(version, game.version)
            state, events, clean = game.check(inp)
            self.store.append(self.game_id, game.version, clean)
            game.commit(state, events, clean)
            if state["over"]:
                self.store.set_over(self.game_id)
            self.last_refusal = None
            roll = self._roll_to_keep(clean)    # before the change forgets the reading
            self._game_changed()
            if roll is not None:                # saved: now keep it, off this thread
                self._reader_thread.submit(self.roll_keeper, *roll)
            return events

    def undo(self) -> dict:
        with self.lock:
            game = self._require_game()
            if not game.record.inputs:
                raise illegal("nothing to undo", key="nothing_to_undo")
            seq = game.version - 1
            last = game.record.inputs[-1]
            self.store.undo(self.game_id, seq, last)
            game.undo()
            self.store.set_over(self.game_id, game.state["over"])
            self._game_changed()
            return last

    def redo(self) -> list[dict]:
        with self.lock:
            game = self._require_game()
            if not game.redo_stack:
                raise illegal("nothing to redo", key="nothing_to_redo")
            state, events, clean = game.check(game.redo_stack[-1])
            self.store.append(self.game_id, game.version, clean, keep_redo=True)
            game.redo_stack.pop()
            game.commit(state, events, clean, keep_redo=True)
            self.store.set_over(self.game_id, state["over"])
            self._game_changed()
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
        image = None
        if self.annotate is not None and self.encode_png is not None:
            image = self.encode_png(self.annotate(frame, reading))
        data = reading.to_dict()
        values = [d["value"] for d in data["dice"]]
        with self.lock:
            self._reading = {"values": values, "dice": data["dice"],
                             "unsure": sum(v is None for v in values),
                             "version": version, "at": at}
            self._image = image
            self._frame = frame
            self._bump()
            return dict(self._reading)

    def _roll_to_keep(self, inp: dict):
        """(frame, dice, values) when `inp` enters, die for die, the dice of this step's camera
        reading (as read, or corrected on the tablet), for the roll keeper; else None."""
        reading = self._reading
        if self.roll_keeper is None or reading is None or reading["at"] != self.game_changes:
            return None
        values = inp.get("dice") if inp.get("type") == "gate_roll" else \
            [inp.get("value")] if inp.get("type") == "roll" else None
        if not values or len(values) != len(reading["dice"]):
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
            kind = prompt["kind"]
            if self.game.game_id != "atlandice":     # another game: only a step with one way on
                options = prompt["options"] or []       # None: a step whose inputs cannot be listed
                only = options if len(options) == 1 and not prompt.get("chance") else []
                return {"input": only[0], "source": "default", "reading": None, "problem": None} if only else None
            if is_chance(kind):
                return self._dice_proposal(prompt)
            choice = _preferred(prompt)
            if choice is None:
                return None
            return {"input": choice, "source": "default", "reading": None, "problem": None}

    def _dice_proposal(self, prompt: dict) -> dict | None:
        reading = self._reading
        if reading is None or reading["at"] != self.game_changes:
            return None
        values = reading["values"]
        want = prompt["count"] if prompt["kind"] == "gate_roll" else 1
        problem, key, params = None, None, {}
        if reading["unsure"]:
            problem = f"{reading['unsure']} die/dice could not be read: look at the tray and correct them"
            key, params = "dice_unsure", {"n": reading["unsure"]}
        elif len(values) != want:
            problem = (f"{want} dice are in play but {len(values)} were read: "
                       "a die off the tray, or two dice stacked? Read again or correct")
            key, params = "dice_read_count", {"want": want, "got": len(values)}
        if prompt["kind"] == "gate_roll":
            inp = {"type": "gate_roll", "dice": values, "source": "camera"}
        else:
            inp = {"type": "roll", "value": values[0] if len(values) == 1 else None, "source": "camera"}
        return {"input": inp, "source": "camera", "reading": reading, "problem": problem,
                "problem_key": key, "problem_params": params}

    def confirm(self) -> list[dict]:
        """CONFIRM: enter the proposal, if there is one that can be entered."""
        with self.lock:
            proposal = self.proposal()
            if proposal is None:
                raise illegal("nothing to confirm yet: read the dice, or choose on the tablet", key="nothing_to_confirm")
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

    def set_profile(self, profile: dict) -> None:
        """Validate, save, and use for the next game (a game keeps the profile it began with)."""
        profile = validate_new_profile(profile)
        if self.profile_path:
            save_profile(profile, self.profile_path)
        with self.lock:
            self.profile = profile
            self._bump()

    # --- listeners -----------------------------------------------------------

    def _game_changed(self) -> None:
        self.game_changes += 1
        self._reading = None   # the dice on the tray were for the step before
        self._frame = None
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
            }


def _preferred(prompt: dict) -> dict | None:
    """What CONFIRM may enter without a tap: never a decision nobody made.

    - the resource taken at a District: its own resource first (R2);
    - a Donation: giving nothing more (giving is a choice: "can spend");
    - any step with a single legal option.
    A die to take, an effect's target, a revealed tile (hidden information) or who takes a
    tied tile is chosen on the tablet."""
    options = prompt["options"]
    kind = prompt["kind"]
    if kind == "over" or not options:
        return None
    if kind == "resource":
        own = DISTRICT_RESOURCE.get(prompt["context"].get("area"))
        for option in options:
            if option["resource"] == own:
                return option
    if kind == "donate":
        return {"type": "donate", "pair": None}
    if len(options) == 1 and kind not in ("reveal", "tile_taker"):
        return options[0]
    return None
