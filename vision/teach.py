"""Light teaching: the reader learns an owner's dice from the rolls the table confirmed.

On the Pi's CPU, numpy and OpenCV only. From a folder of confirmed rolls
(labelled photos, vision.labels: the companion's kept rolls or their export),
each photo is read with the shipped reader and its dice matched to the rolls'
values; the first classifier's pooled features (the 128 numbers its last
layer weighs) of every die read are kept as examples of its value, and those
of every die read where the roll had none as examples of this table's own
"not a die". A new reading is then checked against the examples (`apply`):

- a die the reader left unsure for want of confidence (`unclear`) gets a
  value only when the nearest example is of that value, the first net's best
  value is the same, and the nearest example of any other class (not a die
  included) is less similar by `lift` or more (cosine similarity);
- a valued die whose nearest example is of another class (not a die included)
  by `veto` or more becomes unsure (`taught`);
- a valued die whose nearest example is of this table's "not a die" by
  `doubt` or more becomes unsure too (`taught`): a printed token or a mark
  on the board that the reader values as a 1 or a 3.

Nothing else changes: a taught reading never changes a value, and never
values a die the reader found cut, faint, small, crowded or in disagreement.
The leads are set from the examples themselves: each photo's dice are voted
by the other photos' examples; `lift` is just above the largest lead of a
wrong vote that the first net's best value agreed with (one that would have
valued a die wrongly), `veto` above that of any wrong vote (never below
MIN_MARGIN). A veto only ever costs a die read right, so `doubt` is weighed
instead: the lead at which "not a die" votes make more wrongly valued dice
unsure than dice read right, most of all (at least DOUBTS of them; none: inf).
With examples from fewer than two photos, nothing is taught.

The taught state is one .npz file (`save`, `load`); `Config(taught=PATH)`
makes `vision.read` use it.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, replace

import numpy as np

from .classifier import classify_pooled
from .settings import Config

MIN_MARGIN = 0.05       # least cosine-similarity lead of the nearest class (the features are >= 0)
DOUBTS = 2              # least wrongly valued dice the taught rolls show a "not a die" vote catching
REASON = "taught"       # why a taught reading made a die unsure
INF = float("inf")      # a lead no vote reaches: never


@dataclass(frozen=True)
class Taught:
    """What was learned: features (M, C) float32, unit length; classes (M,) 0 = not a die, 1-6;
    nets (M,) the first net's best value for each; photos (M,) the index of the photo each came
    from; lift, veto: the lead a vote needs to value an unclear die, or to make a valued one
    unsure (inf: never); die_px: the median side of the dice taught (frame pixels); net: `net_id` of the
    classifier whose features they are ("": unknown, a state saved before it was kept); doubt: the
    lead a "not a die" vote needs to make a valued die unsure (inf: never)."""

    features: np.ndarray
    classes: np.ndarray
    nets: np.ndarray
    photos: np.ndarray
    lift: float
    veto: float
    die_px: float | None
    net: str = ""
    doubt: float = INF

    def teaches(self) -> bool:
        """Whether this state can change a reading: examples, and a lead that is not inf."""
        return bool(len(self.classes)) and any(map(np.isfinite, (self.lift, self.veto, self.doubt)))

    def to_dict(self) -> dict:
        counts = {str(c): int((self.classes == c).sum()) for c in range(7)}
        def lead(m):
            return round(float(m), 3) if np.isfinite(m) else None
        return {"examples": counts, "photos": int(len(set(self.photos.tolist()))),
                "lift": lead(self.lift), "veto": lead(self.veto), "doubt": lead(self.doubt),
                "die_px": None if self.die_px is None else round(self.die_px, 1)}


def net_id(models: str) -> str:
    """A short fingerprint of the first classifier in folder `models`: the examples are its features,
    so a state taught with one classifier means nothing to another."""
    import hashlib

    from .nets import CLS_NET

    if not isinstance(models, str):
        return ""                     # nets standing in for the files (vision.nets.run)
    try:
        with open(os.path.join(models, CLS_NET), "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:16]
    except OSError:
        return ""


def _votes(feats: np.ndarray, ex: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(nearest class, its lead over the nearest example of any other class) per row of feats."""
    sims = feats @ ex.T                                         # (N, M) cosine similarities
    best = np.full((len(feats), 7), -np.inf, np.float32)
    for c in range(7):
        on = classes == c
        if on.any():
            best[:, c] = sims[:, on].max(axis=1)
    order = np.sort(best, axis=1)
    return np.argmax(best, axis=1), order[:, -1] - order[:, -2]


def teach(folder: str, names=None, config: Config | None = None) -> Taught:
    """Learn from the labelled photos `names` of `folder` (default: all of them)."""
    from . import read
    from .image_file import load_image
    from .labels import image_names, load_labels, match

    s = replace(config or Config(), taught=None)
    labels = load_labels(folder)
    names = image_names(folder, labels) if names is None else list(names)
    feats, classes, best, photos, sides, read_as = [], [], [], [], [], []
    for k, name in enumerate(names):
        img = load_image(os.path.join(folder, "images", name))
        reading = read(img, s)
        pairs, extra, _ = match(reading, labels.get(name, []))
        dice = [d for d, _ in pairs] + extra
        if not dice:
            continue
        p, f = classify_pooled(img, [(d.center[0], d.center[1], d.side) for d in dice], s)
        feats.append(f)
        best += (np.argmax(p[:, 1:], axis=1) + 1).tolist()
        classes += [lab[0] for _, lab in pairs] + [0] * len(extra)
        photos += [k] * len(dice)
        read_as += [d.value or 0 for d in dice]
        sides += [float(np.sqrt(lab[3] * lab[4])) for _, lab in pairs]
    if not feats:
        none = np.zeros(0, np.int8)
        return Taught(np.zeros((0, 128), np.float32), none, none, none.astype(np.int32), INF, INF, None,
                      net_id(s.models))
    ex, cl, ph = np.concatenate(feats), np.array(classes, np.int8), np.array(photos, np.int32)
    nb = np.array(best, np.int8)
    lift, veto, doubt = _margins(ex, cl, nb, ph, np.array(read_as, np.int8))
    return Taught(ex, cl, nb, ph, lift, veto, float(np.median(sides)) if sides else None, net_id(s.models),
                  doubt)


