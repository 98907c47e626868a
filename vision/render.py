"""Synthetic dice-tray scenes: for tests, the demo camera and the demo mode.

`render([3, 5, 1], seed=7)` draws those dice, seen from above, on a tray and
returns the BGR frame; `render_scene` also returns where each die is. Same
arguments, same image (everything random comes from `seed`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

# (body BGR, pip BGR): white, ivory, black, red, green, blue, yellow, purple.
DICE_COLOURS = [
    ((235, 235, 235), (25, 25, 25)),
    ((200, 225, 235), (30, 30, 30)),
    ((35, 35, 35), (240, 240, 240)),
    ((40, 40, 200), (245, 245, 245)),
    ((60, 160, 40), (250, 250, 250)),
    ((170, 70, 30), (240, 240, 240)),
    ((40, 210, 230), (20, 20, 20)),
    ((120, 40, 110), (230, 230, 230)),
]
_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass(frozen=True)
class RenderedDie:
    """Ground truth of one rendered die: value, centre (x, y), side px, angle deg."""

    value: int
    center: tuple[float, float]
    side: float
    angle: float
    tilt: float = 0.0   # how far from straight down the camera sees the die, deg
    lean: float = 0.0   # which way (image angle, deg) the camera looks aslant: the side
                        # faces it sees show on the other side of the top face

    @property
    def box_side(self) -> float:
        """Side of the upright square box around the turned die (side to 1.41 x side)."""
        a = math.radians(self.angle)
        return self.side * (abs(math.cos(a)) + abs(math.sin(a)))

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) around the die as seen: on a tilted view, with its side faces
        (as the shared photos' annotators drew them)."""
        if not self.tilt:
            half = self.box_side / 2
            return self.center[0] - half, self.center[1] - half, 2 * half, 2 * half
        pts = _cube(self)[0].reshape(-1, 2)
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        return float(x0), float(y0), float(x1 - x0), float(y1 - y0)


def render(values, seed: int = 0, **kw) -> np.ndarray:
    """Render dice showing `values` (ints 1-6); returns (H, W, 3) uint8 BGR.

    Keyword arguments as `render_scene`.
    """
    return render_scene(values, seed=seed, **kw)[0]


