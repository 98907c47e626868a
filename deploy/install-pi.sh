#!/usr/bin/env bash
# Install the Atlandice table companion on 64-bit Raspberry Pi OS
# (Bookworm or Trixie, Pi 4 or Pi 5) and start it at boot.
#
#   sudo deploy/install-pi.sh          install (again) and (re)start the service
#   deploy/install-pi.sh --dry-run     print every command, change nothing
#
# The traps it handles are explained in docs/raspberry-pi.md:
# - picamera2, OpenCV and numpy come from apt, never pip: picamera2 needs the
#   system libcamera, and on Bookworm it breaks with numpy 2, which recent
#   OpenCV wheels pull in. The venv sees them through --system-site-packages
#   and pip installs only the pure-Python dependencies.
# - gpiozero 2.0.1.post3 or later with lgpio (the Pi 5 needs lgpio).
#
# Environment overrides (for the tests and for odd systems):
#   OS_RELEASE (/etc/os-release)  MODEL_FILE (/proc/device-tree/model)
#   PYTHON (python3)  ARCH (dpkg --print-architecture)
set -euo pipefail

usage() {
    sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

DRY_RUN=0
while [ $# -gt 0 ]; do
    case "$1" in
        -n|--dry-run) DRY_RUN=1 ;;
        -h|--help) usage; exit 0 ;;
        *) printf 'install-pi: unknown option %s\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

OS_RELEASE=${OS_RELEASE:-/etc/os-release}
MODEL_FILE=${MODEL_FILE:-/proc/device-tree/model}
PYTHON=${PYTHON:-python3}
SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

APP_USER=atlandice
PREFIX=/opt/atlandice-companion
VENV=$PREFIX/venv
CONFIG_DIR=/etc/atlandice-companion
STATE_DIR=/var/lib/atlandice-companion
UNIT=atlandice-companion.service
UNIT_DIR=/etc/systemd/system
PORT=8000

# Everything that changes the system goes through run: --dry-run prints it
# instead (one line per command, shell-quoted, after "+ ").
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}
say() { printf '==> %s\n' "$*"; }
warn() { printf 'install-pi: warning: %s\n' "$*" >&2; }
die() { printf 'install-pi: error: %s\n' "$*" >&2; exit 1; }

os_field() {
    sed -n "s/^$1=//p" "$OS_RELEASE" | head -n 1 | tr -d "\"'"
}

# ---- which system ---------------------------------------------------------

[ -r "$OS_RELEASE" ] || die "cannot read $OS_RELEASE"
OS_ID=$(os_field ID)
CODENAME=$(os_field VERSION_CODENAME)
case "$CODENAME" in
    bookworm) NUMPY_MAJOR=1 ;;  # Debian 12: numpy 1.24, picamera2 built for numpy 1
    trixie) NUMPY_MAJOR=2 ;;    # Debian 13: numpy 2.x, picamera2 built for numpy 2
    *) die "this is ${OS_ID:-an unknown system} ${CODENAME:-(no codename)}: the install supports Raspberry Pi OS Bookworm or Trixie (64-bit)" ;;
esac
case "$OS_ID" in
    debian|raspbian) ;;
    *) warn "$OS_ID is not Raspberry Pi OS: python3-picamera2 may not be in its archive" ;;
esac

ARCH=${ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
if [ "$ARCH" != arm64 ] && [ "$ARCH" != aarch64 ]; then
    if [ "$DRY_RUN" = 1 ]; then
        warn "architecture $ARCH: a real install needs 64-bit Raspberry Pi OS (arm64)"
    else
        die "architecture $ARCH: install the 64-bit (arm64) Raspberry Pi OS"
    fi
fi

MODEL=
if [ -r "$MODEL_FILE" ]; then
    MODEL=$(tr -d '\0' < "$MODEL_FILE")
fi
MODEL=${MODEL:-an unknown board}

if [ "$DRY_RUN" != 1 ] && [ "$(id -u)" != 0 ]; then
    die "run it as root: sudo $0"
fi

say "Raspberry Pi OS $CODENAME (numpy $NUMPY_MAJOR.x from apt) on $MODEL"
case "$MODEL" in
    *"Raspberry Pi 5"*) say "Pi 5: GPIO through lgpio (GPIOZERO_PIN_FACTORY=lgpio in the service)" ;;
esac

# ---- system packages --------------------------------------------------------

# python3-picamera2 brings python3-libcamera; --no-install-recommends keeps the
# desktop preview stack (Qt, OpenGL) off a Lite image.
APT_PACKAGES=(
    python3-venv python3-pip
    python3-picamera2 python3-opencv python3-numpy
    python3-lgpio
)
say "system packages: ${APT_PACKAGES[*]}"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

# ---- the service user ---------------------------------------------------------

if id -u "$APP_USER" >/dev/null 2>&1; then
    run usermod --append --groups video,gpio "$APP_USER"
else
    run useradd --system --user-group --groups video,gpio \
        --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$APP_USER"
fi

# ---- the virtual environment ------------------------------------------------------

# The pip dependencies: the project's own list less what apt provides (its
# numpy/OpenCV would be replaced by wheels, numpy 2 on Bookworm included);
# deploy/pip_deps.py says them, for this installer and for .ci/run alike.
mapfile -t PIP_DEPS < <("$PYTHON" "$SRC_DIR/deploy/pip_deps.py" "$SRC_DIR/pyproject.toml")

say "virtual environment in $VENV (with the system's picamera2, OpenCV, numpy, lgpio)"
run install -d -m 0755 "$PREFIX"
# --clear: start clean, so no numpy or OpenCV wheel from an earlier attempt
# shadows the apt ones.
run "$PYTHON" -m venv --clear --system-site-packages "$VENV"
run "$VENV/bin/pip" install --no-input "${PIP_DEPS[@]}"
# --no-deps: the project's own requirements include numpy and OpenCV wheels.
run "$VENV/bin/pip" install --no-input --no-deps "$SRC_DIR"
# One consistent set: numpy and OpenCV must be the system's, numpy of the
# major version this release's picamera2 was built for.
run "$VENV/bin/python" "$SRC_DIR/deploy/check_install.py" --numpy-major "$NUMPY_MAJOR"

# ---- configuration and service ------------------------------------------------------

run install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
    if [ -r "$SRC_DIR/companion/default_config.toml" ]; then
        run install -m 0644 "$SRC_DIR/companion/default_config.toml" "$CONFIG_DIR/config.toml"
    else
        run touch "$CONFIG_DIR/config.toml"
    fi
fi
run install -m 0644 "$SRC_DIR/deploy/$UNIT" "$UNIT_DIR/$UNIT"
run systemctl daemon-reload
run systemctl enable "$UNIT"
run systemctl restart "$UNIT"

ADDRESS=$(hostname -I 2>/dev/null | awk '{print $1}' || true)
ADDRESS=${ADDRESS:-ADDRESS-OF-THE-PI}
say "done: open http://$ADDRESS:$PORT/ on the tablet (the page shows its address and a QR code)"
say "logs: journalctl -u $UNIT -f    settings: $CONFIG_DIR/config.toml"
