"""The companion's pip dependencies on a machine whose numpy and OpenCV come from apt.

Printed one per line, for `pip install`: pyproject.toml's list (and, with --extra NAME,
that extra's) less what the system packages provide, whose wheels would replace them
(numpy 2 on Bookworm included). Used by install-pi.sh and by .ci/run's Pi-stack tests,
so the two build the same environment.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

APT_PROVIDED = {"numpy", "opencv-python", "opencv-python-headless", "opencv-contrib-python",
                "opencv-contrib-python-headless", "picamera2", "lgpio"}
# Pi OS ships gpiozero 2.0.1, which would satisfy ">=2.0.1" through --system-site-packages;
# the Pi 5 needs the fixes of 2.0.1.post3.
PINNED = ["gpiozero>=2.0.1.post3"]


def name_of(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def pip_deps(pyproject: Path, extras: list[str], skip: set[str] = frozenset()) -> list[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    return [dep for dep in wanted if name_of(dep) not in APT_PROVIDED | set(skip)] + PINNED


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pyproject", type=Path)
    parser.add_argument("--extra", action="append", default=[], help="an optional-dependencies group to add")
    parser.add_argument("--skip", action="append", default=[], help="a distribution to leave out")
    args = parser.parse_args()
    print("\n".join(pip_deps(args.pyproject, args.extra, set(args.skip))))


if __name__ == "__main__":
    main()