def render_scene(values, seed: int = 0, size: tuple[int, int] = (1280, 720),
                 die_px: float = 64.0, tray=(120, 110, 40), colours=None,
                 touching: bool = False, blur: float = 0.0, noise: float = 2.0,
                 light: float = 0.25, glare: bool = False, pip_scale: float = 1.0,
                 see_through: float = 0.0, ghost_fade: float = 0.0, tilt: float = 0.0,
                 cocked=None, finishes: float = 0.0, spread: float = 0.0) -> tuple[np.ndarray, list[RenderedDie]]:
    """Render a top-down tray scene.

    values: die values 1-6 (0 to ~12 dice).
    size: (width, height) of the frame.
    die_px: die side in pixels (each die varies by +-5 %).
    spread: dice of several sets: each die's side also a factor exp(-spread..spread)
    of die_px (no random draw when 0: scenes drawn without it stay the same).
    tray: BGR colour of the tray felt.
    colours: list of (body BGR, pip BGR) to pick from; default DICE_COLOURS.
    touching: place dice in a tight cluster so they touch.
    blur: Gaussian blur sigma in pixels; noise: Gaussian noise sigma, grey levels.
    light: strength of an uneven-light gradient (0 = flat).
    glare: add a soft bright spot.
    see_through: translucent dice: how strongly (0-1) the bottom face's pips
    show through the top face (a 2 on top has a 5 below: its middle pip makes
    the 2 look like a 3).
    ghost_fade: how much dimmer the bottom face's pips show away from the middle
    (0: all alike; 1: a corner pip at a fifth of the middle one's strength), as
    in photos of translucent dice, where the sides' refraction hides the corners
    and the middle pip is the one that shows (a 2 looks like a 3, a 4 like a 5).
    Both are for dice drawn flat: a tilted or cocked die is drawn opaque.
    tilt: dice seen at an angle, up to this many degrees (a phone held aslant, a
    wide lens near the tray's edge): the top face foreshortened and one or two
    side faces, with their own pips, beside it; `center` is then the middle of
    the die as seen and `box` takes in its side faces. Each die leans 25-100 % of
    `tilt`. A tilted die is drawn opaque (`see_through` is for dice seen straight down).
    cocked: per die, how far it leans (deg; 0: flat), each its own way, as a die
    cocked on an edge against a wall or another die; its `value` is the face
    that leans that far (past 45 degrees a side face is nearer up). Given, it
    replaces `tilt`.
    finishes: the share of dice drawn flat whose body is not one flat colour but
    one of FINISHES, as real dice are: marbled, flecked with glitter, or clear
    (the tray seen through a tinted body). No random draw when 0: scenes drawn
    without it stay the same.
    Returns (image (H, W, 3) uint8 BGR, [RenderedDie, ...] in `values` order).
    """
    rng = np.random.default_rng(seed)
    w, h = size
    ss = 2  # supersampling for smooth edges
    W, H = w * ss, h * ss
    img = np.empty((H, W, 3), np.float32)
    img[:] = tray
    # Felt texture.
    tex = rng.normal(0, 6, (H // 8 + 1, W // 8 + 1)).astype(np.float32)
    tex = cv2.resize(tex, (W, H), interpolation=cv2.INTER_CUBIC)[:H, :W]
    img += tex[..., None]
    colours = colours or DICE_COLOURS
    placed: list[RenderedDie] = []
    if cocked is not None and len(cocked) != len(values):
        raise ValueError(f"cocked gives {len(cocked)} leans for {len(values)} dice")
    if cocked is not None and not all(0 <= c < 90 for c in cocked):
        raise ValueError(f"a die leans 0-90 degrees, not {list(cocked)}")
    lean = rng.uniform(0, 360) if tilt and cocked is None else 0.0   # one camera: the dice lean about one way
    for k, v in enumerate(values):
        v = int(v)
        if v not in _PIPS:
            raise ValueError(f"die value must be 1-6, got {v}")
        side = die_px * rng.uniform(0.95, 1.05)
        if spread:
            side *= math.exp(rng.uniform(-spread, spread))
        ang = rng.uniform(0, 90)
        most = cocked[k] if cocked is not None else tilt
        centre = _place(rng, placed, side * (1 + math.sin(math.radians(most))), w, h, touching)
        if cocked is not None:
            # on one of its bottom edges, give or take: one side face shows, the top face beside it
            placed.append(RenderedDie(v, centre, side, ang, float(cocked[k]),
                                      float((ang + 90 * rng.integers(4) + rng.uniform(-8, 8)) % 360)))
        elif tilt:
            placed.append(RenderedDie(v, centre, side, ang, float(rng.uniform(0.25, 1) * tilt),
                                      float((lean + rng.uniform(-25, 25)) % 360)))
        else:
            placed.append(RenderedDie(v, centre, side, ang))
    # Shadows first, then bodies, so a die's shadow never covers a neighbour.
    for d in placed:
        pts = _square(d.center[0] + d.side * 0.06, d.center[1] + d.side * 0.08, d.side * 1.02,
                      d.angle) * ss
        sh = np.zeros((H, W), np.float32)
        cv2.fillConvexPoly(sh, pts.astype(np.int32), 1.0, cv2.LINE_AA)
        sh = cv2.GaussianBlur(sh, (0, 0), d.side * 0.08 * ss)
        img *= (1 - 0.45 * sh)[..., None]
    for k, d in enumerate(placed):
        body, pipc = colours[int(rng.integers(len(colours)))]
        if d.tilt:
            _draw_tilted_die(img, d, body, pipc, ss, pip_scale, rng)
        else:
            finish = FINISHES[int(rng.integers(len(FINISHES)))] if finishes and rng.random() < finishes else None
            _draw_die(img, d, body, pipc, ss, pip_scale, rng, see_through, ghost_fade, finish)
    # Uneven light: a linear gradient in a random direction.
    if light:
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        g = ((xx / W - 0.5) * math.cos(a) + (yy / H - 0.5) * math.sin(a))
        img *= (1 + light * g)[..., None]
    if glare:
        gx, gy = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.12 * W) ** 2))
        img += 70 * spot[..., None]
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise:
        img += rng.normal(0, noise, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), placed


def _square(cx: float, cy: float, side: float, ang_deg: float) -> np.ndarray:
    a = math.radians(ang_deg)
    e1 = np.array([math.cos(a), math.sin(a)]) * side / 2
    e2 = np.array([-math.sin(a), math.cos(a)]) * side / 2
    c = np.array([cx, cy])
    return np.array([c - e1 - e2, c + e1 - e2, c + e1 + e2, c - e1 + e2])


