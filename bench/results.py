"""Figures shared between the bench scripts of one ``make bench`` run: each script records
its ratios (one value per round) in a JSON file, and ``bench/summary.py`` prints the
issue-16 table from it. The file is ``$BENCH_RESULTS`` (default: results.json in the
run's throw-away directory, or the temp directory)."""

from __future__ import annotations

import json
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any


def path() -> Path:
    default = Path(os.environ.get("REFEREE_VAR_DIR") or tempfile.gettempdir()) / "bench-results.json"
    return Path(os.environ.get("BENCH_RESULTS", str(default)))


def load() -> dict[str, Any]:
    try:
        return json.loads(path().read_text())
    except (OSError, ValueError):
        return {}


def record(name: str, values: list[float] | float, **extra: Any) -> None:
    data = load()
    data[name] = {"values": values if isinstance(values, list) else [values], **extra}
    path().parent.mkdir(parents=True, exist_ok=True)
    path().write_text(json.dumps(data, indent=1))


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    """min / median / max of the rounds (one value when there was one round)."""
    if not values:
        return "-"
    if len(values) == 1:
        return fmt.format(values[0])
    return " / ".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))
