"""The still-frame watcher: read a roll once, after the dice have stopped.

    watcher = vision.SettleWatcher()
    for frame in camera:                      # (H, W, 3) uint8 BGR frames
        st = watcher.feed(frame)
        if st.state == "settled" and st.reading is not None:
            use(st.reading)                   # exactly once per roll

`feed` returns a `SettleStatus` whose `state` is one of:

- "empty":   nothing moving and no dice read on the still frame;
- "rolling": the picture is changing (dice moving, a hand in the tray);
- "settling": still, but not for long enough yet;
- "settled": still for `settle_s` seconds. The first "settled" status after a
  movement carries the `reading` (vision.read of that frame) and `new=True`;
  later ones repeat the same reading with `new=False`, so a roll is read once.

Motion is the share of the frame (per cent of its pixels) whose colour changed
by more than PIXEL_STEP levels in some channel since the last frame, with a
neighbour that changed too, both shrunk to about THUMB px wide and lightly
blurred (cheap, and blind to sensor noise). A share, not a mean: one small die
sliding across a big tray changes a few pixels a lot, which a mean over the
whole frame hardly sees; the largest channel, not grey, for a red die on a
teal tray is the same grey; and the neighbour, for noise changes lone pixels.
Time comes from the `t` argument (seconds) or the monotonic clock.

What did not move is not the roll's (vision.static): the watcher keeps the
last still frame before the first movement it saw (and its reading, when it
read one), the tray before the roll. A reading after a movement leaves out
what lies there the same, in the same place: a board's printed tokens, a die
left from the roll before. They are in `reading.ignored` (value None), never
valued. The empty tray saved at calibration (Config.empty_tray) is applied by
vision.read itself. `ignore_static=False` turns this off.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import cv2
import numpy as np

from .reading import Reading
from .static import Reference, drop_static

THUMB = 160        # frames are compared shrunk to about this many pixels wide
PIXEL_STEP = 20    # a pixel changed when a channel moved by more than this (noise: a few levels there)
_PATCH = np.ones((2, 2), np.uint8)   # ... and so did a neighbour of it


@dataclass(frozen=True)
class SettleStatus:
    state: str
    reading: Reading | None = None
    new: bool = False
    motion: float = 0.0


class SettleWatcher:
    """Feed frames; get "rolling" while they change and one reading per roll."""

    def __init__(self, settle_s: float = 0.4, motion_thr: float = 0.02, config=None,
                 reader=None, min_frames: int = 3, learn_size: bool = False,
                 ignore_static: bool = True):
        """settle_s: seconds of stillness before reading; motion_thr: the share of
        the frame, per cent, that must change to count as movement (0.02: a few
        pixels of the shrunk frame; a 64 px die moving 4 px a frame on a 1280 px
        frame changes twice that, 20 px a frame twenty times); config: passed to
        vision.read; reader: a replacement for vision.read (tests); min_frames:
        also require this many still frames (slow cameras); learn_size: when
        uncalibrated, take the dice's size from the first roll read completely
        with 3 or more dice, and read later rolls calibrated (faster);
        ignore_static: leave out of a roll's reading what lay there the same
        before the roll (the tray's last still frame before the first movement)."""
        self.settle_s = settle_s
        self.motion_thr = motion_thr
        self.config = config
        self._reader = reader
        self.min_frames = min_frames
        self.learn_size = learn_size
        self.ignore_static = ignore_static
        self._before: Reference | None = None   # the tray before the roll: its last still frame
        self._moved_ever = False
        self._prev: np.ndarray | None = None
        self._shape: tuple | None = None
        self._still_since: float | None = None
        self._still_frames = 0
        self._reading: Reading | None = None
        self._read_done = False

    def reset(self) -> None:
        """Forget the current roll (e.g. when a new game phase starts)."""
        self.__init__(self.settle_s, self.motion_thr, self.config, self._reader, self.min_frames,
                      self.learn_size, self.ignore_static)

    @property
    def before(self) -> Reference | None:
        """The tray before the roll (None: no still frame came before the first movement)."""
        return self._before

    def feed(self, frame: np.ndarray, t: float | None = None) -> SettleStatus:
        """Take the next frame ((H, W, 3) uint8 BGR); return the watcher's status.

        Raises vision.ReadError for a frame that is not one (None, a wrong
        shape or type); the watcher's state is then unchanged."""
        from .frame import validate_frame

        frame = validate_frame(frame)
        now = time.monotonic() if t is None else float(t)
        small = self._shrink(frame)
        first = self._prev is None
        if first:
            motion = 0.0
        elif frame.shape != self._shape:
            motion = 100.0          # another camera mode: the old reading's pixels mean nothing here
        else:
            changed = (cv2.absdiff(small, self._prev).max(axis=2) > PIXEL_STEP).astype(np.uint8)
            # Noise (a dim room's gain, JPEG blocks) changes lone pixels; a die, a patch of them.
            changed = cv2.erode(changed, _PATCH)
            motion = 100.0 * float(np.count_nonzero(changed)) / changed.size
        self._prev, self._shape = small, frame.shape
        if self._still_since is not None and now < self._still_since:
            self._still_since = now     # the clock went back: count stillness from here
        if motion > self.motion_thr or first:
            moved = motion > self.motion_thr
            self._moved_ever = self._moved_ever or moved
            self._keep_before(frame, moved)
            self._still_since = now
            self._still_frames = 1
            if moved:
                self._read_done = False
                self._reading = None
                return SettleStatus("rolling", motion=motion)
            return SettleStatus("settling", motion=motion)
        self._keep_before(frame, False)
        self._still_frames += 1
        if self._still_since is None:
            self._still_since = now
        if now - self._still_since < self.settle_s or self._still_frames < self.min_frames:
            return SettleStatus("settling", motion=motion)
        if not self._read_done:
            reader = self._reader
            if reader is None:
                from . import read as reader
            self._reading = reader(frame, self.config)
            if self._moved_ever and self.ignore_static and self._before is not None:
                # Patch only, no reading of the tray before required: requiring a detection
                # there too let through more (benchmarks/bench_static.py, "before+iou").
                self._reading = drop_static(self._reading, frame, [self._before])
            self._read_done = True
            self._maybe_learn(self._reading)
            if not self._reading.dice:
                return SettleStatus("empty", self._reading, True, motion)
            return SettleStatus("settled", self._reading, True, motion)
        state = "settled" if self._reading is not None and self._reading.dice else "empty"
        return SettleStatus(state, self._reading, False, motion)

    def _keep_before(self, frame: np.ndarray, moved: bool) -> None:
        # Until the first movement, each still frame is the tray before the roll (a copy: the
        # camera may reuse its buffer); the one before the movement stays.
        if self.ignore_static and not self._moved_ever and not moved:
            if self._before is not None and self._before.image.shape == frame.shape:
                np.copyto(self._before.image, frame)
            else:
                self._before = Reference(frame.copy(), None, "before")

    def _maybe_learn(self, reading: Reading) -> None:
        if not self.learn_size or (self.config is not None and self.config.die_px):
            return
        sides = [d.side for d in reading.dice if d.sure and d.side > 0]
        if len(sides) >= 3 and reading.complete:
            from .settings import Config

            base = self.config if self.config is not None else Config()
            self.config = dataclasses.replace(base, die_px=float(np.median(sides)))

    @staticmethod
    def _shrink(frame: np.ndarray) -> np.ndarray:
        # Area averaging over s x s pixels, then a light blur, damp the sensor's noise.
        h, w = frame.shape[:2]
        s = THUMB / max(w, h)
        if s < 1:
            frame = cv2.resize(frame, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(frame, (3, 3), 0)   # a new array: the camera may reuse its buffer
