"""The learned dice reader: a small die-centre detector, then a crop classifier.

The nets are ONNX files in vision/models/ (3.4 MB in all), run with
OpenCV's `cv2.dnn`: no torch, nothing fetched at run time. They are trained by
vision/train/train_dice.py; docs/vision.md gives the data and the figures.

1. Detector (`dice_det.onnx`): the frame is resized so a die is about DET_DIE
   pixels across (from the calibrated die size); uncalibrated, to a fixed
   area, then once more if the dice it found are outside the sizes it reads
   best ("auto-zoom": big dice are looked for on a smaller frame too, and
   both passes kept; tiny dice on a larger frame instead). An input smaller
   than the net's training crops (DET_MIN) is padded to their size.
   Outputs at stride 4: a die-centre heatmap, log die side, centre offset.
   One peak per die.
2. Classifier (`dice_cls.onnx`): a CLS x CLS crop of the full-resolution
   frame around each centre (side CROP x the die's side), seen twice (as is,
   and turned a quarter and mirrored: a die face reads the same), classes
   0 = not a die, 1-6 = the value.
   Second look (`dice_cls_wide.onnx`): a wider net, 2.5 times the cost,
   reads again the dice the first gives no value of P_LOOK or more; its
   probabilities replace the first's for them. The first net alone decides
   what is a die.

3. Decision (`judge`): a detection the first classifier calls "not a die"
   is dropped. A die gets a value when the averaged probability of that
   value is at least P_SURE, or at least SECOND_P with a clear lead when the
   pip reader (vision.detect, on a crop around the die) reads the same value.
   Dice below P_CHECK are read by the pip reader too, and a different value
   makes them unsure, as does a second look that disagrees with the first
   (whose best guess may be "not a die", below P_NOT_DIE);
   so do a faint detection and a die cut by the frame (box more than EDGE
   out of it; more than NEAR_EDGE out, it needs P_CHECK, pips or not), and
   a die peaked close beside a stronger unsure one (`beside_unclear`).
   Any die not given a value is reported with value None ("unsure"), so
   the table looks.
4. Close-up (`close_up`, uncalibrated only): dice too big for the detector
   show it only their pips; when the reading has such pip-like detections,
   the frame is read again at a close-up size, and a die of that reading
   takes their place if it passes guards against cut dice and patterns.
"""

from __future__ import annotations

import math
import os
import threading
from dataclasses import replace

import cv2
import numpy as np

from .reading import Die, Reading, in_reading_order

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
DET_AREA = 384 * 216     # uncalibrated first pass: detector input area, pixels
DET_MAX_AREA = 4 * DET_AREA  # never run the detector on more than this
MAX_SCALE = 1.5          # nor upscale the frame more than this
DET_DIE = 20.0           # calibrated: die side in detector pixels (the shipped one trained on ~8-100)
ZOOM_OUT = (45.0, 30.0)  # auto-zoom: median die (score >= 0.5) this big or bigger (detector px) -> also at this size
ZOOM_IN = (12.0, 20.0)   # ... this small or smaller -> to this size (it rates tiny dice ~10)
DET_STRIDE = 4
DET_MIN = 128            # a smaller detector input is padded to this (the side of its training crops)
CLS = 48                 # classifier crop size, pixels
CROP = 1.2               # crop side / die side
HEAT_T = 0.3             # detector peak threshold
NMS = 0.6                # peaks closer than NMS x the mean of their sides are one die
P_SURE = 0.7             # classifier probability needed to give a value (chosen on "val")
P_NOT_DIE = 0.6          # classifier "not a die" probability that drops a detection
MIN_SCORE = 0.4          # detector score below which a die is never given a value
MIN_SIDE = 14.0          # a die smaller than this (frame px) is never given a value: its pips would be
                         # a pixel or two (the photos' smallest die is 23 px; phantoms in noise 8-10 px)
TWO_VIEWS = True         # classify each crop twice (as is; turned and mirrored)
SECOND_LOOK = True       # the wider classifier reads again the dice ...
P_LOOK = 0.7             # ... whose most likely value has probability below this (chosen on "val")
P_BACKED = 0.5           # ... and the dice valued from P_LOOK up to P_VOUCH must have the wider net's
                         # backing: their value at least this from it too
P_VOUCH = 0.95           # ... which are those valued below this: a die cocked on an edge, valued by the
                         # first net, seldom is by the second (each costs a wider look; docs/vision.md)
