#!/usr/bin/env python3
"""Set up and run the project with nothing but python3: `python3 dev.py demo` or `python3 dev.py test [ARGS]`.

Creates .venv on first use and reinstalls the package whenever pyproject.toml changes, then runs the command.
"""
import hashlib
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"


def ensure_venv() -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not (BIN / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run(pip + ["--editable", f"{ROOT}[dev]"], check=True)
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"demo", "test", "run"}:
        print("usage: python3 dev.py demo [OPTIONS] | test [PYTEST ARGS] | run COMMAND [ARGS]", file=sys.stderr)
        return 2
    ensure_venv()
    task, rest = argv[0], argv[1:]
    if task == "demo":
        command = [str(BIN / "dice-companion"), "demo", *rest]
    elif task == "test":
        command = [str(BIN / "python"), "-m", "pytest", *rest]
    else:
        command = [str(BIN / "dice-companion"), *rest]
    return subprocess.run(command, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
