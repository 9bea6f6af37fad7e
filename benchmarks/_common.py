"""Shared plumbing of the benchmark scripts: timing, provenance, JSON output."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from augnb._io import write_text_atomic

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def best_of(fn, repeats):
    """(best, median) wall time of ``repeats`` calls of ``fn``."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), float(np.median(times))


def commit_hash():
    """HEAD's commit read from .git (no git process), or None."""
    git = ROOT / ".git"
    try:
        if git.is_file():  # a worktree: ".git" names its git directory
            text = git.read_text().strip()
            if text.startswith("gitdir: "):
                wt = Path(text[8:])
                head = (wt / "HEAD").read_text().strip()
                if not head.startswith("ref: "):
                    return head
                common = wt / (wt / "commondir").read_text().strip()
                git = common.resolve()
                ref_path = git / head[5:]
                if ref_path.exists():
                    return ref_path.read_text().strip()
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head
        ref = head[5:]
        path = git / ref
        if path.exists():
            return path.read_text().strip()
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    except OSError:
        pass
    return None


def machine_info():
    """Platform, CPU, cores, load and library versions of this run."""
    import numba

    import augnb

    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "processor": cpu or platform.processor(),
        "cpus": os.cpu_count(),
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "numba": numba.__version__,
        "augnb": augnb.__version__,
        "commit": commit_hash(),
    }


def write_json(obj, name):
    """Write ``obj`` to ``benchmarks/results/<name>`` (or a path) atomically."""
    path = Path(name) if os.sep in str(name) else RESULTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(obj, indent=2) + "\n")
    return path
