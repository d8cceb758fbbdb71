"""manage.py verify_log [GAME ...]: check hash chains, contiguity and re-adjudication.

Prints a report and exits non-zero at the first broken game, naming game and seq. A broken
game is frozen (orders refused) until a moderator resolves it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from referee import services
from referee.errors import GameNotFound
from referee.models import Game


class Command(BaseCommand):
    help = "Verify game logs: hash chain, contiguous sequence, re-adjudication, snapshots."

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", help="game ids (default: every game)")
        parser.add_argument("--no-freeze", action="store_true", help="report only; do not freeze broken games")

    def handle(self, *args, games: list[str], no_freeze: bool, **options):
        ids = games or [str(g) for g in Game.objects.order_by("created_at").values_list("id", flat=True)]
        for game_id in ids:
            try:
                report = services.game_verify(game_id=game_id, freeze=not no_freeze)
            except GameNotFound:
                raise CommandError(f"game {game_id}: no such game") from None
            log_problems = [p for p in report.problems if p.check != "snapshot"]
            for p in report.problems:
                if p.check == "snapshot":
                    self.stdout.write(f"game {game_id}: dropped snapshot at seq {p.seq}: {p.message}")
            if log_problems:
                first = min(log_problems, key=lambda p: p.seq)
                for p in log_problems:
                    self.stdout.write(f"game {game_id}: {p}")
                raise CommandError(f"game {game_id} is broken at seq {first.seq} ({first.check}): {first.message}")
            self.stdout.write(
                f"game {game_id}: ok ({report.records} records, {report.commands} orders re-decided)"
            )