def _margins(ex: np.ndarray, cl: np.ndarray, nb: np.ndarray, ph: np.ndarray,
             read_as: np.ndarray) -> tuple[float, float, float]:
    """(lift, veto, doubt): each photo's dice voted by the other photos' examples, the lead just
    above every wrong vote that would have valued a die (the vote, wrong, the first net's best
    value too), above every wrong vote at all (a veto of a die read right), and `_doubt` of the
    "not a die" votes on the dice the reader valued (read_as: its value, 0 none). inf with fewer
    than two photos."""
    if len(set(ph.tolist())) < 2:
        return INF, INF, INF
    lifts, vetoes, doubts = [0.0], [0.0], []
    for k in set(ph.tolist()):
        mine = ph == k
        c, lead = _votes(ex[mine], ex[~mine], cl[~mine])
        wrong = c != cl[mine]
        vetoes += lead[wrong].tolist()
        lifts += lead[wrong & (c == nb[mine]) & (c != 0)].tolist()
        valued = (c == 0) & (read_as[mine] != 0)
        doubts += zip(lead[valued].tolist(), (read_as[mine] != cl[mine])[valued].tolist())
    return max(MIN_MARGIN, max(lifts) + 0.01), max(MIN_MARGIN, max(vetoes) + 0.01), _doubt(doubts)


def _doubt(votes: list[tuple[float, bool]]) -> float:
    """The lead from which "not a die" votes (lead, whether the die was valued wrongly) catch
    the most wrongly valued dice net of dice read right (of two such leads, the lower: a silent
    error costs the table more than a die left unsure), if at least DOUBTS and more than those
    right; inf if no lead does."""
    best, at = 0, INF
    for t in sorted({lead for lead, bad in votes if bad}):
        caught = sum(bad for lead, bad in votes if lead >= t)
        gain = caught - sum(not bad for lead, bad in votes if lead >= t)
        if caught >= DOUBTS and gain > best:
            best, at = gain, t
    return at


def apply(frame: np.ndarray, reading, taught: Taught, s: Config, seen: dict | None = None):
    """`reading` (of `frame`) checked against what was taught: an unclear die may get a value the
    examples and the first net agree on, and a valued die may become unsure; no value changes.
    `seen`: (cx, cy, side) -> (probabilities, features) of the first classifier already run on that
    die (vision.learned.read_once); the other dice are classified here."""
    from .reading import Reading

    if not reading.dice or not taught.teaches():
        return reading
    seen = dict(seen or {})
    keys = [(*d.center, d.side) for d in reading.dice]
    todo = [k for k in keys if k not in seen]
    if todo:
        seen.update(zip(todo, zip(*classify_pooled(frame, todo, s))))
    p = np.array([seen[k][0] for k in keys])
    f = np.array([seen[k][1] for k in keys])
    near, lead = _votes(f, taught.features, taught.classes)
    dice = []
    for d, pi, c, m in zip(reading.dice, p, near.tolist(), lead.tolist()):
        if d.value is not None and c != d.value and (m >= taught.veto or (c == 0 and m >= taught.doubt)):
            d = replace(d, value=None, reason=REASON)
        elif d.value is None and d.reason == "unclear" and m >= taught.lift and c != 0 \
                and c == int(np.argmax(pi[1:])) + 1 and pi[c] > pi[0]:
            d = replace(d, value=c, reason="", confidence=float(pi[c]))
        dice.append(d)
    return Reading(tuple(dice), reading.width, reading.height)


def save(taught: Taught, path: str) -> str:
    """Write the taught state to `path` (.npz), whole or not at all."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp.npz"
    np.savez(tmp, features=taught.features, classes=taught.classes, nets=taught.nets, photos=taught.photos,
             lift=np.float64(taught.lift), veto=np.float64(taught.veto), die_px=np.float64(taught.die_px or 0.0),
             net=np.str_(taught.net), doubt=np.float64(taught.doubt))
    os.replace(tmp, path)
    return path


_cache: dict = {}
_lock = threading.Lock()


def load(path: str) -> Taught:
    """The taught state in `path` (read once per file version); ValueError if it is not one."""
    try:
        key = (path, os.stat(path).st_mtime_ns)
    except OSError as exc:
        raise ValueError(f"no taught state at {path}: {exc.strerror}") from None
    with _lock:
        if key not in _cache:
            try:
                with np.load(path) as z:
                    t = Taught(z["features"].astype(np.float32), z["classes"].astype(np.int8),
                               z["nets"].astype(np.int8), z["photos"].astype(np.int32), float(z["lift"]),
                               float(z["veto"]), float(z["die_px"]) or None,
                               str(z["net"]) if "net" in z.files else "",
                               float(z["doubt"]) if "doubt" in z.files else INF)
            except (OSError, KeyError, ValueError) as exc:
                raise ValueError(f"{path} is not a taught state: {exc}") from None
            if t.features.ndim != 2 or len(t.features) != len(t.classes):
                raise ValueError(f"{path} is not a taught state: examples and classes differ")
            _cache.clear()
            _cache[key] = t
        return _cache[key]