CROSS_CHECK = True       # read the less certain dice with the pip reader too: another value -> unsure
P_CHECK = 0.9            # ... those whose value has probability below this (the pip reader is slow)
SECOND_P = 0.5           # below P_SURE, a value still when the pips agree, p >= SECOND_P ...
SECOND_LEAD = 0.2        # ... leading the next value by this much, and above "not a die"
PIP_CROP = 0.85          # the pip reader reads a square of +-PIP_CROP x the die's side around it
EDGE = 0.3               # a die whose box leaves the frame by more than this x its side is unsure;
NEAR_EDGE = 0.15         # ... by more than this, it needs P_CHECK, and the pips cannot lift it
BOX_PER_FACE = 1.27      # the detector's box side / the top face's side, on average (4 / pi)
CLOSE_UP = 0.33          # uncalibrated, pip-like detections: read again as if the dice were this
                         # share of the tray area's short side (`close_up`) ...
PIP_SIZED = 0.6          # ... "pip-sized": at most this x that side
INSIDE = 0.1             # a close-up die is taken only if its box is this x its side inside the frame,
BEYOND = 90.0            # ... and this big at the first pass's detector input (it was trained on 8-100),
ON_FACE = 0.3            # ... the detections within this x its side of its centre are its pips
                         # (a die's pips lie within about 0.22 x its box side) ...

CLS_NET, WIDE_NET = "dice_cls.onnx", "dice_cls_wide.onnx"   # the first classifier, the second look
NETS = ("dice_det.onnx", CLS_NET, WIDE_NET)
_nets: dict = {}
_lock = threading.Lock()   # a cv2.dnn.Net runs one input at a time


def available() -> bool:
    return all(os.path.isfile(os.path.join(MODELS, f)) for f in NETS)


def _run(name: str, blob: np.ndarray) -> np.ndarray:
    with _lock:
        key = (MODELS, name)
        if key not in _nets:
            _nets[key] = cv2.dnn.readNetFromONNX(os.path.join(MODELS, name))
        net = _nets[key]
        net.setInput(blob)
        return net.forward().copy()


def det_size(w: int, h: int, scale: float | None = None) -> tuple[int, int, float]:
    """Detector input (width, height) (multiples of 16) and the scale used.

    Without `scale`, the frame is brought to about DET_AREA pixels.
    """
    s = math.sqrt(DET_AREA / float(w * h)) if scale is None else scale
    s = min(s, MAX_SCALE, math.sqrt(DET_MAX_AREA / float(w * h)))
    dw = max(32, int(round(w * s / 16)) * 16)
    dh = max(32, int(round(h * s / 16)) * 16)
    return dw, dh, s


def crop_affine(cx: float, cy: float, side: float, angle: float = 0.0, out: int = CLS) -> np.ndarray:
    """2x3 affine taking the frame to an out x out crop of side `side` centred on (cx, cy)."""
    k = out / side
    c, s = math.cos(angle) * k, math.sin(angle) * k
    return np.array([[c, s, out / 2 - c * cx - s * cy],
                     [-s, c, out / 2 + s * cx - c * cy]], np.float32)