def _place(rng, placed, side, w, h, touching) -> tuple[float, float]:
    margin = side * 0.9
    if 2 * margin > min(w, h):
        raise ValueError(f"a die {side:.0f} px across (side faces and all) does not fit a {w}x{h} frame")
    for attempt in range(400):
        if touching and placed:
            base = placed[int(rng.integers(len(placed)))]
            a = rng.uniform(0, 2 * math.pi)
            dist = (_seen(base) + side) / 2 * rng.uniform(1.05, 1.3)
            x, y = base.center[0] + dist * math.cos(a), base.center[1] + dist * math.sin(a)
        else:
            x, y = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
        if not (margin <= x <= w - margin and margin <= y <= h - margin):
            continue
        # Circumscribed circles may overlap a little (touching), bodies not.
        if all(math.hypot(x - d.center[0], y - d.center[1]) > (_seen(d) + side) / 2 * 1.02
               for d in placed):
            return float(x), float(y)
    raise ValueError("cannot place that many dice on this frame")


def _seen(d: RenderedDie) -> float:
    """The die's side as placing sees it: a tilted die shows its side faces too."""
    return d.side * (1 + math.sin(math.radians(d.tilt)))


def _draw_die(img, d: RenderedDie, body, pipc, ss, pip_scale, rng, see_through=0.0,
              ghost_fade=0.0, finish=None) -> None:
    s = d.side * ss
    cx, cy = d.center[0] * ss, d.center[1] * ss
    under = None
    if finish == "clear":     # the tray and shadow under the die, to be seen through it
        (x0, y0), (x1, y1) = _around(img, cx, cy, s)
        under = img[y0:y1, x0:x1].copy()
    # Rim: a slightly darker rounded square, then the top face inset.
    rim = tuple(0.7 * c for c in body)
    _rounded(img, cx, cy, s, d.angle, s * 0.16, rim)
    _rounded(img, cx, cy, s * 0.9, d.angle, s * 0.14, body)
    a = math.radians(d.angle)
    e1 = np.array([math.cos(a), math.sin(a)])
    e2 = np.array([-math.sin(a), math.cos(a)])
    if finish:
        _finish(img, (cx, cy), e1, e2, s, d.angle, body, rng, finish, under)
    step = 0.27 * s
    pr = 0.085 * s * pip_scale * (1.35 if d.value == 1 else 1.0)
    if see_through > 0:
        _ghost_pips(img, d, (cx, cy), e1, e2, s, pipc, step, 0.085 * s * pip_scale, rng, see_through,
                    ghost_fade)
    for i, j in _PIPS[d.value]:
        p = np.array([cx, cy]) + step * (i * e1 + j * e2)
        cv2.circle(img, (int(round(p[0] * 4)), int(round(p[1] * 4))), int(round(pr * 4)),
                   tuple(float(c) for c in pipc), -1, cv2.LINE_AA, shift=2)


FINISHES = ("marbled", "glitter", "clear")


def _around(img, cx, cy, s) -> tuple[tuple[int, int], tuple[int, int]]:
    """Corners (x0, y0), (x1, y1) of the square of half-side `s` around (cx, cy), within `img`."""
    return ((int(max(0, cx - s)), int(max(0, cy - s))),
            (int(min(img.shape[1], cx + s)), int(min(img.shape[0], cy + s))))


