"""From a BGR frame to a `Reading`: pips -> groups -> a 3x3 grid read of each die face.

The method, in three steps:

1. `vision.pips.find_pips` finds round blobs that contrast with a uniform ring.
2. Blobs of the same size, polarity and colours, joined by a straight run of
   face colour (no die edge between them), are grouped (union-find).
3. Each group is a die hypothesis. A 3x3 pip grid (centre, angle, step) is
   fitted to it and all nine grid positions, plus four blank face positions,
   are read *from the image*: every position must be clearly pip or clearly
   face, and the pattern must be one of the six die faces. Anything else is
   reported as an unsure die; a value is never guessed.

A lone blob is a "1" only if it sits in the middle of a bounded, uniform face
of die size (so marks on the tray and whole dice seen as blobs are not ones).
Groups chained across touching dice are split; side faces (oval pips, or a
smaller face overlapping a bigger one) are dropped or made unsure. See
docs/vision.md for the full list of checks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .frame import flat, tray_area, validate_frame
from .pips import Pips, find_pips, sample
from .reading import Die, Reading, in_reading_order
from .settings import Config

# Grid positions (i, j) in units of the pip step; the six faces as sets.
_GRID = [(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)]
_CORNERS = {(-1, -1), (1, -1), (-1, 1), (1, 1)}
_FACES: dict[frozenset, int] = {
    frozenset({(0, 0)}): 1,
    frozenset({(-1, -1), (1, 1)}): 2,
    frozenset({(1, -1), (-1, 1)}): 2,
    frozenset({(-1, -1), (0, 0), (1, 1)}): 3,
    frozenset({(1, -1), (0, 0), (-1, 1)}): 3,
    frozenset(_CORNERS): 4,
    frozenset(_CORNERS | {(0, 0)}): 5,
    frozenset(_CORNERS | {(-1, 0), (1, 0)}): 6,
    frozenset(_CORNERS | {(0, -1), (0, 1)}): 6,
}
# Blank face positions between the grid points (never a pip on any face).
# Only the diagonal ones: they stay ~0.7 step from every pip, even on dice
# with big pips set close together.
_BLANK = [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]
# Face side / pip grid step for common dice (pips at ~+-0.28 of the side).
SIDE_PER_STEP = 3.6
# Calibrated frames are halved while pips keep at least this radius, pixels.
WORK_PIP_R = 2.8

_TRACE = False  # debugging aid: print why grids and lone pips are rejected
PIP_T = 0.55      # normalised level at or above which a grid position is a pip
BLANK_T = 0.30    # at or below which it is blank face
BLANK_FAR = 0.45   # blank positions may not be this far from the face colour, away from the pips
BLANK_MID_T = 0.5  # the between-pip face positions sit close to big pips: looser
OVAL_MIN = 1.45     # blob aspect ratio above which a pip may be on a side face
OVAL_REL = 1.3     # ... and above this times the frame's median aspect
SQUARE_MAX = 1.25  # grid step ratio allowed for faces other than 6
BOUND_MIN_DIRS = 5  # of 8 directions in which the face must end within 3.4 steps
ONE_EDGE_FRAC = 0.6  # of directions in which a one's face must end 0.55-0.75 side out
ONE_SIDE_PER_R = 4.0  # a face is at least this many one-pip radii across
MAX_SPLIT = 18      # larger chained groups are not split (cost grows fast)
UNSURE_MIN_CONTRAST = 40.0  # an unreadable group is reported as a die only if this clear
MIN_SEP = 0.30    # weakest pip minus strongest blank, below which: unsure


@dataclass
class _Hyp:
    value: int | None
    cx: float
    cy: float
    side: float
    angle: float
    conf: float
    reason: str
    npips: int
    pip_r: float = 0.0


def read_frame(frame: np.ndarray, config: Config | None = None) -> Reading:
    """Read every die on `frame` ((H, W, 3) uint8 BGR). See module docstring."""
    cfg = config or Config()
    frame = validate_frame(frame)
    H, W = frame.shape[:2]
    img, ox, oy = tray_area(frame, cfg.roi)
    scale = 1.0
    if cfg.die_px:
        # Calibrated: halve the frame while pips stay at least WORK_PIP_R px in
        # radius (pip radius ~ side / 11); the work drops with the area.
        pr = cfg.die_px / SIDE_PER_STEP / 3.0
        while pr * scale / 2 >= WORK_PIP_R and min(img.shape[:2]) >= 128:
            img = cv2.pyrDown(img)
            scale /= 2
        if scale != 1.0:
            cfg = replace(cfg, die_px=cfg.die_px * scale, roi=None)
            pr *= scale
        min_r, max_r = max(1.2, pr * 0.45), pr * 2.6
    else:
        min_r, max_r = 1.5, min(img.shape[:2]) / 12.0
    if flat(img):
        return Reading((), W, H)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    # uint8 is enough: `sample` interpolates to float32 itself.
    smooth = cv2.GaussianBlur(img, (3, 3), 0)
    pips = find_pips(img, gray, min_r=min_r, max_r=max_r, min_contrast=cfg.min_contrast,
                     smooth=smooth)
    hyps = _group_and_read(pips, smooth, cfg)
    dice = []
    for hp in hyps:
        if scale != 1.0:
            hp.cx, hp.cy, hp.side = hp.cx / scale, hp.cy / scale, hp.side / scale
        half = hp.side / 2 * (abs(math.cos(hp.angle)) + abs(math.sin(hp.angle)))
        x0, y0 = hp.cx - half + ox, hp.cy - half + oy
        box = (int(round(x0)), int(round(y0)), int(round(2 * half)), int(round(2 * half)))
        dice.append(Die(hp.value, (hp.cx + ox, hp.cy + oy), box, hp.conf, hp.reason,
                        float(hp.side)))
    return Reading(tuple(in_reading_order(dice)), W, H)


# --------------------------------------------------------------------------- grouping

def _pairs(p: Pips, smooth: np.ndarray) -> list[tuple[int, int]]:
    """Index pairs (i, j) of pips that may lie on one die face."""
    n = len(p)
    if n < 2:
        return []
    xy, r = p.xy, p.r
    i, j = np.triu_indices(n, 1)
    d = np.hypot(xy[i, 0] - xy[j, 0], xy[i, 1] - xy[j, 1])
    rmax = np.maximum(r[i], r[j])
    rmin = np.minimum(r[i], r[j])
    con = np.minimum(p.contrast[i], p.contrast[j])
    ring_d = np.linalg.norm(p.ring[i] - p.ring[j], axis=1)
    inner_d = np.linalg.norm(p.inner[i] - p.inner[j], axis=1)
    ok = ((d < 13.0 * rmax) & (d > 1.8 * rmax) & (rmax / rmin < 1.7)
          & (p.sign[i] == p.sign[j]) & (ring_d < np.maximum(40.0, 0.6 * con))
          & (inner_d < np.maximum(45.0, 0.7 * con)))
    i, j, d, rmax = i[ok], j[ok], d[ok], rmax[ok]
    if len(i) == 0:
        return []
    # Straight run of face colour between the two: samples every ~r/2,
    # skipping any pip disc on the way (3 in a row have one in the middle).
    ns = np.clip((d / np.maximum(rmax * 0.5, 1.0)).astype(int), 4, 40)
    m = int(ns.max())
    t = (np.arange(m)[None, :] + 0.5) / ns[:, None]           # (P, m)
    valid = np.arange(m)[None, :] < ns[:, None]
    sx = xy[i, 0][:, None] + t * (xy[j, 0] - xy[i, 0])[:, None]
    sy = xy[i, 1][:, None] + t * (xy[j, 1] - xy[i, 1])[:, None]
    # Distance of each sample to the nearest pip (in units of that pip's radius).
    covered = np.zeros(sx.shape, bool)
    for k in range(len(p)):
        dd = np.hypot(sx - xy[k, 0], sy - xy[k, 1])
        covered |= dd < 1.45 * p.r[k]
    col = sample(smooth, sx, sy)                              # (P, m, 3)
    face = 0.5 * (p.ring[i] + p.ring[j])
    dist = np.linalg.norm(col - face[:, None, :], axis=2)
    con_ij = np.minimum(p.contrast[i], p.contrast[j])
    # Loose: marbled and translucent faces vary; the grid read is the real test.
    tol = np.maximum(28.0, 0.45 * con_ij)[:, None]
    bad = (dist > tol) & valid & ~covered
    good = ~bad.any(axis=1)
    return list(zip(i[good].tolist(), j[good].tolist()))


def _components(n: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    groups: dict[int, list[int]] = {}
    for k in range(n):
        groups.setdefault(find(k), []).append(k)
    return list(groups.values())


def _fit_grids(xy: np.ndarray) -> list[tuple[float, float, float, float, float, float]]:
    """Candidate 3x3 grids through points xy (n, 2), n >= 2.

    Returns [(cx, cy, angle_rad, step_u, step_v, cost)] for the angle minima
    with a low cost (cost = worst distance of a point from a grid node, over
    the step). The two steps may differ a little: perspective, and 6-faces
    whose columns sit closer than their rows.
    """
    c = xy.mean(axis=0)
    q = xy - c
    th = np.deg2rad(np.arange(0.0, 90.0, 1.5))
    cs, sn = np.cos(th), np.sin(th)
    u = q[None, :, 0] * cs[:, None] + q[None, :, 1] * sn[:, None]      # (T, n)
    v = -q[None, :, 0] * sn[:, None] + q[None, :, 1] * cs[:, None]
    au, av = np.abs(u), np.abs(v)
    su, sv = au.max(axis=1), av.max(axis=1)
    big = np.maximum(su, sv)
    # A row of pips (axis-aligned pair) has no extent across: borrow the other step.
    su = np.where(su < 0.4 * big, big, su)
    sv = np.where(sv < 0.4 * big, big, sv)
    su, sv = np.maximum(su, 1e-6), np.maximum(sv, 1e-6)
    ru = np.minimum(au, np.abs(au - su[:, None])) / su[:, None]
    rv = np.minimum(av, np.abs(av - sv[:, None])) / sv[:, None]
    ratio = np.maximum(su, sv) / np.minimum(su, sv)
    cost = np.maximum(ru, rv).max(axis=1)
    if len(xy) <= 3:
        # Prefer square grids: with two or three pips any rectangle fits exactly.
        cost = cost + 0.5 * (ratio - 1.0)
    # Sixes often have their rows of three packed tighter than the columns.
    cost = np.where(ratio > 1.6, 9.0, cost)
    out = []
    T = len(th)
    for k in range(T):
        if cost[k] <= cost[(k - 1) % T] and cost[k] <= cost[(k + 1) % T] and cost[k] < 0.25:
            out.append((float(c[0]), float(c[1]), float(th[k]), float(su[k]), float(sv[k]),
                        float(cost[k])))
    out.sort(key=lambda h: h[5])
    # Drop near-duplicate angles, then add each fit turned by 45 degrees: a
    # square of pips is also a "plus" on a grid turned 45 degrees and 1.41x
    # larger, and only the image read can tell which grid is the die's.
    uniq: list = []
    for h in out:
        if all(abs(((h[2] - g[2] + np.pi / 4) % (np.pi / 2)) - np.pi / 4) > 0.09 for g in uniq):
            uniq.append(h)
    uniq = uniq[:2]
    alt = [(h[0], h[1], (h[2] + np.pi / 4) % (np.pi / 2), h[3] / np.sqrt(2), h[4] / np.sqrt(2), h[5])
           for h in uniq]
    return uniq + alt


def _read_grid(smooth: np.ndarray, cx: float, cy: float, ang: float, a: float, b: float,
               r: float, face: np.ndarray, pip: np.ndarray):
    """Read the 9 grid positions and 8 blank positions of one face hypothesis.

    smooth: (H, W, 3) uint8 lightly blurred frame; face, pip: (3,) float32 colours.
    Returns (value or None, separation, reason).
    """
    e1 = np.array([math.cos(ang), math.sin(ang)])
    e2 = np.array([-math.sin(ang), math.cos(ang)])
    pts = np.array(_GRID + _BLANK, np.float64)
    centres = np.array([cx, cy]) + a * pts[:, :1] * e1 + b * pts[:, 1:] * e2   # (13, 2)
    d = 0.3 * r
    offs = np.array([[0, 0], [d, 0], [-d, 0], [0, d], [0, -d]])
    sx = centres[:, None, 0] + offs[None, :, 0]
    sy = centres[:, None, 1] + offs[None, :, 1]
    h, w = smooth.shape[:2]
    if sx.min() < 0 or sy.min() < 0 or sx.max() > w - 1 or sy.max() > h - 1:
        return None, 0.0, "edge", frozenset()
    col = sample(smooth, sx, sy).mean(axis=1)                 # (13, 3)
    axis = pip - face
    n2 = float(axis @ axis)
    if n2 < 15.0 ** 2:
        return None, 0.0, "faint", frozenset()
    t = (col - face) @ axis / n2
    # Off-axis colour (a die edge, another die, the tray) is not face either.
    perp = np.linalg.norm((col - face) - t[:, None] * axis[None, :], axis=1) / math.sqrt(n2)
    tg, tb = t[:9], t[9:]
    if _TRACE:
        print('  read a=%.1f b=%.1f r=%.1f' % (a, b, r), np.round(tg, 2), np.round(tb, 2), 'perp', np.round(perp, 2))
    present = frozenset(_GRID[k] for k in range(9) if tg[k] >= PIP_T)
    absent_max = max(float(tg[[k for k in range(9) if tg[k] < PIP_T]].max(initial=-1.0)),
                     float(tb.max()))
    pres_min = float(tg[tg >= PIP_T].min(initial=2.0))
    sep = min(pres_min, 1.0) - max(absent_max, 0.0)
    # A pip must look like the pips (colour), not just be darker than the face.
    # Blank positions must look like the face: not pip-like, and not far off
    # the other way either (a die edge, its shadow or the tray: the grid has
    # then slipped off the face, e.g. one column of a 6 fitted as a 3).
    if float(perp.max()) > 0.6 or float(tb.max()) > BLANK_MID_T or float(tb.min()) < -BLANK_FAR \
            or any(perp[k] > 0.35 for k in range(9) if tg[k] >= PIP_T) \
            or any(tg[k] < -BLANK_FAR or perp[k] > 0.45 for k in range(9) if tg[k] < PIP_T):
        return None, sep, "face", present
    if any(BLANK_T < tg[k] < PIP_T for k in range(9)):
        return None, sep, "faint", present
    value = _FACES.get(present)
    if value is None:
        return None, sep, "pattern", present
    if sep < MIN_SEP:
        return None, sep, "faint", present
    if not _bounded(smooth, cx, cy, e1, e2, a, b, face, n2):
        return None, sep, "unbounded", present
    return value, sep, "", present


_BOUND_DIRS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)],
                       np.float64) / np.array([1, 1, 1, 1, 2 ** .5, 2 ** .5, 2 ** .5, 2 ** .5])[:, None]
_BOUND_GROW = np.array([1, 1, 1, 1, 1.3, 1.3, 1.3, 1.3])   # corners are further out than edges
_BOUND_KS = np.linspace(1.45, 3.4, 14)


def _bounded(smooth, cx, cy, e1, e2, a, b, face, n2) -> bool:
    """The face must end (an edge, a shadow, another colour) within ~3.4 steps
    of the centre in 7 of 8 directions: a die, not a stretch of tray."""
    ks = _BOUND_KS
    f = ks[None, :] * _BOUND_GROW[:, None]                               # (8, K)
    du, dv = _BOUND_DIRS[:, 0:1], _BOUND_DIRS[:, 1:2]
    px = cx + f * (du * a * e1[0] + dv * b * e2[0])
    py = cy + f * (du * a * e1[1] + dv * b * e2[1])
    pts = np.stack([px.ravel(), py.ravel()], 1)
    dirs = _BOUND_DIRS
    col = sample(smooth, pts[:, 0], pts[:, 1]).reshape(len(dirs), len(ks), 3)
    dist = np.linalg.norm(col - face[None, None, :], axis=2)
    tol = max(20.0, 0.1 * math.sqrt(n2))
    # One side may run into a shadow or a same-coloured neighbour.
    return int((dist > tol).any(axis=1).sum()) >= BOUND_MIN_DIRS


def _explained(p: Pips, cx, cy, ang, a, b, present, sign, r, group=()) -> bool:
    """Every pip of this polarity and size inside the face, and every pip of
    the group wherever it is, sits on a present node."""
    e1 = np.array([math.cos(ang), math.sin(ang)])
    e2 = np.array([-math.sin(ang), math.cos(ang)])
    sel = (p.sign == sign) & (p.r > 0.6 * r) & (p.r < 1.7 * r)
    ingroup = np.zeros(len(p), bool)
    ingroup[list(group)] = True
    q = p.xy.astype(np.float64) - np.array([cx, cy])
    u, v = q @ e1 / a, q @ e2 / b
    # The face reaches ~1.8 steps out; a touching neighbour's pips start ~2.6 out.
    inside = ((np.abs(u) < 1.75) & (np.abs(v) < 1.75) & sel) | ingroup
    if not inside.any():
        return True
    nodes = np.array(sorted(present), np.float64).reshape(-1, 2)
    if len(nodes) == 0:
        return False
    # ...and every present node has a detected pip on it.
    cu, cv = u[sel], v[sel]
    for nu, nv in nodes:
        if len(cu) == 0 or np.hypot(cu - nu, cv - nv).min() > 0.4:
            return False
    du = u[inside][:, None] - nodes[None, :, 0]
    dv = v[inside][:, None] - nodes[None, :, 1]
    return bool((np.hypot(du, dv).min(axis=1) < 0.4).all())


def _drop_die_blobs(p: Pips) -> Pips:
    """A big blob with smaller pips on it is a whole die seen as a blob: drop it."""
    keep = np.ones(len(p), bool)
    for k in np.nonzero(p.r >= 6.0)[0]:
        d = np.hypot(p.xy[:, 0] - p.xy[k, 0], p.xy[:, 1] - p.xy[k, 1])
        if ((d < 0.8 * p.r[k]) & (p.r < 0.5 * p.r[k])).any():
            keep[k] = False
    return p if keep.all() else p.take(np.nonzero(keep)[0])


def _group_and_read(p: Pips, smooth: np.ndarray, cfg: Config) -> list[_Hyp]:
    n = len(p)
    if n == 0:
        return []
    p = _drop_die_blobs(p)
    n = len(p)
    comps = _components(n, _pairs(p, smooth))
    # Pips on a side face are foreshortened ovals. What counts as oval is
    # relative to this frame's clear pips, so a tilted camera still reads.
    strong = p.aspect[p.contrast >= 60]
    base = float(np.median(strong)) if len(strong) >= 5 else 1.1
    oval_thr = max(OVAL_MIN, OVAL_REL * base)
    oval = p.aspect > oval_thr
    hyps: list[_Hyp] = []
    singles: list[int] = []
    for comp in comps:
        if len(comp) == 1:
            if not oval[comp[0]]:
                singles.append(comp[0])
            continue
        # Small faint pips give noisy aspects: judge the group by its median.
        if float(np.median(p.aspect[comp])) > oval_thr:
            continue        # a side face: its die is read from its top face
        h = _read_group(p, comp, smooth)
        if h.value is None and 3 <= len(comp) <= MAX_SPLIT:
            # Dice touching may chain their pips into one group: read it
            # as several dice if subsets of it read cleanly.
            parts, rest = _split(p, comp, smooth)
            if parts:
                hyps.extend(parts)
                if len(rest) == 1:
                    singles.append(rest[0])
                elif len(rest) > 1:
                    h = _read_group(p, rest, smooth)
                else:
                    continue
        # Faint unreadable groups are tray texture far more often than dice.
        if h.value is not None or float(np.median(p.contrast[comp])) >= UNSURE_MIN_CONTRAST:
            hyps.append(h)
    sides = [h.side for h in hyps if h.value is not None]
    die_px = cfg.die_px or (float(np.median(sides)) if sides else None)
    for k in singles:
        h = _read_single(p, k, smooth, die_px)
        if h is not None:
            hyps.append(h)
    return _consistent(_side_faces(_dedupe(hyps)))


def _read_group(p: Pips, comp: list[int], smooth: np.ndarray) -> _Hyp:
    idx = np.array(comp)
    xy = p.xy[idx].astype(np.float64)
    r = float(np.median(p.r[idx]))
    face = np.median(p.ring[idx], axis=0)
    pip = np.median(p.inner[idx], axis=0)
    results = []
    if len(comp) <= 6:
        for cx, cy, ang, a, b, cost in _fit_grids(xy):
            # Radii are coarse (three per octave): loose bounds.
            if not (1.3 * r <= min(a, b) and max(a, b) <= 7.0 * r):
                continue
            value, sep, why, present = _read_grid(smooth, cx, cy, ang, a, b, r, face, pip)
            # Only sixes have rows packed tighter than their columns; any other
            # face on a clearly oblong grid is a part of a six (or a side face).
            if value is not None and value != 6 and max(a, b) > SQUARE_MAX * min(a, b):
                value, why = None, "oblong"
            if value is not None and not _explained(p, cx, cy, ang, a, b, present,
                                                    p.sign[idx[0]], r, comp):
                value, why = None, "stray pip"
            if value == 2 and len(comp) == 2 and _pair_has_partners(smooth, xy, r, face, pip):
                value, why = None, "part of a face"
            results.append((value, sep, why, cx, cy, ang, (a + b) / 2))
    c = xy.mean(axis=0)
    spread = float(np.ptp(xy, axis=0).max()) if len(xy) > 1 else 0.0
    good = [res for res in results if res[0] is not None]
    if good and len({res[0] for res in good}) == 1:
        value, sep, _, cx, cy, ang, a = max(good, key=lambda res: res[1])
        conf = float(np.clip(0.5 + sep / 2, 0, 1))
        return _Hyp(value, cx, cy, a * SIDE_PER_STEP, ang, conf, "", len(comp), r)
    why = "ambiguous" if good else (results[0][2] if results else "pattern")
    side = max(spread * 1.4, 8 * r)
    best_sep = max((res[1] for res in results), default=0.0)
    return _Hyp(None, float(c[0]), float(c[1]), side, 0.0,
                float(np.clip(best_sep / 2, 0, 0.5)), why, len(comp), r)


def _split(p: Pips, comp: list[int], smooth: np.ndarray) -> tuple[list[_Hyp], list[int]]:
    """Read a chained group as several dice.

    Candidate dice are each pip with its 1-5 nearest group mates; every
    candidate is read from the image like a group. Clean reads are taken,
    most pips first, if they share no pip and no face with one already taken.
    Returns (dice read, pips of `comp` on none of their faces).
    """
    xy = p.xy[comp].astype(np.float64)
    cands: dict[frozenset, _Hyp] = {}
    for i in range(len(comp)):
        order = np.argsort(np.hypot(xy[:, 0] - xy[i, 0], xy[:, 1] - xy[i, 1]))
        for n in range(2, min(6, len(comp)) + 1):
            sub = frozenset(comp[j] for j in order[:n])
            if sub not in cands:
                cands[sub] = _read_group(p, sorted(sub), smooth)
    valid = sorted(((sub, h) for sub, h in cands.items() if h.value is not None),
                   key=lambda t: (-len(t[0]), -t[1].conf))
    taken: list[_Hyp] = []
    used: set[int] = set()
    for sub, h in valid:
        if sub & used or any(math.hypot(h.cx - o.cx, h.cy - o.cy) < 0.6 * max(h.side, o.side)
                             for o in taken):
            continue
        taken.append(h)
        used |= sub
    rest = [k for k in comp if k not in used and not any(
        math.hypot(p.xy[k, 0] - o.cx, p.xy[k, 1] - o.cy) < 0.6 * o.side for o in taken)]
    # A pip of the same chain left over close to a die read from part of it
    # may belong to that die (a six read as four plus a stray row): unsure.
    for o in taken:
        step = o.side / SIDE_PER_STEP
        if any(math.hypot(p.xy[k, 0] - o.cx, p.xy[k, 1] - o.cy) < 3.2 * step for k in rest):
            o.value, o.reason = None, "split"
    return taken, rest


def _pair_has_partners(smooth, xy: np.ndarray, r: float, face, pip) -> bool:
    """Two pips read as a 2 may instead be two neighbours on a 4, 5 or 6 whose
    other pips were too faint to find: look for faint pips beside the pair."""
    d = xy[1] - xy[0]
    n = np.array([-d[1], d[0]])
    axis = pip - face
    n2 = float(axis @ axis)
    if n2 < 1:
        return True
    for side in (1.0, -1.0):
        # Partner spots one pair-length across, and face half way to them (a
        # real 2 has the tray there, not its own face).
        pts = np.array([xy[0] + side * n, xy[1] + side * n,
                        xy[0] + side * n / 2, xy[1] + side * n / 2])
        col = sample(smooth, pts[:, 0], pts[:, 1])
        t = (col - face) @ axis / n2
        perp = np.linalg.norm((col - face) - t[:, None] * axis[None, :], axis=1) / math.sqrt(n2)
        if float(t[:2].min()) > 0.35 and float(np.abs(t[2:]).max()) < 0.3 \
                and float(perp.max()) < 0.45:
            # ...and the partner spots are blobs (a ring of face round them),
            # not a stretch of tray that happens to have the pips' colour.
            ang = np.linspace(0, 2 * np.pi, 8, endpoint=False)
            rx = pts[:2, 0:1] + 1.8 * r * np.cos(ang)[None, :]
            ry = pts[:2, 1:2] + 1.8 * r * np.sin(ang)[None, :]
            tr = (sample(smooth, rx, ry) - face) @ axis / n2            # (2, 8)
            if float(np.median(tr, axis=1).max()) < 0.5 * float(t[:2].min()):
                return True
    return False


def _read_single(p: Pips, k: int, smooth: np.ndarray, die_px: float | None) -> _Hyp | None:
    """A lone pip is a "1" only in the middle of a bounded, blank face.

    die_px: the side of the other dice on the frame (or calibrated); when
    known the face must be that size, otherwise its size is measured from
    where the face colour ends around the pip.
    """
    x, y = float(p.xy[k, 0]), float(p.xy[k, 1])
    r = float(p.r[k])
    face, pip = p.ring[k], p.inner[k]
    axis = pip - face
    n2 = float(axis @ axis)
    # Even a big one-pip is at most ~1/3 of the face across (a wide dark disc
    # on a plain surface is a screw head or a hole, not a one).
    if n2 < 30.0 ** 2 or (die_px and die_px < ONE_SIDE_PER_R * r):
        return None
    nd = 24
    ang = np.linspace(0, 2 * np.pi, nd, endpoint=False)
    th = 0.0
    if die_px:
        # Size known from the other dice: just past the face's edge (0.5-0.7
        # side out) the colour must change in most directions: tray, shadow
        # or a neighbour. A corner pip of a 2 fails the blank rings below.
        side = float(die_px)
        rr = np.linspace(0.45, 1.0, 6) * side
        sx = x + np.cos(ang)[:, None] * rr[None, :]
        sy = y + np.sin(ang)[:, None] * rr[None, :]
        dist = np.linalg.norm(sample(smooth, sx, sy) - face[None, None, :], axis=2)
        tol = max(25.0, 0.15 * math.sqrt(n2))
        if int((dist > tol).any(axis=1).sum()) < nd * ONE_EDGE_FRAC:
            if _TRACE:
                print('single: no edge', int((dist > tol).any(axis=1).sum()))
            return None
    else:
        # Size unknown (a lone die): walk out from the pip until the colour
        # leaves the face; the face must end all round, the pip in its middle.
        steps = np.arange(2.0 * r, 14.0 * r, max(0.5, r * 0.25))
        sx = x + np.cos(ang)[:, None] * steps[None, :]
        sy = y + np.sin(ang)[:, None] * steps[None, :]
        dist = np.linalg.norm(sample(smooth, sx, sy) - face[None, None, :], axis=2)
        tol = max(25.0, 0.15 * math.sqrt(n2))
        out = dist > tol
        found = out.any(axis=1)
        if int(found.sum()) < nd - 4:
            if _TRACE:
                print('single: open face', int(found.sum()), nd)
            return None
        bnd = np.where(found, steps[out.argmax(axis=1)], steps[-1])   # (nd,) radii
        opp = np.abs(bnd[: nd // 2] - bnd[nd // 2:]) / (bnd[: nd // 2] + bnd[nd // 2:])
        side = 2 * float(np.quantile(bnd, 0.3))
        # Square-ish: edge distances of a square run from h to 1.41 h.
        squarish = float(np.quantile(bnd, 0.9)) <= 1.7 * float(np.quantile(bnd, 0.1))
        if float(np.median(opp)) > 0.25 or side < ONE_SIDE_PER_R * r or not squarish:
            if _TRACE:
                print('single: shape', side, r, np.median(opp))
            return None
        th = float(ang[int(np.argmin(bnd))]) % (np.pi / 2)
    a = side / SIDE_PER_STEP
    # Blank face on two rings through every other pip position, any rotation.
    ring_ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    rx = np.concatenate([x + a * np.cos(ring_ang), x + 1.41 * a * np.cos(ring_ang)])
    ry = np.concatenate([y + a * np.sin(ring_ang), y + 1.41 * a * np.sin(ring_ang)])
    rc = sample(smooth, rx, ry)
    t = (rc - face) @ axis / n2
    perp = np.linalg.norm((rc - face) - t[:, None] * axis[None, :], axis=1) / math.sqrt(n2)
    # Face colour all round: not pip-like, and not much lighter or off-colour
    # either (the tray beyond a nearby edge, as round a corner pip of a 2).
    if float(t.max()) > BLANK_T or float(t.min()) < -0.4 or float(perp.max()) > 0.45:
        if _TRACE:
            print('single: not blank', round(float(t.max()), 2), round(float(t.min()), 2), round(float(perp.max()), 2), round(float(np.quantile(perp, 0.8)), 2))
        return None
    inner_t = float(((sample(smooth, np.array([x]), np.array([y]))[0] - face) @ axis) / n2)
    sep = min(inner_t, 1.0) - max(float(t.max()), 0.0)
    if sep < MIN_SEP:
        return None
    conf = float(np.clip(0.5 + sep / 2, 0, 1))
    return _Hyp(1, x, y, side, th, conf, "", 1, r)


def _consistent(hyps: list[_Hyp]) -> list[_Hyp]:
    """Cross-checks between the dice of one frame.

    - A set of dice is one size: a read whose face is far smaller or larger
      than the median of the others (a side face, a stretch of pattern) is
      made unsure.
    - An unsure group of another size, or lying on a die that was read is that die's side face or
      a reflection, not another die: dropped.
    """
    sure = [h for h in hyps if h.value is not None]
    if len(sure) >= 3:
        med = float(np.median([h.side for h in sure]))
        for h in sure:
            if not (0.7 * med <= h.side <= 1.45 * med):
                h.value, h.reason = None, "size"
    sure = [h for h in hyps if h.value is not None]
    med = float(np.median([h.side for h in sure])) if len(sure) >= 2 else None
    out = []
    for h in hyps:
        # Unreadable groups far off the dice's size are whole dice seen as
        # blobs, or tray pattern.
        if h.value is None and med and not (0.5 * med <= h.side <= 1.8 * med):
            continue
        if h.value is None and any(math.hypot(h.cx - k.cx, h.cy - k.cy) < 0.75 * k.side
                                   for k in sure):
            continue
        out.append(h)
    return out


def _side_faces(hyps: list[_Hyp]) -> list[_Hyp]:
    """Two reads closer than a die's side cannot both be top faces.

    Seen from above, the top face is the largest face and has the largest,
    roundest pips; a side face next to it is foreshortened. So of two
    overlapping reads the one with clearly bigger pips and face is the die and
    the other is dropped; when neither is clearly bigger the die is unsure.
    """
    sure = sorted([h for h in hyps if h.value is not None], key=lambda h: -h.pip_r * h.side)
    drop: set[int] = set()
    for i, h in enumerate(sure):
        if id(h) in drop:
            continue
        for k in sure[i + 1:]:
            if id(k) in drop:
                continue
            dist = math.hypot(h.cx - k.cx, h.cy - k.cy)
            mean_side = (h.side + k.side) / 2
            if h.value == 1 and k.value == 1 and dist < 1.05 * mean_side:
                # Two "ones" less than a die apart: the two pips of a 2 that
                # did not pair up. One unsure die between them.
                drop.add(id(k))
                h.cx, h.cy = (h.cx + k.cx) / 2, (h.cy + k.cy) / 2
                h.value, h.reason = None, "two ones"
            elif dist < 0.85 * mean_side:
                drop.add(id(k))
                if h.pip_r * h.side < 1.3 * k.pip_r * k.side:
                    h.value, h.reason = None, "overlap"
    # A read next to an unreadable group of bigger pips is that die's side
    # face: the die is unsure, and reported once.
    for u in hyps:
        if u.value is not None or u.reason == "two ones" or id(u) in drop:
            continue
        for k in sure:
            if id(k) in drop or k.value is None:
                continue
            if math.hypot(u.cx - k.cx, u.cy - k.cy) < 0.85 * k.side and u.pip_r > 1.15 * k.pip_r:
                drop.add(id(k))
    return [h for h in hyps if id(h) not in drop]


def _dedupe(hyps: list[_Hyp]) -> list[_Hyp]:
    """Two hypotheses on one die: keep the sure one; disagreeing values -> unsure."""
    hyps = sorted(hyps, key=lambda h: (h.value is None, -h.npips, -h.conf))
    kept: list[_Hyp] = []
    for h in hyps:
        clash = None
        for k in kept:
            if math.hypot(h.cx - k.cx, h.cy - k.cy) < 0.45 * max(h.side, k.side):
                clash = k
                break
        if clash is None:
            kept.append(h)
        elif h.value is not None and clash.value is not None and h.value != clash.value:
            clash.value, clash.reason = None, "ambiguous"
    return kept