def crops(frame: np.ndarray, boxes) -> np.ndarray:
    """(N, 3, CLS, CLS) float32 blob of crops for boxes [(cx, cy, side)]."""
    out = np.empty((len(boxes), CLS, CLS, 3), np.float32)
    for i, (cx, cy, side) in enumerate(boxes):
        m = crop_affine(cx, cy, side * CROP)
        # warpAffine has no area mode (INTER_AREA gives the same as this): crops of
        # big dice are aliased, as they were in training.
        out[i] = cv2.warpAffine(frame, m, (CLS, CLS), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return (out.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def _probs(net: str, blob: np.ndarray, two: bool) -> np.ndarray:
    """(N, 7) probabilities of classifier `net` on a crops() blob."""
    n = len(blob)
    if two:
        # The same die turned a quarter and mirrored (a transpose): the value
        # does not change, so averaging the two damps a view-specific slip.
        blob = np.concatenate([blob, np.ascontiguousarray(blob.transpose(0, 1, 3, 2))])
    p = _softmax(_run(net, blob).reshape(len(blob), 7))
    return (p[:n] + p[n:]) / 2 if two else p


def classify(frame: np.ndarray, boxes, two_views: bool | None = None, net: str = CLS_NET) -> np.ndarray:
    """(N, 7) probabilities (0 = not a die, 1-6) of classifier `net` for boxes [(cx, cy, side)]."""
    if not len(boxes):
        return np.zeros((0, 7), np.float32)
    return _probs(net, crops(frame, boxes), TWO_VIEWS if two_views is None else two_views)


def looked_at(p: np.ndarray) -> np.ndarray:
    """Which rows of the first classifier's p the second look reads again: a die, but no
    value P_LOOK or more."""
    return (p[:, 0] < P_NOT_DIE) & (p[:, 1:].max(axis=1) < P_LOOK)


def to_back(p: np.ndarray) -> np.ndarray:
    """Which rows of the first classifier's p need the wider net's backing: a die whose
    value has probability from P_LOOK up to P_VOUCH."""
    best = p[:, 1:].max(axis=1)
    return (p[:, 0] < P_NOT_DIE) & (best >= P_LOOK) & (best < P_VOUCH)


def wide_probs(frame: np.ndarray, boxes, rows: np.ndarray) -> np.ndarray:
    """(N, 7): the wider classifier's probabilities for `rows` (a bool per box), 0 elsewhere.

    The wider net costs 2.5 times as much as the first: it sees only the dice
    the reader asks it about (a few a tray; the reader leaves out the faint
    and cut ones, unsure whatever it reads)."""
    out = np.zeros((len(boxes), 7), np.float32)
    look = np.nonzero(rows)[0]
    if len(look):
        out[look] = classify(frame, [boxes[i] for i in look], net=WIDE_NET)
    return out


def backed(first: np.ndarray, wide: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per row: True unless it is one of `rows` and the wider net gives the first net's
    value less than P_BACKED. One net's slip (a die seen aslant whose side face shows
    more pips than its top) is seldom the other's, so a value below P_VOUCH needs both."""
    value = np.argmax(first[:, 1:], axis=1) + 1
    return ~rows | (wide[np.arange(len(first)), value] >= P_BACKED)


def _peaks(frame: np.ndarray, scale: float | None):
    """Detector peaks [(cx, cy, side, score)] in frame pixels, and the scale used."""
    H, W = frame.shape[:2]
    dw, dh, s = det_size(W, H, scale)
    sx, sy = W / dw, H / dh
    # Bilinear, not INTER_AREA, even when shrinking: the detector was trained on
    # bilinear warps, and reads them as well; INTER_AREA costs 4-6 ms a frame,
    # a seventh of a reading.
    small = cv2.resize(frame, (dw, dh), interpolation=cv2.INTER_LINEAR)
    if dw < DET_MIN or dh < DET_MIN:
        # A small tray area, or the auto-zoom's pass on a close-up: the net, which
        # never saw an input this small, rates a clear die there as faint. Plain
        # padding gives it the context of its training crops; right and bottom
        # only, so the coordinates stay (dice by the top or left edge get none).
        small = cv2.copyMakeBorder(small, 0, max(0, DET_MIN - dh), 0, max(0, DET_MIN - dw),
                                   cv2.BORDER_CONSTANT, value=small.mean(axis=(0, 1)).tolist())
    out = _run("dice_det.onnx", cv2.dnn.blobFromImage(small, 1 / 255.0))[0]
    out = out[:, :dh // DET_STRIDE, :dw // DET_STRIDE]   # (4, dh/4, dw/4): the padding has no dice
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= peak) & (heat >= HEAT_T))
    res = []
    for y, x in zip(ys, xs):
        cx = (x + 0.5 + float(out[2, y, x])) * DET_STRIDE * sx
        cy = (y + 0.5 + float(out[3, y, x])) * DET_STRIDE * sy
        side = float(np.exp(out[1, y, x])) * math.sqrt(sx * sy)
        res.append((cx, cy, side, float(heat[y, x])))
    # One die, one peak: drop a peak within NMS x side of a stronger one.
    res.sort(key=lambda r: -r[3])
    kept: list = []
    for r in res:
        if _apart(r, kept):
            kept.append(r)
    return kept, math.sqrt(dw * dh / float(W * H))


def _apart(peak, others) -> bool:
    """Whether detector peak (cx, cy, side, score) is another die than each of `others`.

    Against the mean of the two sides, not the bigger one: otherwise a small die
    touching a big one would be taken for that die (a 33 px die 26 px from a 45 px
    one's centre is beyond 0.6 x 33 but within 0.6 x 45). In the auto-zoom's merge this
    also keeps some first-pass peaks on a big die's corner pips, which the first net
    drops; the bigger side there would miss a real die."""
    return all(math.hypot(peak[0] - k[0], peak[1] - k[1]) > NMS * (peak[2] + k[2]) / 2 for k in others)


def detect(frame: np.ndarray, die_px: float | None = None) -> list[tuple[float, float, float, float]]:
    """[(cx, cy, side, score)] of die centres on a BGR frame, in no particular order.

    die_px: the calibrated die side, pixels; without it the frame size sets
    the first pass and the dice found set a second one if they are outside
    the sizes the detector reads best (ZOOM_OUT, ZOOM_IN).
    """
    dets, s = _peaks(frame, DET_DIE / die_px if die_px else None)
    if die_px:
        return dets
    sides = [d[2] * s for d in dets if d[3] >= 0.5]
    if sides:
        med = float(np.median(sides))
        if med >= ZOOM_OUT[0]:
            # Keep the first pass's dice too: a few it found are lost when
            # the frame is shrunk.
            shrunk = _peaks(frame, s * ZOOM_OUT[1] / med)[0]
            return shrunk + [d for d in dets if _apart(d, shrunk)]
        if med <= ZOOM_IN[0]:
            H, W = frame.shape[:2]
            if det_size(W, H, s * ZOOM_IN[1] / med)[2] > 1.05 * s:   # not already at the cap
                return _peaks(frame, s * ZOOM_IN[1] / med)[0]
    return dets


def pip_value(frame: np.ndarray, cx: float, cy: float, side: float) -> int | None:
    """The pip reader's value for the die at (cx, cy), read on a crop around it, or None."""
    from .detect import Config, read_frame

    H, W = frame.shape[:2]
    r = side * PIP_CROP   # the die and a margin: neighbours only cost time
    x0, y0 = max(0, int(cx - r)), max(0, int(cy - r))
    x1, y1 = min(W, int(cx + r) + 1), min(H, int(cy + r) + 1)
    if x1 - x0 < 32 or y1 - y0 < 32:
        return None
    reading = read_frame(frame[y0:y1, x0:x1], Config(die_px=side / BOX_PER_FACE, reader="pips"))
    near = [d for d in reading.dice
            if math.hypot(d.center[0] + x0 - cx, d.center[1] + y0 - cy) < 0.3 * side]
    return near[0].value if len(near) == 1 else None


def _leans(p: np.ndarray) -> bool:
    """The classifier leans clearly to one value: p >= SECOND_P, SECOND_LEAD ahead of the
    next value and above "not a die" (enough for a value when the pips agree)."""
    v = int(np.argmax(p[1:])) + 1
    lead = p[v] - np.partition(p[1:], -2)[-2]
    return bool(p[v] >= SECOND_P and lead >= SECOND_LEAD and p[v] > p[0])


def pips_matter(p: np.ndarray) -> bool:
    """Whether the pip reader's value can change `judge`'s verdict on probabilities p: it
    can block a value below P_CHECK, or grant one below P_SURE. The pip reader is slow,
    so it is asked only then."""
    pv = p[1:].max()     # p's own dtype, as `judge` compares it
    return P_SURE <= pv < P_CHECK or (pv < P_SURE and _leans(p))


def judge(p: np.ndarray, score: float, cut: float, pips: int | None,
          first: int | None = None, side: float = MIN_SIDE, backing: bool = True) -> tuple[int | None, str]:
    """(value or None, reason if None) for one detection: probabilities p (7), detector
    score, how much of its box is out of the frame (`cut_by_frame`), the pip reader's
    value (or None), for a die the second look read again, the first classifier's
    most likely class (0: not a die), its side in frame pixels, and whether the wider
    net backs its value (`backed`)."""
    v = int(np.argmax(p[1:])) + 1
    if cut > EDGE:
        return None, "edge"
    if cut > NEAR_EDGE and p[v] < P_CHECK:
        return None, "edge"                   # part of the face may be out: half a 6 shows a 3
    if side < MIN_SIDE:
        return None, "small"
    if score < MIN_SCORE:
        return None, "faint"
    if (pips is not None and pips != v) or (first is not None and first != v) or not backing:
        return None, "disagree"               # two readers, two values: the table looks
    if p[v] >= P_SURE:
        return v, ""
    if pips == v and _leans(p):
        return v, ""                          # the classifier leans clearly, and the pips agree
    return None, "unclear"


def cut_by_frame(cx: float, cy: float, side: float, W: int, H: int) -> float:
    """How far a die's box leaves the W x H frame, as a share of its side (<= 0: inside).

    The detector centres a cut die on what it sees and underrates its size,
    so the true share is larger still: hence the margin of NEAR_EDGE."""
    return max(side / 2 - cx, side / 2 - cy, cx + side / 2 - (W - 1), cy + side / 2 - (H - 1)) / side


def read_learned(frame: np.ndarray, config=None, cross_check: bool | None = None) -> Reading:
    """Read a validated (H, W, 3) uint8 BGR frame; `config` a vision.Config or None.

    cross_check: ask the pip reader too (default CROSS_CHECK); False for the nets alone.
    """
    reading, dropped = _read(frame, config, cross_check)
    if getattr(config, "die_px", None):
        return reading
    return close_up(frame, config, cross_check, reading, dropped)


def close_up(frame: np.ndarray, config, cross_check: bool | None, reading: Reading,
             dropped=()) -> Reading:
    """`reading` (uncalibrated), with the pips of big dice it took for dice read as those dice.

    A camera close over the tray can show the detector dice bigger than it was
    trained on (a 300 px die in a 640 px photo is 135 px at its input; it saw
    8-100): it peaks on their pips, each an unclear "die" or one the first net
    calls no die (`dropped`, (cx, cy, side) each), and the auto-zoom, seeing
    pip-sized dice, does not zoom out. So the frame is read again as if
    calibrated to dice CLOSE_UP of the tray area's short side when `reading`
    has what may be such pips (`_pip_like`), and a die of that reading
    replaces the detections on its face only if all of these hold (each
    guards against a wrong value, and has a test):
    - it is valued, by the same rules as any die, and at least BEYOND px
      across at the first pass's detector input (before any auto-zoom), where the detector
      starts to see pips instead of dice (a die it could see whole, it did;
      patches of a checked cloth read as 6s at the close-up size are smaller);
    - its box is INSIDE x its side within the frame: at that size the detector
      centres a die cut by the frame on what it sees (half a 6 is a whole 3);
    - on its face (within ON_FACE x its side of its centre) lie at least
      half as many pip-like detections as its value, and no more unsure or
      dropped detections than its value: a die showing 3 has three pips,
      and the detector peaks on most of them (a patch of blocky noise read
      as a 6 at the close-up size had one or two);
    - its box covers no valued die.
    Detections beyond its face stay: a neighbour's pip is that die's only trace.
    And every die of the second reading must then be near a die of the
    result, or nothing is taken: a big die refused beside one taken would
    otherwise vanish with the unsure pips that showed it, leaving a complete
    reading with a wrong total.
    """
    from .detect import Config, tray_area

    H, W = frame.shape[:2]
    area = tray_area(frame, getattr(config, "roi", None))[0]
    size = CLOSE_UP * min(area.shape[:2])
    big_enough = BEYOND / det_size(area.shape[1], area.shape[0])[2]   # frame px
    pips = _pip_like(reading, dropped, PIP_SIZED * size)
    if not pips:
        return reading
    valued = [d.center for d in reading.dice if d.sure]
    unsure_or_dropped = [(*d.center, d.side) for d in reading.dice if not d.sure] + list(dropped)
    on_face = lambda c, big: all(abs(c[i] - big.center[i]) <= ON_FACE * big.side for i in (0, 1))  # noqa: E731
    in_box = lambda c, big: all(abs(c[i] - big.center[i]) < big.side / 2 for i in (0, 1))  # noqa: E731
    again = _read(frame, replace(config or Config(), die_px=size), cross_check)[0]
    taken = [big for big in again.dice
             if big.sure and big.side >= big_enough and cut_by_frame(*big.center, big.side, W, H) <= -INSIDE
             and 2 * sum(on_face(p, big) for p in pips) >= big.value
             and sum(on_face(p, big) for p in unsure_or_dropped) <= big.value
             and not any(in_box(c, big) for c in valued)]
    if not taken:
        return reading
    dice = [d for d in reading.dice if not any(on_face(d.center, big) for big in taken)] + taken
    near = lambda a, b: in_box(a.center, b) or in_box(b.center, a)    # noqa: E731
    if not all(any(near(d, e) for e in dice) for d in again.dice):
        return reading        # a die it found would go unmentioned: the first reading's doubts stay
    return Reading(tuple(in_reading_order(dice)), W, H)


def _pip_like(reading: Reading, dropped, most: float) -> list[tuple[float, float, float]]:
    """(cx, cy, side) of what may be the pips of dice too big for the detector: the unclear
    dice of `reading` at most `most` across with no valued die as small as 1.5 x theirs
    (one that size would say the scale was right); and, when it has valued dice and all
    are bigger than `most` (a close camera whose big dice are read), the dropped
    detections at most `most` across too (where it has small dice, those are no pips)."""
    valued = [d.side for d in reading.dice if d.sure]
    pips = [(*d.center, d.side) for d in reading.dice
            if d.reason in ("unclear", "disagree") and d.side <= most and all(v > 1.5 * d.side for v in valued)]
    if valued and min(valued) > most:
        pips += [d for d in dropped if d[2] <= most]
    return pips


def _read(frame: np.ndarray, config, cross_check: bool | None) -> tuple[Reading, list]:
    """One reading of the frame, the detector at config's die size or auto-zoomed, and the
    detections the first net called no die, (cx, cy, side) each."""
    check = CROSS_CHECK if cross_check is None else cross_check
    from .detect import flat, tray_area

    H, W = frame.shape[:2]
    img, ox, oy = tray_area(frame, getattr(config, "roi", None))
    if flat(img):
        return Reading((), W, H), []
    # Dice are looked for in the tray area, but read on the whole frame: a die
    # on the area's edge keeps its real pixels.
    dets = [(cx + ox, cy + oy, side, score)
            for cx, cy, side, score in detect(img, getattr(config, "die_px", None))]
    boxes = [(cx, cy, s) for cx, cy, s, _ in dets]
    cut = [cut_by_frame(cx, cy, side, W, H) for cx, cy, side, _ in dets]
    valuable = np.array([c <= EDGE and score >= MIN_SCORE and side >= MIN_SIDE
                         for c, (_, _, side, score) in zip(cut, dets)], bool)
    first = classify(frame, boxes)
    relooked = looked_at(first) & valuable & bool(SECOND_LOOK)
    vouch = to_back(first) & valuable & bool(SECOND_LOOK)
    wide = wide_probs(frame, boxes, relooked | vouch)        # one batch for both
    # The second look: the wider net reads the dice the first cannot value better, and
    # its probabilities replace the first's. It decides their value, not whether they
    # are dice: that stays the first net's call, so a die it doubts is reported unsure,
    # never dropped, and nothing dropped comes back.
    probs = np.where(relooked[:, None], wide, first)
    backs = backed(first, wide, vouch)
    dice, dropped, kept = [], [], []
    for (cx, cy, side, score), p, p1, again, c, ok, b in zip(dets, probs, first, relooked, cut, valuable, backs):
        if p1[0] >= P_NOT_DIE:
            dropped.append((cx, cy, side))
            continue
        kept.append((cx, cy, side, score))
        # The first net's best guess, "not a die" (0) included: a die it more likely
        # calls no die (a hand over it, say) gets no value from the wider net alone.
        was = int(np.argmax(p1)) if again else None
        nets_agree = was in (None, int(np.argmax(p[1:])) + 1) and b
        # The pip reader is slow: asked only when its answer can change the verdict.
        ask = check and ok and c <= NEAR_EDGE and nets_agree and pips_matter(p)
        pips = pip_value(frame, cx, cy, side) if ask else None
        value, reason = judge(p, score, c, pips, was, side, bool(b))
        box = (int(round(cx - side / 2)), int(round(cy - side / 2)), int(round(side)), int(round(side)))
        dice.append(Die(value, (cx, cy), box, float(p[1:].max()), reason, side))
    return Reading(tuple(in_reading_order(beside_unclear(dice, kept))), W, H), dropped


def beside_unclear(dice: list, peaks: list) -> list:
    """`dice`, but a valued one unsure ("crowded") when its peak (cx, cy, side, score) lies
    within NMS x the bigger side of a stronger peak whose die is unsure. `_apart` keeps
    such a pair as two dice, for a small die touching a bigger one; but the pair may
    also be one die cocked on an edge, a side face read as a die of its own beside its
    unclear top face."""
    out = []
    for d, (cx, cy, side, score) in zip(dice, peaks, strict=True):
        if d.value is not None and any(
                o.value is None and sc > score and math.hypot(cx - x, cy - y) <= NMS * max(side, s)
                for o, (x, y, s, sc) in zip(dice, peaks)):
            d = replace(d, value=None, reason="crowded")
        out.append(d)
    return out
