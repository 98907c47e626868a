"""A camera and a dice reader that need no hardware: each capture is the next list of values."""

from __future__ import annotations

import struct
import zlib


def tiny_png(width: int = 64, height: int = 48) -> bytes:
    """A real PNG (grey), so a browser can show the 'annotated' image."""
    raw = b"".join(b"\x00" + bytes([90, 110, 90]) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Status:
    def __init__(self, ok: bool = True, state: str | None = None):
        self.ok = ok
        self.state = state or ("ok" if ok else "lost")
        self.reason = "" if ok else "unplugged"
        self.message = "camera ready" if ok else "camera lost: check the cable"


class FakeCamera:
    def __init__(self, frames: list[list]):
        self.frames = list(frames)
        self.status = Status(True)

    def capture(self, timeout: float = 3.0):
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]


class FakeReading:
    def __init__(self, values: list):
        self.values = values

    def to_dict(self) -> dict:
        return {"dice": [{"value": v, "center": [40.0 * i, 20.0], "box": [40 * i, 10, 30, 30],
                          "confidence": 0.95 if v else 0.2} for i, v in enumerate(self.values)]}


def reader(frame) -> FakeReading:
    return FakeReading(list(frame))


def annotate(frame, reading):
    return frame


def encode_png(frame) -> bytes:
    return tiny_png()
