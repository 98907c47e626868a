"""The learned reader's decision: from the nets' outputs to each die's value or doubt.

Written once, used by the reader (vision.learned) and by every tool that
measures it (the threshold sweep included). For each detection:

- the first classifier's "not a die" probability p_not_die or more drops it;
- the dice that can get a value at all (`valuable`: inside the frame's edge,
  not faint, not tiny) and whose value the first net gives less than p_look
  are read again by the wider net, whose probabilities replace the first's;
  those valued from p_look up to p_vouch need the wider net's backing
  (`second_looks`);
- a die gets a value when that value's probability is at least p_sure
  (`judge`); a second look that disagrees with the first (whose best guess
  may be "not a die") makes it unsure, as do a faint detection and a die cut
  by the frame (box more than `edge` out of it; more than `near_edge` out, it
  needs p_edge), and a die peaked close beside a stronger unsure one
  (`beside_unclear`).

Any die not given a value is reported with value None ("unsure"), so the table looks.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from .settings import Config


class Verdict(NamedTuple):
    """One kept detection's outcome: value (None: unsure), why unsure, and the
    probability of its most likely value (the Die's confidence)."""

    value: int | None
    reason: str
    confidence: float


def cut_by_frame(cx: float, cy: float, side: float, W: int, H: int) -> float:
    """How far a die's box leaves the W x H frame, as a share of its side (<= 0: inside).

    The detector centres a cut die on what it sees and underrates its size,
    so the true share is larger still: hence the margin of near_edge."""
    return max(side / 2 - cx, side / 2 - cy, cx + side / 2 - (W - 1), cy + side / 2 - (H - 1)) / side


def valuable(cuts, scores, sides, s: Config) -> np.ndarray:
    """Per detection: whether it can get a value at all (not cut, faint or tiny)."""
    return np.array([c <= s.edge and score >= s.min_score and side >= s.min_side
                     for c, score, side in zip(cuts, scores, sides)], bool)


def looked_at(p: np.ndarray, s: Config) -> np.ndarray:
    """Which rows of the first classifier's p the second look reads again: a die, but no
    value p_look or more."""
    return (p[:, 0] < s.p_not_die) & (p[:, 1:].max(axis=1) < s.p_look)


def to_back(p: np.ndarray, s: Config) -> np.ndarray:
    """Which rows of the first classifier's p need the wider net's backing: a die whose
    value has probability from p_look up to p_vouch."""
    best = p[:, 1:].max(axis=1)
    return (p[:, 0] < s.p_not_die) & (best >= s.p_look) & (best < s.p_vouch)


def second_looks(first: np.ndarray, worth: np.ndarray, s: Config) -> tuple[np.ndarray, np.ndarray]:
    """(read again by the wider net, needing its backing): a bool per row of the first
    classifier's probabilities, for the `valuable` dice only."""
    on = worth & bool(s.second_look)
    return looked_at(first, s) & on, to_back(first, s) & on


def backed(first: np.ndarray, wide: np.ndarray, rows: np.ndarray, s: Config) -> np.ndarray:
    """Per row: True unless it is one of `rows` and the wider net gives the first net's
    value less than p_backed. One net's slip (a die seen aslant whose side face shows
    more pips than its top) is seldom the other's, so a value below p_vouch needs both."""
    value = np.argmax(first[:, 1:], axis=1) + 1
    return ~rows | (wide[np.arange(len(first)), value] >= s.p_backed)


def judge(p: np.ndarray, score: float, cut: float, s: Config,
          first: int | None = None, side: float | None = None, backing: bool = True) -> tuple[int | None, str]:
    """(value or None, reason if None) for one detection: probabilities p (7), detector
    score, how much of its box is out of the frame (`cut_by_frame`), for a die the
    second look read again, the first classifier's most likely class (0: not a die),
    its side in frame pixels (None: min_side), and whether the wider net backs its
    value (`backed`)."""
    side = s.min_side if side is None else side
    v = int(np.argmax(p[1:])) + 1
    # The thresholds in the probabilities' own precision (the nets give float32): numpy 1.24
    # (the Pi's) would compare a float32 with a Python float in float64, numpy 2 in float32.
    p_sure, p_edge = p.dtype.type(s.p_sure), p.dtype.type(s.p_edge)
    if cut > s.edge:
        return None, "edge"
    if cut > s.near_edge and p[v] < p_edge:
        return None, "edge"                   # part of the face may be out: half a 6 shows a 3
    if side < s.min_side:
        return None, "small"
    if score < s.min_score:
        return None, "faint"
    if (first is not None and first != v) or not backing:
        return None, "disagree"               # two nets, two values: the table looks
    if p[v] >= p_sure:
        return v, ""
    return None, "unclear"


def decide(first: np.ndarray, wide: np.ndarray, cuts, scores, sides, s: Config) -> list[Verdict | None]:
    """The verdict on each detection (None: dropped, not a die).

    first, wide: (N, 7) probabilities of the first and the wider classifier (the wider
    net's are needed only in the rows `second_looks` names); cuts, scores, sides: per
    detection, `cut_by_frame`, the detector's score and the side in frame pixels.
    """
    worth = valuable(cuts, scores, sides, s)
    relooked, vouch = second_looks(first, worth, s)
    # The second look: the wider net reads the dice the first cannot value better, and
    # its probabilities replace the first's. It decides their value, not whether they
    # are dice: that stays the first net's call, so a die it doubts is reported unsure,
    # never dropped, and nothing dropped comes back.
    probs = np.where(relooked[:, None], wide, first)
    backs = backed(first, wide, vouch, s)
    out: list[Verdict | None] = []
    for p, p1, again, c, score, side, b in zip(probs, first, relooked, cuts, scores, sides, backs):
        if p1[0] >= s.p_not_die:
            out.append(None)
            continue
        # The first net's best guess, "not a die" (0) included: a die it more likely
        # calls no die (a hand over it, say) gets no value from the wider net alone.
        was = int(np.argmax(p1)) if again else None
        value, reason = judge(p, score, c, s, was, side, bool(b))
        out.append(Verdict(value, reason, float(p[1:].max())))
    return out


def beside_unclear(dice: list, peaks: list, s: Config) -> list:
    """`dice`, but a valued one unsure ("crowded") when its peak (cx, cy, side, score) lies
    within nms x the bigger side of a stronger peak whose die is unsure. The detector
    keeps such a pair as two dice, for a small die touching a bigger one; but the pair
    may also be one die cocked on an edge, a side face read as a die of its own beside
    its unclear top face."""
    out = []
    for d, (cx, cy, side, score) in zip(dice, peaks, strict=True):
        if d.value is not None and any(
                o.value is None and sc > score and math.hypot(cx - x, cy - y) <= s.nms * max(side, sd)
                for o, (x, y, sd, sc) in zip(dice, peaks)):
            d = replace(d, value=None, reason="crowded")
        out.append(d)
    return out
