"""Replay a game record (.tak) offline and verify it: no database, an in-memory store and
``referee.core.Referee`` over the installed rulesets; prints each turn's resolution in words
and the result. A public record (a game in play) is told but cannot be verified.

    manage.py replay_record game.tak            # exit 0: verified; 1: a problem (named by seq)
    manage.py replay_record game.tak --quiet    # the verdict only
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game_pages.lggwg import account, record
from games.base import RuleViolation
from games.registry import default_registry


class Command(BaseCommand):
    help = "Replay an LGGWG game record (.tak) offline and verify its hash chain, dice and rulings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .tak file ('-' reads standard input)")
        parser.add_argument("--quiet", action="store_true", help="print the verdict only")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
            game = record.loads(text)
        except (OSError, UnicodeDecodeError, record.RecordFileError) as exc:
            raise CommandError(f"{name}: {exc}") from None
        head = game.game
        self.stdout.write(f"{head.get('name', '')} ({head.get('ruleset')} {head.get('ruleset_version')}, "
                          f"game {head.get('id')}): {len(game.records)} records, "
                          f"{'complete' if game.complete else 'public log only'}.")
        if not game.complete:
            if not options["quiet"]:
                for line in account.turns_in_words(game.records, account.names_of(game)):
                    self.stdout.write(line)
            raise CommandError("Not verified: a public record (a game in play) holds no hashes and no seed. "
                               "Download the record again once the game is over.", returncode=2)
        try:
            replay = record.replay(game, default_registry())
        except (record.RecordFileError, RuleViolation) as exc:
            raise CommandError(f"{name}: {exc}") from None
        if not options["quiet"]:
            for line in account.account(game, replay) if replay.ok else []:
                self.stdout.write(line)
        if not replay.ok:
            for problem in replay.problems:
                self.stderr.write(problem)
            raise CommandError(f"NOT VERIFIED: {replay.problems[0]}")
        self.stdout.write(self.style.SUCCESS(
            f"Verified: {replay.report.records} records; hash chain intact; every die from the seed; "
            f"{replay.report.commands} orders re-adjudicated to the same events."))