def _finish(img, centre, e1, e2, s, angle, body, rng, kind, under=None) -> None:
    """A real die's body over the flat colour just drawn, before its pips:
    - `marbled`: swirls of a second colour (a vein pattern bent by smooth noise);
    - `glitter`: flecks a fifth of a pip across or less, light or dark (on a die
      read by its pips, the specks that must not count as pips);
    - `clear`: the tray seen through a tinted body (`under`: the image before the
      die was drawn), the rim darker than the middle, as refraction makes it.
    centre, e1, e2, s: the die's centre, face axes and side on the supersampled image."""
    cx, cy = centre
    r0, r1 = _around(img, cx, cy, s)
    h, w = r1[1] - r0[1], r1[0] - r0[0]
    if h <= 0 or w <= 0:
        return
    mask = np.zeros((h, w), np.float32)
    _rounded(mask, cx - r0[0], cy - r0[1], s, angle, s * 0.16, (1.0,))
    roi = img[r0[1]:r1[1], r0[0]:r1[0]]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx, yy = (xx + r0[0] - cx) / s, (yy + r0[1] - cy) / s     # image axes, in die sides from its centre
    if kind == "marbled":
        t = rng.uniform(0, math.pi)
        bands = math.tau * rng.uniform(1.0, 3.0) * (xx * math.cos(t) + yy * math.sin(t))
        amount = rng.uniform(1.5, 5.0)
        bend = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        veins = 0.5 + 0.5 * np.sin(bands + amount * bend)
        weight = (veins ** rng.uniform(1.0, 4.0) * rng.uniform(0.5, 1.0) * mask)[..., None]
        other = rng.integers(0, 256, 3).astype(np.float32)
        roi[:] = roi * (1 - weight) + other * weight
    elif kind == "glitter":
        flecks = np.zeros((h, w), np.float32)
        colour = np.full(3, 250.0 if rng.random() < 0.7 else 15.0, np.float32)
        for _ in range(int(rng.integers(15, 120))):
            u, v = rng.uniform(-0.45, 0.45, 2)
            p = np.array([cx, cy]) + s * (u * e1 + v * e2) - np.array(r0)
            cv2.circle(flecks, (int(round(p[0] * 4)), int(round(p[1] * 4))),
                       max(1, int(round(rng.uniform(0.006, 0.017) * s * 4))), float(rng.uniform(0.3, 0.9)),
                       -1, cv2.LINE_AA, shift=2)
        g = (flecks * mask)[..., None]
        roi[:] = roi * (1 - g) + colour * g
    elif kind == "clear":
        opaque = rng.uniform(0.3, 0.7)
        tint = np.array(body, np.float32) / max(1.0, float(max(body)))
        seen = under * tint * rng.uniform(0.9, 1.3)
        # darker towards the die's edges (in its own axes: a turned die's corners no darker)
        edge = np.maximum(abs(xx * e1[0] + yy * e1[1]), abs(xx * e2[0] + yy * e2[1]))
        rim = np.clip(1 - rng.uniform(0.2, 0.5) * (2 * edge) ** 2, 0, 1)[..., None]
        m = mask[..., None]
        roi[:] = roi * (1 - m) + m * (opaque * roi + (1 - opaque) * seen) * rim


def _ghost_pips(img, d: RenderedDie, centre, e1, e2, s, pipc, step, pr, rng, strength, fade=0.0) -> None:
    """The bottom face's pips seen through a translucent body: mirrored, a little
    smaller and shifted (the bottom is farther from the camera), soft and faint,
    those away from the middle dimmer by `fade` (no random draw: scenes drawn
    without it stay the same).
    centre, e1, e2, s: the die's centre, face axes and side on the supersampled image."""
    cx, cy = centre
    shift = rng.uniform(0, 0.12 * s) * np.array([math.cos(t := rng.uniform(0, 2 * math.pi)), math.sin(t)])
    k = rng.uniform(0.75, 0.95)
    r0, r1 = _around(img, cx, cy, s)
    if r1[0] <= r0[0] or r1[1] <= r0[1]:
        return
    ghost = np.zeros((r1[1] - r0[1], r1[0] - r0[0]), np.float32)
    for i, j in _PIPS[7 - d.value]:
        p = np.array([cx, cy]) + shift + k * step * (-i * e1 + j * e2) - np.array(r0)
        cv2.circle(ghost, (int(round(p[0] * 4)), int(round(p[1] * 4))), int(round(k * pr * 4)),
                   math.exp(-0.8 * fade * (i * i + j * j)), -1, cv2.LINE_AA, shift=2)
    ghost = cv2.GaussianBlur(ghost, (0, 0), 0.03 * s)
    face = np.zeros_like(ghost)
    pts = _square(cx - r0[0], cy - r0[1], s * 0.86, d.angle)
    cv2.fillConvexPoly(face, np.round(pts * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
    g = (strength * ghost * face)[..., None]
    roi = img[r0[1]:r1[1], r0[0]:r1[0]]
    roi[:] = roi * (1 - g) + np.array(pipc, np.float32) * g


def _rounded(img, cx, cy, side, ang_deg, rad, col) -> None:
    """Filled rounded square: a square shrunk by `rad`, dilated by a disc."""
    pts = _square(cx, cy, side - 2 * rad, ang_deg)
    col = tuple(float(c) for c in col)
    cv2.fillConvexPoly(img, np.round(pts * 4).astype(np.int32), col, cv2.LINE_AA, shift=2)
    for p in pts:
        cv2.circle(img, (int(round(p[0] * 4)), int(round(p[1] * 4))), int(round(rad * 4)), col, -1,
                   cv2.LINE_AA, shift=2)
    for p, q in zip(pts, np.roll(pts, -1, axis=0)):
        cv2.line(img, (int(round(p[0] * 4)), int(round(p[1] * 4))),
                 (int(round(q[0] * 4)), int(round(q[1] * 4))), col, int(round(2 * rad)),
                 cv2.LINE_AA, shift=2)


# A face's outward normal and in-face axes (u, v), in the die's own frame (z up).
_FACES = {
    "top": ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    "+x": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "-x": ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    "+y": ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    "-y": ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
}


def _view(d: RenderedDie) -> np.ndarray:
    """3x3: the die's frame (turned by `angle`) seen by a camera tilted by `tilt` towards
    `lean`; x, y of the result are image pixels, z points at the camera."""
    a, t, l = (math.radians(v) for v in (d.angle, d.tilt, d.lean))
    turn = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    # A camera looking aslant towards `lean` sees the faces turned back towards it.
    k = np.array([-math.sin(l), math.cos(l), 0.0])     # the axis the view turns about
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    tip = np.eye(3) + math.sin(t) * kx + (1 - math.cos(t)) * kx @ kx   # Rodrigues
    return tip @ turn


def _cube(d: RenderedDie, scale: float = 1.0):
    """The die's visible faces: (corners (5, 4, 2) of the five faces in image px,
    [(name, corners, centre, u, v) of each face turned to the camera], each in image px
    (u, v: half a side along the face's axes))."""
    m = _view(d)
    s = d.side * scale
    c = np.array(d.center) * scale
    mid = m @ np.array([0, 0, 0.5 * s])       # the cube's middle sits on `center`
    faces, corners = [], []
    for name, (n, u, v) in _FACES.items():
        n, u, v = (np.array(x, float) for x in (n, u, v))
        centre3 = n * s / 2 + np.array([0, 0, s / 2])
        quad = [centre3 + (i * u + j * v) * s / 2 for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        quad2 = np.array([(m @ q - mid)[:2] + c for q in quad])
        corners.append(quad2)
        if (m @ n)[2] > 1e-6:
            faces.append((name, quad2, (m @ centre3 - mid)[:2] + c, (m @ u)[:2] * s / 2, (m @ v)[:2] * s / 2))
    return np.array(corners), faces


def _side_values(top: int, rng) -> dict[str, int]:
    """Values of the four side faces of a die showing `top` (opposite faces sum to 7)."""
    a = int(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top)]))
    b = int(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top, a, 7 - a)]))
    return {"+x": a, "+y": b, "-x": 7 - a, "-y": 7 - b}


