"""The files of a training run: written whole, CSV rows appended, and where the sources and
the starting weights came from (shared by self-play runs and imitation runs)."""

from __future__ import annotations

import csv
import hashlib
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def start_file(path: str) -> dict[str, str]:
    """The weights a run started from (``--init``): its path and, while it can be read, its
    SHA-256, so that the start of a reproduction can be checked."""
    try:
        return {"path": path, "sha256": sha256(Path(path).read_bytes())}
    except OSError:
        return {"path": path, "sha256": "unknown (the file is gone)"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def source_commit() -> str:
    """The git commit of the sources, if they are a git checkout (else "unknown")."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = done.stdout.strip()
    if done.returncode or not commit:
        return "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                           capture_output=True, text=True, timeout=10, check=False).stdout
    return commit + ("+changes" if dirty.strip() else "")


def write_whole(path: Path, data: bytes) -> None:
    """Replace ``path`` whole: a run stopped mid-write leaves the previous file."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def append_csv(path: Path, columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> None:
    new = not path.exists()
    with path.open("a", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(columns))
        if new:
            writer.writeheader()
        writer.writerows(rows)
