"""The Raspberry Pi install: the systemd unit and the install script (dry run)."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "atlandice-companion.service"
SCRIPT = ROOT / "deploy" / "install-pi.sh"
CHECK = ROOT / "deploy" / "check_install.py"

OS_RELEASES = {
    "bookworm": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\n'
                'VERSION_CODENAME=bookworm\nID=debian\n',
    "trixie": 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_ID="13"\n'
              'VERSION_CODENAME="trixie"\nID=debian\n',
    "bullseye": 'VERSION_CODENAME=bullseye\nID=debian\n',
    "ubuntu": 'VERSION_CODENAME=noble\nID=ubuntu\n',
}


# ---- the unit -------------------------------------------------------------------


def unit() -> configparser.ConfigParser:
    # systemd repeats keys (Environment=): collect them rather than fail.
    parser = configparser.ConfigParser(strict=False, interpolation=None,
                                       dict_type=_MultiDict, empty_lines_in_values=False)
    parser.optionxform = str  # keys are case-sensitive
    parser.read_string(UNIT.read_text())
    return parser


class _MultiDict(dict):
    def __setitem__(self, key, value):
        if key in self and isinstance(value, list) and isinstance(self[key], list):
            self[key].extend(value)  # a repeated key: keep every value
        else:
            super().__setitem__(key, value)


def values(section: str, key: str) -> list[str]:
    raw = unit()[section].get(key)
    return [] if raw is None else raw.split("\n")


def test_the_service_restarts_on_failure_and_starts_at_boot() -> None:
    assert values("Service", "Restart") == ["on-failure"]
    assert values("Install", "WantedBy") == ["multi-user.target"]
    assert "network-online.target" in values("Unit", "After")[0]


def test_the_service_runs_companion_serve_from_the_venv_for_the_tablet() -> None:
    (command,) = values("Service", "ExecStart")
    argv = shlex.split(command)
    assert argv[:2] == ["/opt/atlandice-companion/venv/bin/companion", "serve"]
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    # never Flask's development server or its reloader
    assert not {"flask", "run", "--debug", "--reload"} & set(argv)


def test_the_service_user_can_use_the_camera_and_the_gpio() -> None:
    assert values("Service", "User") == ["atlandice"]
    groups = values("Service", "SupplementaryGroups")[0].split()
    assert {"video", "gpio"} <= set(groups)
    # lgpio writes files into the working directory: it must be the state dir
    assert values("Service", "WorkingDirectory") == ["/var/lib/atlandice-companion"]
    assert values("Service", "StateDirectory") == ["atlandice-companion"]


def test_the_service_uses_lgpio_for_the_pi_5() -> None:
    env = dict(v.split("=", 1) for v in values("Service", "Environment"))
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert env["ATLANDICE_CONFIG"] == "/etc/atlandice-companion/config.toml"
    assert env["ATLANDICE_DATA_DIR"] == "/var/lib/atlandice-companion"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_finds_nothing_wrong_but_the_missing_venv() -> None:
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(UNIT)],
                            capture_output=True, text=True, timeout=30)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if line.strip() and "is not executable" not in line
                  and "/opt/atlandice-companion" not in line]
    assert complaints == []


# ---- the install script ----------------------------------------------------------


def dry_run(tmp_path: Path, release: str, model: str = "Raspberry Pi 4 Model B Rev 1.5"
            ) -> subprocess.CompletedProcess[str]:
    os_release = tmp_path / "os-release"
    os_release.write_text(OS_RELEASES[release])
    model_file = tmp_path / "model"
    model_file.write_bytes(model.encode() + b"\0")
    env = {**os.environ, "OS_RELEASE": str(os_release), "MODEL_FILE": str(model_file),
           "PYTHON": sys.executable, "ARCH": "arm64"}
    return subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True,
                          text=True, timeout=60, env=env)


def commands(result: subprocess.CompletedProcess[str]) -> list[list[str]]:
    assert result.returncode == 0, result.stderr
    return [shlex.split(line[2:]) for line in result.stdout.splitlines() if line.startswith("+ ")]


def find(cmds: list[list[str]], *words: str) -> list[list[str]]:
    return [c for c in cmds if all(w in c for w in words)]


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_the_camera_libraries_come_from_apt(tmp_path: Path, release: str) -> None:
    cmds = commands(dry_run(tmp_path, release))
    (apt,) = find(cmds, "apt-get", "install")
    assert {"python3-picamera2", "python3-opencv", "python3-numpy", "python3-lgpio"} <= set(apt)
    assert "--no-install-recommends" in apt
    assert cmds.index(find(cmds, "apt-get", "update")[0]) < cmds.index(apt)


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_pip_never_brings_numpy_opencv_or_picamera2(tmp_path: Path, release: str) -> None:
    cmds = commands(dry_run(tmp_path, release))
    pips = find(cmds, "/opt/atlandice-companion/venv/bin/pip", "install")
    assert len(pips) == 2
    for pip in pips:
        names = {arg.split(">")[0].split("=")[0].split("<")[0].lower() for arg in pip}
        assert not names & {"numpy", "opencv-python", "opencv-python-headless", "picamera2"}
    (project,) = [p for p in pips if str(ROOT) in p]
    assert "--no-deps" in project        # its own requirements list the wheels
    (deps,) = [p for p in pips if p is not project]
    assert {"flask>=3.0,<4", "waitress>=3.0,<4", "segno>=1.6,<2"} <= set(deps)
    assert "gpiozero>=2.0.1.post3" in deps
    # the dependencies go in before the project, both after the venv is made
    venv = find(cmds, "venv")[0]
    assert cmds.index(venv) < cmds.index(deps) < cmds.index(project)


@pytest.mark.parametrize("release, major", [("bookworm", "1"), ("trixie", "2")])
def test_the_venv_sees_the_system_packages_and_is_checked(tmp_path: Path, release: str,
                                                         major: str) -> None:
    result = dry_run(tmp_path, release)
    cmds = commands(result)
    (venv,) = find(cmds, "-m", "venv")
    assert "--system-site-packages" in venv and venv[-1] == "/opt/atlandice-companion/venv"
    (check,) = find(cmds, str(CHECK))
    assert check[0] == "/opt/atlandice-companion/venv/bin/python"
    assert check[check.index("--numpy-major") + 1] == major
    assert release in result.stdout


def test_the_service_is_installed_enabled_and_its_user_made(tmp_path: Path) -> None:
    cmds = commands(dry_run(tmp_path, "bookworm", "Raspberry Pi 5 Model B Rev 1.0"))
    (copy,) = find(cmds, str(UNIT))
    assert copy[-1] == "/etc/systemd/system/atlandice-companion.service"
    assert find(cmds, "systemctl", "enable", "atlandice-companion.service")
    assert cmds.index(find(cmds, "systemctl", "daemon-reload")[0]) \
        < cmds.index(find(cmds, "systemctl", "enable")[0])
    user = find(cmds, "atlandice")[0]
    assert user[0] in ("useradd", "usermod") and "video,gpio" in user


def test_a_pi_5_is_told_about_lgpio(tmp_path: Path) -> None:
    assert "lgpio" in dry_run(tmp_path, "trixie", "Raspberry Pi 5 Model B Rev 1.0").stdout
    assert "Pi 5" not in dry_run(tmp_path, "trixie").stdout


def test_a_dry_run_changes_nothing_and_needs_no_root(tmp_path: Path) -> None:
    result = dry_run(tmp_path, "trixie")
    assert result.returncode == 0
    assert not Path("/opt/atlandice-companion").exists()
    # every command that would change the system is printed, none is run
    assert len(commands(result)) >= 12


@pytest.mark.parametrize("release", ["bullseye", "ubuntu"])
def test_other_systems_are_refused(tmp_path: Path, release: str) -> None:
    result = dry_run(tmp_path, release)
    assert result.returncode == 1
    assert "Bookworm or Trixie" in result.stderr
    assert "+ apt-get" not in result.stdout


def test_a_wrong_option_is_refused() -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--dryrun"], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 2 and "unknown option --dryrun" in result.stderr


def test_the_script_is_strict_bash() -> None:
    text = SCRIPT.read_text()
    assert text.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in text
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0


# ---- the check after install ------------------------------------------------------


def test_the_install_check_catches_wheels_and_the_wrong_numpy() -> None:
    import cv2
    import numpy
    result = subprocess.run([sys.executable, str(CHECK), "--numpy-major", "1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "cannot import picamera2" in result.stderr          # no Pi camera stack off the Pi
    if numpy.__file__.startswith("/usr/") and cv2.__file__.startswith("/usr/"):
        # The Pi's own stack (.ci/run's second venv): Debian's numpy 1.x and OpenCV pass.
        assert "numpy" not in result.stderr and "OpenCV" not in result.stderr
        return
    # Here numpy and OpenCV are wheels in a venv and numpy is 2.x: all wrong on a Pi.
    assert "picamera2 on this release needs numpy 1.x" in result.stderr
    assert "numpy is not the system one" in result.stderr
    assert "OpenCV is not the system one" in result.stderr
