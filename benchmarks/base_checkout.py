"""Another checkout's companion package, imported beside this checkout's (bench_reader_ab.py, compare_reads.py)."""
from __future__ import annotations

import shutil
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from checkout import ROOT


def is_checkout(base: Path) -> bool:
    return (base / "companion" / "vision" / "reader.py").exists()


@contextmanager
def base_package(base: Path):
    """Yields the name under which `base`'s companion package imports ("base_companion"), while this checkout's
    imports as "companion": the base's package is copied under that name, so that both import side by side."""
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(base / "companion", Path(scratch) / "base_companion",
                        ignore=shutil.ignore_patterns("__pycache__"))
        sys.path[:0] = [str(ROOT), scratch]
        yield "base_companion"
