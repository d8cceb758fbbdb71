"""``python -m games.record verify FILE``: check a game's record offline.

The command line is the one place of ``games.record`` that reads a file and prints: the
checks themselves (``games.record.verify``) take bytes and return a report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from games.base import Registry
from games.record.verify import RecordFileError, load, verify_record


def main(argv: Sequence[str], registry: Registry | None = None) -> int:
    """The command line: 0 when the record checks, 1 at a disagreement, 2 when the file
    cannot be checked at all (not a record, or one viewer's)."""
    parser = argparse.ArgumentParser(prog="python -m games.record", description="Check a game's record offline.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("verify", help="re-hash the chain, recompute the dice, re-decide every order")
    check.add_argument("file")
    args = parser.parse_args(argv)
    try:
        report = verify_record(load(Path(args.file).read_bytes()), registry)
    except (OSError, RecordFileError) as exc:
        print(f"cannot check {args.file}: {exc}")
        return 2
    for note in report.notes:
        print(note)
    if report.problem is not None:
        print(f"FAILED at {report.problem}")
        return 1
    print(f"ok: {report.records} records, {report.orders} orders re-decided, {report.draws} draws recomputed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
