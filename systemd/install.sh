#!/usr/bin/env bash
# Install Dice Companion as a service on Raspberry Pi OS Bookworm (64-bit), from a checkout of the project:
#
#     sudo systemd/install.sh            # install, or update after `git pull`
#     systemd/install.sh --dry-run       # print the steps that would run, change nothing
#
# Every step checks first, so running it again only updates the package and restarts the service.
# Why the venv is made the way it is: systemd/README.md ("The numpy trap").
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/dice-companion
VENV=$PREFIX/venv
SERVICE_USER=dice-companion
CONFIG=/etc/dice-companion/config.toml
UNIT=/etc/systemd/system/dice-companion.service
BOOT_CONFIG=/boot/firmware/config.txt
# The shared libraries the opencv-python wheel loads from the system (its bundled Qt wants libGL and X11 client
# libraries, which Raspberry Pi OS Lite lacks: "ImportError: libGL.so.1"); tests/appliance/test_systemd.py checks
# the list against the wheel.
OPENCV_LIBRARIES=(libgl1 libglib2.0-0 libsm6 libice6 libxext6 libx11-6 libxcb1)
APT_PACKAGES=(python3-venv python3-picamera2 python3-libcamera python3-lgpio i2c-tools "${OPENCV_LIBRARIES[@]}")

dry_run=0
case "${1:-}" in
    --dry-run) dry_run=1 ;;
    "") ;;
    *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac
if [ "$dry_run" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root: sudo $0" >&2
    exit 1
fi

reboot_needed=0
step() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
# Run a command that changes the system, or only show it with --dry-run.
run() {
    if [ "$dry_run" = 1 ]; then note "would run: $*"; else "$@"; fi
}

step "apt packages: ${APT_PACKAGES[*]}"
missing=()
for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    run apt-get update
    run apt-get install -y --no-install-recommends "${missing[@]}"
else
    note "all installed"
fi

step "I2C for the OLED"
if ! command -v raspi-config >/dev/null; then
    note "raspi-config not found (not Raspberry Pi OS): enable I2C yourself"
elif [ "$(raspi-config nonint get_i2c)" = 0 ]; then
    note "already enabled"
else
    run raspi-config nonint do_i2c 0
    reboot_needed=1
fi

step "camera detection"
if [ ! -f "$BOOT_CONFIG" ]; then
    note "$BOOT_CONFIG not found (not Raspberry Pi OS Bookworm): check the camera yourself"
elif grep -q '^camera_auto_detect=1' "$BOOT_CONFIG"; then
    note "already enabled"
elif grep -q '^camera_auto_detect=' "$BOOT_CONFIG"; then
    run sed -i 's/^camera_auto_detect=.*/camera_auto_detect=1/' "$BOOT_CONFIG"
    reboot_needed=1
else
    if [ "$dry_run" = 1 ]; then note "would append camera_auto_detect=1 to $BOOT_CONFIG"
    else echo "camera_auto_detect=1" >>"$BOOT_CONFIG"; fi
    reboot_needed=1
fi

step "service user $SERVICE_USER in groups gpio, i2c, video"
for group in gpio i2c video; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    note "user exists"
else
    run useradd --system --user-group --home-dir /var/lib/dice-companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups gpio,i2c,video "$SERVICE_USER"

step "virtual environment $VENV (sees apt's picamera2 and libcamera)"
if [ -x "$VENV/bin/python" ]; then
    note "exists"
else
    run mkdir -p "$PREFIX"
    run python3 -m venv --system-site-packages "$VENV"
fi
# The package (pulls numpy 2 for opencv-python 5), then a simplejpeg built for numpy 2 to shadow apt's.
run "$VENV/bin/pip" install --upgrade --disable-pip-version-check "$SRC" -r "$SRC/systemd/requirements-pi.txt"
if ! run "$VENV/bin/python" -c "import numpy, cv2, picamera2, lgpio; print('imports OK, numpy', numpy.__version__)"
then
    echo "install.sh: the venv cannot import numpy, cv2, picamera2 and lgpio together; see \"The numpy trap\" in" \
         "systemd/README.md" >&2
    exit 1
fi

step "configuration $CONFIG"
if [ -f "$CONFIG" ]; then
    note "kept as it is"
else
    run install -d -m 0755 "$(dirname "$CONFIG")"
    if [ "$dry_run" = 1 ]; then note "would write the default configuration to $CONFIG"
    else "$VENV/bin/dice-companion" config --default >"$CONFIG"; fi
fi

step "systemd unit $UNIT"
run install -m 0644 "$SRC/systemd/dice-companion.service" "$UNIT"
run systemctl daemon-reload
run systemctl enable dice-companion.service
if [ "$reboot_needed" = 1 ]; then
    note "not started now: without I2C and the camera it would only fail; it starts after the reboot"
    step "reboot to finish enabling I2C and the camera: sudo reboot"
else
    run systemctl restart dice-companion.service
fi
step "done; check the hardware with: $VENV/bin/dice-companion doctor"
