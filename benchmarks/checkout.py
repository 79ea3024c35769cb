"""Imported by every benchmark before the companion package: puts this checkout first on the import path. The
virtual environment's editable install points at the checkout it was made in, so without this a benchmark run in
another checkout (`git worktree add /tmp/base <commit>`, sharing the virtual environment) measured the reader of
the checkout the environment was made in."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path[0] != str(ROOT):
    sys.path.insert(0, str(ROOT))