def _draw_tilted_die(img, d: RenderedDie, body, pipc, ss, pip_scale, rng) -> None:
    """A die seen aslant: each face turned to the camera drawn as the parallelogram it
    projects to (orthographic: exact for a die far from the lens), with its pips as
    ellipses; side faces shaded by how far they turn from the light above."""
    _, faces = _cube(d, ss)
    values = {"top": d.value, **_side_values(d.value, rng)}
    circle = np.array([(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 28, endpoint=False)])
    rounded = _rounded_outline(0.9, 0.14)
    for name, quad, centre, u, v in faces:
        shade = 1.0 if name == "top" else rng.uniform(0.55, 0.85)
        face_body = tuple(float(c) * shade for c in body)
        face_pip = tuple(float(c) * (0.5 + 0.5 * shade) for c in pipc)
        # the edge a little darker than the face, as on the top-down dice
        cv2.fillPoly(img, [np.round(quad * 4).astype(np.int32)], tuple(0.7 * c for c in face_body),
                     cv2.LINE_AA, shift=2)
        inner = centre + rounded[:, :1] * u + rounded[:, 1:] * v
        cv2.fillPoly(img, [np.round(inner * 4).astype(np.int32)], face_body, cv2.LINE_AA, shift=2)
        r = 0.085 * 2 * pip_scale * (1.35 if values[name] == 1 else 1.0)
        for i, j in _PIPS[values[name]]:
            p = centre + 0.54 * (i * u + j * v)
            pip = p + r * (circle[:, :1] * u + circle[:, 1:] * v)
            cv2.fillPoly(img, [np.round(pip * 4).astype(np.int32)], face_pip, cv2.LINE_AA, shift=2)


def _rounded_outline(side: float, rad: float, n: int = 6) -> np.ndarray:
    """Points of a rounded square of `side` (corner radius `rad`) around 0, in half-sides."""
    h = side - 2 * rad
    pts = []
    for cx, cy, start in ((h, h, 0), (-h, h, 90), (-h, -h, 180), (h, -h, 270)):
        for t in np.linspace(start, start + 90, n):
            pts.append((cx + 2 * rad * math.cos(math.radians(t)), cy + 2 * rad * math.sin(math.radians(t))))
    return np.array(pts)
