"""The learned reader's last step, uncalibrated only: the pips of big dice read as those dice.

A camera close over the tray can show the detector dice bigger than it was
trained on (a 300 px die in a 640 px photo is 135 px at its input; it saw
8-120): it peaks on their pips, each an unclear "die" or one the first net
calls no die (`dropped`, (cx, cy, side) each), or on nothing at all, and the
auto-zoom, seeing pip-sized dice or none, does not zoom out. So the frame is
read again as if calibrated to dice close_up of the tray area's short side
when the reading has what may be such pips (`pip_like`) or no trace of
anything, and a die of that reading replaces the detections on its face
only if all of these hold (each guards against a wrong value, and has a
test):
- it is valued, by the same rules as any die, and at least `beyond` px
  across at the first pass's detector input (before any auto-zoom), where the
  detector starts to see pips instead of dice (a die it could see whole, it
  did; patches of a checked cloth read as 6s at the close-up size are smaller);
- its box is `inside` x its side within the frame: at that size the detector
  centres a die cut by the frame on what it sees (half a 6 is a whole 3);
- on its face (within on_face x its side of its centre) lie at least half as
  many pip-like detections as its value, and no more unsure or dropped
  detections than its value: a die showing 3 has three pips, and the detector
  peaks on most of them (a patch of blocky noise read as a 6 at the close-up
  size had one or two); where the first reading has no trace at all, there
  is nothing to count;
- its box covers no valued die.
Detections beyond its face stay: a neighbour's pip is that die's only trace.
And every die of the second reading must then be near a die of the result, or
nothing is taken: a big die refused beside one taken would otherwise vanish
with the unsure pips that showed it, leaving a complete reading with a wrong
total.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from .decision import cut_by_frame
from .detector import det_size
from .frame import tray_area
from .reading import Reading, in_reading_order
from .settings import Config


def close_up(frame: np.ndarray, s: Config, reading: Reading, dropped,
             read_again: Callable[[Config], Reading]) -> Reading:
    """`reading` of the uncalibrated `frame`, with the pips of big dice it took for dice
    read as those dice; read_again(settings) reads the frame with other settings."""
    H, W = frame.shape[:2]
    area = tray_area(frame, s.roi)[0]
    size = s.close_up * min(area.shape[:2])
    big_enough = s.beyond / det_size(area.shape[1], area.shape[0], s)[2]   # frame px
    pips = pip_like(reading, dropped, s.pip_sized * size)
    traceless = not reading.dice and not dropped
    if not pips and not traceless:
        return reading
    valued = [d.center for d in reading.dice if d.sure]
    unsure_or_dropped = [(*d.center, d.side) for d in reading.dice if not d.sure] + list(dropped)
    on_face = lambda c, big: all(abs(c[i] - big.center[i]) <= s.on_face * big.side for i in (0, 1))  # noqa: E731
    in_box = lambda c, big: all(abs(c[i] - big.center[i]) < big.side / 2 for i in (0, 1))  # noqa: E731
    again = read_again(replace(s, die_px=size))
    taken = [big for big in again.dice
             if big.sure and big.side >= big_enough and cut_by_frame(*big.center, big.side, W, H) <= -s.inside
             and (traceless or (2 * sum(on_face(p, big) for p in pips) >= big.value
                                and sum(on_face(p, big) for p in unsure_or_dropped) <= big.value))
             and not any(in_box(c, big) for c in valued)]
    if not taken:
        return reading
    dice = [d for d in reading.dice if not any(on_face(d.center, big) for big in taken)] + taken
    near = lambda a, b: in_box(a.center, b) or in_box(b.center, a)    # noqa: E731
    if not all(any(near(d, e) for e in dice) for d in again.dice):
        return reading        # a die it found would go unmentioned: the first reading's doubts stay
    return Reading(tuple(in_reading_order(dice)), W, H)


def pip_like(reading: Reading, dropped, most: float) -> list[tuple[float, float, float]]:
    """(cx, cy, side) of what may be the pips of dice too big for the detector: the unclear
    dice of `reading` at most `most` across with no valued die as small as 1.5 x theirs
    (one that size would say the scale was right); and, when no valued die is as small as
    `most` (none valued, or a close camera whose big dice are read), the dropped detections
    at most `most` across too: a first net sure that a pip is no die drops what may be a big
    die's only trace (where it has small valued dice, those are no pips)."""
    valued = [d.side for d in reading.dice if d.sure]
    pips = [(*d.center, d.side) for d in reading.dice
            if d.reason in ("unclear", "disagree") and d.side <= most and all(v > 1.5 * d.side for v in valued)]
    if all(v > most for v in valued):
        pips += [d for d in dropped if d[2] <= most]
    return pips
