"""The systemd unit (checked by systemd-analyze), the install script, and the Pi venv's dependency plan."""
import configparser
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dice-companion.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXEC_START = "/opt/dice-companion/venv/bin/dice-companion run --config /etc/dice-companion/config.toml"


def unit_sections():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string(UNIT.read_text())
    return parser


def test_unit_is_a_notify_service_with_a_watchdog_restart_limits_and_its_own_user():
    unit = unit_sections()
    service = unit["Service"]
    assert service["ExecStart"] == EXEC_START
    assert (service["Type"], service["NotifyAccess"], service["Restart"]) == ("notify", "main", "on-failure")
    assert int(service["WatchdogSec"]) >= 10 and service["KillSignal"] == "SIGTERM"
    assert "StartLimitIntervalSec" in unit["Unit"] and "StartLimitBurst" in unit["Unit"]   # in [Unit], not [Service]
    assert service["User"] == "dice-companion" and set(service["SupplementaryGroups"].split()) == {"gpio", "i2c",
                                                                                                  "video"}
    assert service["StateDirectory"] == service["ConfigurationDirectory"] == "dice-companion"


def test_unit_hardening_leaves_the_devices_reachable():
    service = unit_sections()["Service"]
    for closing in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"):
        assert closing not in service, f"{closing} would hide /dev/gpiochip*, /dev/i2c-* or the camera"
    assert service["ProtectSystem"] == "strict" and service["NoNewPrivileges"] == "yes"
    assert service["WorkingDirectory"] == "/var/lib/dice-companion"   # writable: lgpio puts its pipes there


def test_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    # verify insists that ExecStart's program exists: check a copy that starts this environment's console script.
    script = Path(sys.executable).with_name("dice-companion")
    if not script.exists():
        pytest.skip(f"the console script {script} is not installed")
    copy = tmp_path / "dice-companion.service"
    text = UNIT.read_text()
    assert EXEC_START in text
    copy.write_text(text.replace("/opt/dice-companion/venv/bin/dice-companion", str(script)))
    result = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert str(copy) not in result.stderr and "Unknown" not in result.stderr, result.stderr


# ------------------------------------------------------------------------------------------------ install.sh

def test_install_script_parses():
    subprocess.run(["bash", "-n", str(INSTALL)], check=True)


def test_install_script_passes_shellcheck():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed here")
    result = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def dry_run():
    result = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_install_dry_run_shows_every_step_and_changes_nothing():
    out = dry_run()
    steps = re.findall(r"^==> (.*)$", out, re.M)
    assert [s.split()[0] for s in steps] == ["apt", "I2C", "camera", "service", "virtual", "configuration",
                                            "systemd"] + (["reboot"] if "reboot" in out else []) + ["done;"]
    assert re.search(r"would run: python3 -m venv --system-site-packages /opt/dice-companion/venv$|^    exists$",
                     out, re.M)
    assert f"would run: /opt/dice-companion/venv/bin/pip install --upgrade --disable-pip-version-check {ROOT} " \
           f"-r {ROOT}/systemd/requirements-pi.txt" in out
    assert "would run: systemctl enable dice-companion.service" in out
    assert dry_run() == out     # the same plan twice: checks only, nothing was done


def test_install_refuses_an_unknown_option():
    result = subprocess.run(["bash", str(INSTALL), "--force"], capture_output=True, text=True)
    assert result.returncode == 2 and "usage:" in result.stderr


def test_pi_venv_resolves_to_aarch64_wheels_with_numpy_2_and_a_numpy_2_simplejpeg(tmp_path):
    """The plan of systemd/README.md: the package's dependencies plus requirements-pi.txt, as binary wheels for
    Raspberry Pi OS Bookworm (aarch64, CPython 3.11, glibc 2.36), from the package index."""
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    report = tmp_path / "report.json"
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", str(report),
               "--ignore-installed", "--only-binary=:all:", "--platform", "manylinux_2_28_aarch64",
               "--platform", "manylinux2014_aarch64", "--python-version", "3.11", "--implementation", "cp",
               "--target", str(tmp_path / "target"), "--retries", "1", "--timeout", "20",
               *dependencies, "-r", str(ROOT / "systemd" / "requirements-pi.txt")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if result.returncode != 0 and re.search(r"Could not fetch|NewConnectionError|Network is unreachable|"
                                            r"Temporary failure in name resolution|ConnectTimeout", result.stderr):
        pytest.skip("the package index is not reachable")
    assert result.returncode == 0, result.stderr[-2000:]
    chosen = {item["metadata"]["name"].lower(): item["metadata"]["version"]
              for item in json.loads(report.read_text())["install"]}
    assert int(chosen["numpy"].split(".")[0]) >= 2
    assert tuple(map(int, chosen["simplejpeg"].split(".")[:3])) >= (1, 8, 1)
    assert {"opencv-python", "gpiozero", "luma.oled", "pillow"} <= set(chosen)


def test_hardware_imports_stay_lazy():
    """Importing every appliance module must not pull in the Pi-only or hardware libraries."""
    code = ("import sys, companion.cli, companion.config, companion.doctor, companion.service, "
            "companion.ui.buttons, companion.ui.display, companion.ui.keyboard, companion.vision.sources; "
            "companion.cli.build_parser(); "
            "print(sorted(m for m in ('picamera2', 'libcamera', 'lgpio', 'luma.oled', 'smbus2', 'luma.emulator',"
            " 'pygame') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_install_script_brings_the_system_libraries_the_opencv_wheel_loads():
    """The opencv-python wheel bundles most of its libraries but loads a few from the system (its Qt wants libGL);
    Raspberry Pi OS Lite lacks them. Every library the wheel's binaries name and do not bundle must come from a
    Debian package install.sh installs, or from the few every Debian system has."""
    if shutil.which("readelf") is None or shutil.which("dpkg") is None:
        pytest.skip("readelf and dpkg are needed to read the wheel's libraries and find their Debian packages")
    import cv2
    wheel = Path(cv2.__file__).parent
    binaries = [p for folder in (wheel, wheel.with_name("opencv_python.libs"))
                for p in folder.rglob("*.so*") if p.is_file()]
    needed = set()
    for binary in binaries:
        dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True).stdout
        needed |= set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic))
    from_system = needed - {binary.name for binary in binaries}
    packages = set()
    for library in from_system:
        owner = subprocess.run(["dpkg", "-S", f"*/{library}"], capture_output=True, text=True)
        if owner.returncode != 0:
            pytest.skip(f"{library} is not from a Debian package here")
        packages.add(owner.stdout.split(":")[0])
    always_there = {"libc6", "libstdc++6", "libgcc-s1", "zlib1g"}
    listed = set(re.search(r"^OPENCV_LIBRARIES=\((.*)\)$", INSTALL.read_text(), re.M).group(1).split())
    assert packages - always_there <= listed, f"add {sorted(packages - always_there - listed)} to OPENCV_LIBRARIES"
