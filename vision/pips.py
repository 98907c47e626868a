"""Pip candidates: small round blobs darker or lighter than a uniform ring around them.

Scale-free: a difference-of-Gaussians pyramid finds blobs of radius ~1.7 px up
to 1/12 of the frame's short side, then each blob is checked on the image itself (inner
colour vs the ring just outside it). Works on dark-on-light and light-on-dark
pips alike; colour is kept so the grouping step can tell dice apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Blur sigmas inside one octave; DoG between neighbours responds best to blobs
# of radius ~ sqrt(2) * sqrt(s_i * s_i+1) = 1.7, 2.4, 3.4 level pixels.
_SIGMAS = (1.0, 1.414, 2.0, 2.83)
_RADII = tuple(float(np.sqrt(2 * _SIGMAS[i] * _SIGMAS[i + 1])) for i in range(3))
_RING_N = 16
_RING_ANG = np.linspace(0, 2 * np.pi, _RING_N, endpoint=False)
_RING_COS = np.cos(_RING_ANG).astype(np.float32)
_RING_SIN = np.sin(_RING_ANG).astype(np.float32)


@dataclass
class Pips:
    """Verified pip candidates, N of them, all arrays of length N.

    xy: (N, 2) float32 full-frame pixel centres.
    r: (N,) float32 radius, pixels.
    sign: (N,) int8, +1 dark pip on lighter face, -1 light pip on darker face.
    contrast: (N,) float32 |inner grey - ring grey|, grey levels.
    ring: (N, 3) float32 BGR median colour of the ring (the die face near it).
    inner: (N, 3) float32 BGR colour of the pip.
    spread: (N,) float32 ring grey 85th-percentile absolute deviation.
    aspect: (N,) float32 longest / shortest diameter of the blob at half
        contrast (1 = round; pips on a side face are foreshortened ovals).
    """

    xy: np.ndarray
    r: np.ndarray
    sign: np.ndarray
    contrast: np.ndarray
    ring: np.ndarray
    inner: np.ndarray
    spread: np.ndarray
    aspect: np.ndarray

    def __len__(self) -> int:
        return len(self.r)

    def take(self, idx) -> "Pips":
        return Pips(*(getattr(self, f)[idx] for f in
                      ("xy", "r", "sign", "contrast", "ring", "inner", "spread", "aspect")))


def sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear samples of `img` (H, W) or (H, W, C) uint8/float32 at float
    coordinates x, y of any equal shape. Returns float32, shape x.shape (+ (C,))."""
    shape = np.shape(x)
    n = int(np.prod(shape))
    if n == 0:
        return np.zeros(shape + img.shape[2:], np.float32)
    # remap wants maps under 32767 rows: lay the points out as a (rows, 1024) grid.
    cols = min(n, 1024)
    rows = -(-n // cols)
    mx = np.zeros(rows * cols, np.float32)
    my = np.zeros(rows * cols, np.float32)
    mx[:n] = np.ravel(x)
    my[:n] = np.ravel(y)
    out = cv2.remap(img, mx.reshape(rows, cols), my.reshape(rows, cols), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    out = out.reshape((rows * cols,) + img.shape[2:])[:n]
    return out.astype(np.float32).reshape(shape + img.shape[2:])


def _blob_peaks(gray: np.ndarray, min_r: float, max_r: float, thr: int = 6,
                max_n: int = 4000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DoG extrema of uint8 (H, W) `gray` over octaves.

    Returns xy (N, 2) float32 full-res, r (N,) float32, sign (N,) int8.
    """
    out_xy, out_r, out_s, out_a = [], [], [], []
    g = gray
    scale = 1.0
    k3 = np.ones((3, 3), np.uint8)
    # Each blur builds on the last (sigma^2 adds up): smaller kernels, same result.
    inc = [_SIGMAS[0]] + [float(np.sqrt(_SIGMAS[i + 1] ** 2 - _SIGMAS[i] ** 2)) for i in range(3)]
    while min(g.shape) >= 12:
        rmin, rmax = _RADII[0] * scale, _RADII[-1] * scale
        if rmin > max_r:
            break
        if rmax >= min_r * 0.8:
            blurs = []
            prev = g
            for sgm in inc:
                prev = cv2.GaussianBlur(prev, (0, 0), sgm)
                blurs.append(prev)
            absd = [cv2.absdiff(blurs[i + 1], blurs[i]) for i in range(3)]
            a = cv2.max(cv2.max(absd[0], absd[1]), absd[2])
            peak = cv2.bitwise_and(cv2.compare(a, cv2.dilate(a, k3), cv2.CMP_EQ),
                                   cv2.compare(a, thr, cv2.CMP_GE))
            pts = cv2.findNonZero(peak)
            if pts is not None:
                xs, ys = pts[:, 0, 0], pts[:, 0, 1]
                st = np.stack([absd[i][ys, xs] for i in range(3)])
                si = np.argmax(st, axis=0)
                b_lo = np.stack([blurs[i][ys, xs] for i in range(3)])[si, np.arange(len(xs))]
                b_hi = np.stack([blurs[i + 1][ys, xs] for i in range(3)])[si, np.arange(len(xs))]
                out_xy.append(np.stack([(xs + 0.5) * scale - 0.5, (ys + 0.5) * scale - 0.5], 1))
                out_r.append(np.asarray(_RADII, np.float32)[si] * scale)
                # Wider blur brighter than narrow one at the centre: a dark blob.
                out_s.append(np.where(b_hi.astype(np.int16) > b_lo, 1, -1).astype(np.int8))
                out_a.append(a[ys, xs].astype(np.float32))
        g = cv2.pyrDown(g)
        scale *= 2.0
    if not out_xy:
        z = np.zeros(0, np.float32)
        return np.zeros((0, 2), np.float32), z, np.zeros(0, np.int8)
    xy = np.concatenate(out_xy).astype(np.float32)
    r = np.concatenate(out_r)
    s = np.concatenate(out_s)
    a = np.concatenate(out_a)
    keep = (r >= min_r * 0.8) & (r <= max_r * 1.25)
    xy, r, s, a = xy[keep], r[keep], s[keep], a[keep]
    if len(a) > max_n:
        idx = np.argpartition(-a, max_n)[:max_n]
        xy, r, s = xy[idx], r[idx], s[idx]
    return xy, r, s


def find_pips(bgr: np.ndarray, gray: np.ndarray, min_r: float = 1.5,
              max_r: float | None = None, min_contrast: float = 22.0,
              smooth: np.ndarray | None = None) -> Pips:
    """Find and verify pips on a frame.

    bgr: (H, W, 3) uint8; gray: (H, W) uint8 of the same frame.
    min_r, max_r: pip radius range, pixels (max_r defaults to min(H, W) / 12).
    smooth: optional (H, W, 3) uint8 3x3-blurred `bgr`, if the caller has it.
    Looks on the grey image and on the red channel (red pips on black or blue
    dice, yellow on green, are faint in grey but strong in red).
    Returns `Pips`, strongest first, with overlapping duplicates removed.
    """
    h, w = gray.shape
    if max_r is None:
        max_r = min(h, w) / 12.0
    cs = smooth if smooth is not None else cv2.GaussianBlur(bgr, (3, 3), 0)
    found = [_find_on(gray, cs, min_r, max_r, min_contrast)]
    red = bgr[:, :, 2]
    # Skip the red pass on grey-scale frames (it would only repeat the grey one).
    sub = bgr[::4, ::4].astype(np.int16)
    chroma = np.abs(sub[..., 2] - sub[..., 1]) + np.abs(sub[..., 0] - sub[..., 1])
    if float((chroma > 40).mean()) > 0.002:
        found.append(_find_on(np.ascontiguousarray(red), cs, min_r, max_r, min_contrast))
    found = [f for f in found if len(f)]
    if not found:
        return _empty()
    allp = Pips(*(np.concatenate([getattr(f, k) for f in found]) for k in
                  ("xy", "r", "sign", "contrast", "ring", "inner", "spread", "aspect")))
    return _nms(allp)


def _find_on(chan: np.ndarray, cs: np.ndarray, min_r: float, max_r: float,
             min_contrast: float) -> Pips:
    """Pips on one uint8 (H, W) channel; colours sampled from smoothed BGR `cs`."""
    xy, r, s = _blob_peaks(chan, min_r, max_r)
    if len(r) == 0:
        return _empty()
    # Light smoothing so ring/inner samples are not single noisy pixels.
    gs = cv2.GaussianBlur(chan, (3, 3), 0)
    x, y = xy[:, 0], xy[:, 1]
    # Cheap first cut (centre vs 8 ring points) before the full check below.
    c0 = sample(gs, x, y)
    rm = sample(gs, x[:, None] + r[:, None] * 1.6 * _RING_COS[::2],
                y[:, None] + r[:, None] * 1.6 * _RING_SIN[::2]).mean(axis=1)
    keep = (rm - c0) * s >= 0.7 * min_contrast
    if not keep.any():
        return _empty()
    x, y, r, s = x[keep], y[keep], r[keep], s[keep]
    # Refine each blob's radius: try the detected one and +-25 %, keep the best contrast.
    best = None
    for f in (0.8, 1.0, 1.25):
        rr = r * f
        inner_g = _inner(gs, x, y, rr)
        rx = x[:, None] + rr[:, None] * 1.6 * _RING_COS
        ry = y[:, None] + rr[:, None] * 1.6 * _RING_SIN
        ring_g = sample(gs, rx, ry)
        med = np.median(ring_g, axis=1)
        # 85th percentile, not the median: a face blob between dark pips has a
        # ring that is mostly face but crosses several pips.
        mad = np.quantile(np.abs(ring_g - med[:, None]), 0.85, axis=1)
        con = (med - inner_g) * s
        score = con - 2.0 * mad
        if best is None:
            best = [score, rr, con, mad, med, inner_g]
        else:
            better = score > best[0]
            for i, v in enumerate([score, rr, con, mad, med, inner_g]):
                best[i] = np.where(better, v, best[i])
    score, r, con, mad, med, inner_g = best
    # Low-contrast textures (wood grain, fabric) fail the absolute test; a blob
    # in a busy ring fails the ring-uniformity test; an edge point fails both.
    ok = (con >= min_contrast) & (mad <= 0.3 * con + 4.0)
    if not ok.any():
        return _empty()
    x, y, r, s, con, mad = x[ok], y[ok], r[ok], s[ok], con[ok], mad[ok]
    rx = x[:, None] + r[:, None] * 1.6 * _RING_COS
    ry = y[:, None] + r[:, None] * 1.6 * _RING_SIN
    ring_c = np.median(sample(cs, rx, ry), axis=1)
    inner_c = sample(cs, x, y)
    # Roundness: the blob must be pip-coloured out to ~0.6 r in all directions.
    px = x[:, None] + r[:, None] * 0.6 * _RING_COS[::2]
    py = y[:, None] + r[:, None] * 0.6 * _RING_SIN[::2]
    half = sample(gs, px, py)
    ring_med = med[ok]
    frac = ((ring_med[:, None] - half) * s[:, None]) / np.maximum(con[:, None], 1)
    round_ok = np.min(frac, axis=1) > 0.35
    sel = np.nonzero(round_ok)[0]
    x, y, r, s, con, mad = x[sel], y[sel], r[sel], s[sel], con[sel], mad[sel]
    asp = _aspect(gs, x, y, r, ring_med[sel], ring_med[sel] - s * con)
    return Pips(np.stack([x, y], 1).astype(np.float32), r.astype(np.float32),
                s.astype(np.int8), con.astype(np.float32),
                ring_c[sel].astype(np.float32), inner_c[sel].astype(np.float32),
                mad.astype(np.float32), asp.astype(np.float32))


def _aspect(gs, x, y, r, ring_level, pip_level) -> np.ndarray:
    """Longest / shortest of 8 diameters where the blob falls to half contrast.

    gs: (H, W) uint8; x, y, r, ring_level, pip_level: (N,) arrays. Returns (N,).
    """
    n = len(x)
    if n == 0:
        return np.zeros(0, np.float32)
    ang = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    t = np.linspace(0, 2.0, 17)                                    # in units of r
    rx = x[:, None, None] + r[:, None, None] * t[None, None, :] * np.cos(ang)[None, :, None]
    ry = y[:, None, None] + r[:, None, None] * t[None, None, :] * np.sin(ang)[None, :, None]
    v = sample(gs, rx, ry)                                         # (N, 16, 17)
    f = (v - ring_level[:, None, None]) / (pip_level - ring_level)[:, None, None]
    below = f < 0.5
    k = np.where(below.any(axis=2), below.argmax(axis=2), len(t) - 1)   # first index below
    k0 = np.maximum(k - 1, 0)
    f0 = np.take_along_axis(f, k0[..., None], 2)[..., 0]
    f1 = np.take_along_axis(f, k[..., None], 2)[..., 0]
    frac = np.clip((f0 - 0.5) / np.maximum(f0 - f1, 1e-3), 0, 1)
    rad = (t[k0] + frac * (t[k] - t[k0]))                          # (N, 16), units of r
    diam = rad[:, :8] + rad[:, 8:]
    return diam.max(axis=1) / np.maximum(diam.min(axis=1), 0.2)


def _inner(gs: np.ndarray, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Mean grey of the centre and 4 points at 0.35 r: the pip's own level."""
    d = 0.35 * r
    xs = np.stack([x, x + d, x - d, x, x], 1)
    ys = np.stack([y, y, y, y + d, y - d], 1)
    return sample(gs, xs, ys).mean(axis=1)


def _nms(p: Pips) -> Pips:
    """Drop weaker candidates whose centre lies within the radius of a stronger one."""
    if len(p) == 0:
        return p
    order = np.argsort(-p.contrast)
    p = p.take(order)
    keep = np.ones(len(p), bool)
    xy, r = p.xy, p.r
    for i in range(len(p)):
        if not keep[i]:
            continue
        d = np.hypot(xy[i + 1:, 0] - xy[i, 0], xy[i + 1:, 1] - xy[i, 1])
        # Only blobs of similar size compete: a whole die is also a blob, and
        # must not hide the pips on it.
        ratio = np.maximum(r[i], r[i + 1:]) / np.minimum(r[i], r[i + 1:])
        close = (d < np.maximum(r[i], r[i + 1:]) * 1.1) & (ratio < 1.8)
        keep[i + 1:] &= ~close
    return p.take(np.nonzero(keep)[0])


def _empty() -> Pips:
    z = np.zeros(0, np.float32)
    return Pips(np.zeros((0, 2), np.float32), z, np.zeros(0, np.int8), z,
                np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32), z, z)
