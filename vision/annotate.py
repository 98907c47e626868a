"""Draw a `Reading` on its frame for the tablet: green boxes with the value, red
dashed boxes with "?" for unsure dice, thin grey dashed boxes for what was
there before the roll (`reading.ignored`), and a one-line summary at the top."""

from __future__ import annotations

import cv2
import numpy as np

from .reading import Reading

_SURE = (60, 200, 60)      # BGR
_UNSURE = (40, 40, 230)
_IGNORED = (150, 150, 150)


def annotate(frame: np.ndarray, reading: Reading, status: str | None = None) -> np.ndarray:
    """Return a copy of `frame` ((H, W, 3) uint8 BGR) with `reading` drawn on it.

    status: optional text for the summary line (e.g. "rolling"); by default the
    values, their total, or how many dice are unsure.
    """
    out = np.ascontiguousarray(frame.copy())
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 900.0)
    th = max(1, int(round(2 * scale)))
    for d in getattr(reading, "ignored", ()):     # there before the roll: thin grey, no value
        x, y, bw, bh = d.box
        _dashed_rect(out, (x, y, bw, bh), _IGNORED, 1)
    for d in reading.dice:
        x, y, bw, bh = d.box
        col = _SURE if d.sure else _UNSURE
        if d.sure:
            cv2.rectangle(out, (x, y), (x + bw, y + bh), col, th)
        else:
            _dashed_rect(out, (x, y, bw, bh), col, th)
        label = str(d.value) if d.sure else "?"
        fs = 0.8 * scale * 1.4
        (tw, tht), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, fs, th)
        tx, ty = x, max(tht + 2, y - 4)
        cv2.rectangle(out, (tx, ty - tht - 3), (tx + tw + 4, ty + 3), col, -1)
        cv2.putText(out, label, (tx + 2, ty), cv2.FONT_HERSHEY_SIMPLEX, fs, (255, 255, 255), th,
                    cv2.LINE_AA)
    if status is None:
        if not reading.dice:
            status = "no dice"
        elif reading.complete:
            status = " ".join(str(v) for v in reading.values) + f"  = {reading.total()}"
        else:
            status = f"{len(reading.unsure)} of {len(reading.dice)} dice unsure - please check"
    fs = 0.7 * scale * 1.4
    (tw, tht), _ = cv2.getTextSize(status, cv2.FONT_HERSHEY_SIMPLEX, fs, th)
    cv2.rectangle(out, (0, 0), (min(w, tw + 12), tht + 12), (0, 0, 0), -1)
    cv2.putText(out, status, (6, tht + 5), cv2.FONT_HERSHEY_SIMPLEX, fs, (255, 255, 255), th,
                cv2.LINE_AA)
    return out


def _dashed_rect(img: np.ndarray, box, col, th: int) -> None:
    x, y, w, h = box
    pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        n = max(2, int(np.hypot(x1 - x0, y1 - y0) // 8))
        for k in range(0, n, 2):
            a, b = k / n, min(1.0, (k + 1) / n)
            cv2.line(img, (int(x0 + (x1 - x0) * a), int(y0 + (y1 - y0) * a)),
                     (int(x0 + (x1 - x0) * b), int(y0 + (y1 - y0) * b)), col, th)
