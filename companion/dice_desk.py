"""The dice desk: the camera's readings of a roll, the table's corrections, and the dice
CONFIRM would enter; the rolls kept to teach the reader.

It belongs to a session (companion/session.py), whose lock it shares and whose change
count it reads: a reading or a correction is for the step it was made at, and the session
forgets them (`forget`) at every change of the game. It knows no game: how many dice the
camera reads now, and the input they enter, are the game's (Rules.camera_dice,
Rules.roll_input, Rules.rolled).

The camera and the reader are injected (duck-typed), so the desk runs with no camera:
    camera: `.status` (with `.ok`, `.state`, `.message`) and `.capture(timeout)` -> BGR frame
    reader: frame -> reading with `.dice` (each with `.value`, None when unsure) and `.to_dict()`
    annotate: (frame, reading) -> BGR frame with the reading drawn; encode_png: frame -> bytes
    calibration: `.calibrate(frame)` -> dict and `.status()` -> dict
    roll_keeper: (frame, dice, values): keeps a roll entered from a reading
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from .games.errors import illegal, invalid

log = logging.getLogger(__name__)

CAMERA_SOURCES = ("camera", "corrected")   # dice read by the camera, as read or corrected on a tablet


class EmptyTrayRefused(ValueError):
    """The empty tray was not saved: `key` "not_calibrated" or "dice_in_tray" (`dice` of them seen)."""

    def __init__(self, key: str, dice: int = 0):
        super().__init__(f"empty tray not saved: {key.replace('_', ' ')}" + (f" ({dice})" if dice else ""))
        self.key = key
        self.dice = dice


class DiceDesk:
    def __init__(self, session, camera=None, reader: Callable | None = None, annotate: Callable | None = None,
                 encode_png: Callable | None = None, calibration=None, roll_keeper: Callable | None = None):
        self.session = session
        self.camera = camera
        self.reader = reader
        self.annotate = annotate
        self.encode_png = encode_png
        self.calibration = calibration
        self.roll_keeper = roll_keeper
        self._reading: dict | None = None      # the last dice reading
        self._frame = None                     # ... and the frame it was read from
        # The dice CONFIRM enters at a roll: the camera's reading, then the table's corrections.
        # {"values": [face or None (unsure)], "source": "camera" | "corrected" | "hand", "at": game_changes}
        self._dice: dict | None = None
        self._image: bytes | None = None
        self._images = 0                       # pictures drawn so far: each one's name (image_id)
        # Every reading, READ's and the settle watcher's (read_frame), runs on this one thread:
        # one at a time, and image buffers stay in one malloc arena instead of one per web
        # server thread (see benchmarks/companion_footprint.py).
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dice-reader")
        # Called (on the reader thread, no lock held) before READ takes its picture: the
        # composition root tells the camera the roll awaited there (companion/app.py's RollCue),
        # so a READ pressed the moment a game begins is not read from the picture before it.
        self.before_capture: list[Callable[[], None]] = []

    @property
    def lock(self):
        return self.session.lock

    # --- the camera ------------------------------------------------------------------

    def camera_status(self) -> dict:
        if self.camera is None or self.reader is None:
            return {"status": "unavailable", "reason": "no camera", "message": "camera unavailable: type the dice in"}
        status = self.camera.status
        error = getattr(self.camera, "last_error", None)
        return {"status": "ok" if status.ok else status.state, "reason": getattr(status, "reason", ""),
                "message": status.message, "error": error[0] if error else None,
                "error_at": error[1] if error else None}

    def dice_wanted(self) -> int | None:
        """How many dice the camera should read now (the game says: Rules.camera_dice), else
        None: no roll, or one the table taps."""
        game = self.session.game
        return None if game is None else game.rules.camera_dice(game.expected())

    def read_dice(self, frame=None, reading=None, at: int | None = None) -> dict | None:
        """READ: read the dice now (or `frame`, already read as `reading` by `read_frame`, from
        the settle watcher).

        The reading is proposed only while the session's `game_changes` is still `at` (default:
        now): one that ends after an input entered meanwhile, or another game, is shown, not
        proposed. Returns the reading, or None when there is no camera to read from."""
        with self.lock:  # queued in the order asked: a late reading never overwrites a newer one
            at = self.session.game_changes if at is None else at
            version = self.session.game.version if self.session.game else None
            job = self._thread.submit(self._read_dice, frame, reading, at, version)
        return job.result()

    def read_frame(self, frame, config=None):
        """The reader's reading of `frame`, read on the reader thread: how the settle watcher
        reads a still frame (TableLoop), one at a time with READ. `config` is the watcher's and
        is not used: the reader reads with its own calibration, as READ does."""
        return self._thread.submit(self.reader, frame).result()

    def _read_dice(self, frame, reading, at, version) -> dict | None:
        if self.reader is None:
            return None
        if frame is None:
            for hook in self.before_capture:
                try:
                    hook()
                except Exception:      # the camera's trouble is said by its status; READ still reads
                    log.exception("a hook before READ's picture failed")
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
            if at == self.session.game_changes and self.dice_wanted() is not None:
                self._dice = {"values": list(values), "source": "camera", "at": at}   # a new READ replaces corrections
            self._image = None
            self.session._bump()       # proposed now; the picture with the dice marked follows
        if self.annotate is not None and self.encode_png is not None:
            image = self.encode_png(self.annotate(frame, reading))
            with self.lock:
                if self._reading is read:
                    self._image = image
                    self._images += 1
                    self.session._bump()
        return dict(read)

    def read_or_refuse(self) -> dict:
        reading = self.read_dice()
        if reading is None:
            raise illegal(self.camera_status()["message"], "R1", "camera_unavailable")
        return reading

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

    def calibrate(self) -> dict | None:
        """Measure the dice's size on a picture taken now, save it, read with it from then on.

        None when there is no camera; ValueError (say why) when no die could be read."""
        if self.calibration is None:
            return None

        def measure():
            frame = self._capture()
            return None if frame is None else self.calibration.calibrate(frame)

        info = self._thread.submit(measure).result()
        self.session._bump()
        return info

    def save_empty_tray(self, printing: bool = False) -> dict | None:
        """Save a picture taken now as the empty tray (the calibration's save_empty_tray): what
        lies there the same is never valued from then on. None when there is no camera;
        EmptyTrayRefused when the reader is not calibrated, or sees dice on the picture (unless
        the table says they are the tray's `printing`: a picture with a die in it would hide
        that die's place)."""
        if self.calibration is None:
            return None
        if not self.calibration.status()["calibrated"]:
            raise EmptyTrayRefused("not_calibrated")

        def save():
            frame = self._capture()
            if frame is None:
                return None
            seen = 0 if printing else self.calibration.dice_seen(frame)
            if seen:
                raise EmptyTrayRefused("dice_in_tray", seen)
            return self.calibration.save_empty_tray(frame)

        info = self._thread.submit(save).result()
        self.session._bump()
        return info

    def last_image(self) -> bytes | None:
        with self.lock:
            return self._image

    def image_id(self) -> str | None:
        """The last picture's name, unique to it in this run and across runs (the session's boot):
        a page's <img> keeps its address, and the tablet its copy, until the picture is another."""
        with self.lock:
            return f"{self.session.boot}-{self._images}" if self.last_image() else None

    def reading(self) -> dict | None:
        """The last reading, marked `current` when it was made at this step."""
        if self._reading is None:
            return None
        return dict(self._reading, current=self._reading["at"] == self.session.game_changes)

    # --- the table's corrections -----------------------------------------------------

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
            self._dice = {"values": values, "source": source, "at": self.session.game_changes}
            self.session._bump()

    def clear_dice(self, version: int | None = None) -> None:
        """Empty the proposed roll, to type it in from the start."""
        with self.lock:
            self._roll_awaited(version)
            self._dice = {"values": [], "source": "hand", "at": self.session.game_changes}
            self.session._bump()

    def _roll_awaited(self, version: int | None) -> int:
        from .session import StaleVersion
        game = self.session._require_game()
        if version is not None and version != game.version:
            raise StaleVersion(version, game.version)
        want = self.dice_wanted()
        if want is None:
            raise illegal("no roll is awaited now: there are no dice to enter", key="no_roll_now")
        return want

    def _current_dice(self) -> dict | None:
        dice = self._dice
        return dice if dice is not None and dice["at"] == self.session.game_changes else None

    # --- what CONFIRM enters ---------------------------------------------------------

    def proposal(self, prompt: dict, want: int) -> dict | None:
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
        inp = self.session.game.rules.roll_input(prompt, values, source)
        at = self.session.game_changes
        reading = self._reading if self._reading is not None and self._reading["at"] == at else None
        return {"input": inp, "source": source, "reading": reading, "problem": problem,
                "problem_key": key, "problem_params": params}

    # --- the rolls kept to teach the reader ------------------------------------------

    def roll_to_keep(self, inp: dict):
        """(frame, dice, values) when `inp` enters, die for die, the proposal made from this
        step's camera reading (as read, or corrected on a tablet), for the roll keeper; else None:
        dice typed by hand, or a reading of another roll, never label a frame."""
        reading, dice = self._reading, self._current_dice()
        if (self.roll_keeper is None or reading is None or reading["at"] != self.session.game_changes
                or dice is None):
            return None
        values = self.session.game.rules.rolled(inp)
        if (not values or inp.get("source") not in CAMERA_SOURCES or dice["source"] not in CAMERA_SOURCES
                or list(values) != dice["values"] or len(values) != len(reading["dice"])):
            return None
        return self._frame, reading["dice"], list(values)

    def keep(self, roll) -> None:
        """Keep a roll (from roll_to_keep), off the caller's thread."""
        self._thread.submit(self.roll_keeper, *roll)

    def forget(self) -> None:
        """The game changed: the dice on the tray were for the step before."""
        self._reading = None
        self._frame = None
        self._dice = None

    def close(self) -> None:
        self._thread.shutdown(wait=True)
