"""The value types of a dice reading: one `Die`, one `Reading`, and `ReadError`.

A `Reading` is what `vision.read(frame)` returns. Its `to_dict()` is the JSON
printed by `python -m vision read IMAGE --json`:

    {"dice": [{"value": 3, "center": [x, y], "box": [x, y, w, h],
               "confidence": 0.97}, ...]}

`value` is 1-6, or None (JSON null) for a die the reader sees but will not
vouch for (cocked, blurred, partly hidden, pattern not a clean die face).
Coordinates are pixels of the frame that was read, origin top-left.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class ReadError(ValueError):
    """The frame cannot be read at all (not an image, wrong shape or dtype, empty)."""


@dataclass(frozen=True)
class Die:
    """One die seen on the frame.

    value: 1-6, or None when unsure.
    center: (x, y) float pixels of the top face's centre.
    box: (x, y, w, h) int pixels, the detector's square box around the die,
        its sides included.
    confidence: 0.0-1.0: the classifier's probability of the value (of its
        most likely value for an unsure die).
    reason: for unsure dice, a short word on why ("unclear", "faint", "edge", "small",
        "disagree", "crowded", "taught").
    side: the side of the square box around the die in pixels (0 if unknown);
        what calibration stores as die_px. Not in JSON.
    """

    value: int | None
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float
    reason: str = ""
    side: float = 0.0

    @property
    def sure(self) -> bool:
        return self.value is not None

    def to_dict(self) -> dict:
        return {
            "value": self.value,
            "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "box": [int(v) for v in self.box],
            "confidence": round(float(self.confidence), 3),
        }


def in_reading_order(dice) -> list[Die]:
    """The dice in rows, top to bottom, each row left to right, as people read a tray.

    A die starts a new row when its centre is more than half a die below the
    top of the row so far (fixed bands would split a row whose dice straddle
    a band's edge)."""
    rows: list[list[Die]] = []
    for d in sorted(dice, key=lambda d: d.center[1]):
        if rows and d.center[1] - rows[-1][0].center[1] <= max(4.0, d.box[3] / 2):
            rows[-1].append(d)
        else:
            rows.append([d])
    return [d for row in rows for d in sorted(row, key=lambda d: d.center[0])]


@dataclass(frozen=True)
class Reading:
    """All dice found on one frame, sorted top-to-bottom then left-to-right.

    width, height: size of the frame read, pixels.
    ignored: detections that are no die of this roll (vision.static: there, the same, before
        the roll or in the empty tray), each with value None and reason "static"; never in
        `dice`, `values` or the JSON.
    """

    dice: tuple[Die, ...] = field(default_factory=tuple)
    width: int = 0
    height: int = 0
    ignored: tuple[Die, ...] = field(default_factory=tuple)

    @property
    def values(self) -> list[int | None]:
        return [d.value for d in self.dice]

    @property
    def complete(self) -> bool:
        """True when there is at least one die and every die has a value."""
        return bool(self.dice) and all(d.sure for d in self.dice)

    @property
    def unsure(self) -> list[Die]:
        return [d for d in self.dice if not d.sure]

    def total(self) -> int | None:
        """Sum of values, or None if any die is unsure or there is none."""
        return sum(d.value for d in self.dice) if self.complete else None  # type: ignore[misc]

    def to_dict(self) -> dict:
        return {"dice": [d.to_dict() for d in self.dice]}
