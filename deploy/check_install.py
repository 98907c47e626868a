"""Check the Pi install gives one consistent set of camera libraries.

Run by install-pi.sh with the virtual environment's python: numpy and OpenCV
must be Debian's (under /usr, not wheels in the venv), numpy of the major
version the release's picamera2 was built for, and picamera2, lgpio and
gpiozero importable. Exits 1 with one line per problem.
"""

from __future__ import annotations

import argparse
import importlib
import sys


def problems(numpy_major: int) -> list[str]:
    found: list[str] = []
    modules = {}
    for name in ("numpy", "cv2", "picamera2", "lgpio", "gpiozero"):
        try:
            modules[name] = importlib.import_module(name)
        except Exception as exc:  # picamera2 can fail with more than ImportError
            found.append(f"cannot import {name}: {exc}")
    numpy = modules.get("numpy")
    if numpy is not None:
        if not numpy.__version__.startswith(f"{numpy_major}."):
            found.append(f"numpy {numpy.__version__}: picamera2 on this release needs numpy {numpy_major}.x")
        if not numpy.__file__.startswith("/usr/"):
            found.append(f"numpy is not the system one: {numpy.__file__}")
    cv2 = modules.get("cv2")
    if cv2 is not None and not (cv2.__file__ or "").startswith("/usr/"):
        found.append(f"OpenCV is not the system one: {cv2.__file__}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numpy-major", type=int, required=True)
    args = parser.parse_args(argv)
    found = problems(args.numpy_major)
    for line in found:
        print(f"install-pi: {line}", file=sys.stderr)
    if not found:
        import cv2, gpiozero, numpy
        print(f"numpy {numpy.__version__}, OpenCV {cv2.__version__}, gpiozero {gpiozero.__version__}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
