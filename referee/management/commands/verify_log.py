"""manage.py verify_log [GAME ...]: check hash chains, contiguity, seeded dice and re-adjudication.

Checks every game named (default: every game), prints a report for each, and exits non-zero
if any is broken, naming every broken game with its first bad seq. A broken game is frozen
(orders refused) until a moderator resolves it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from referee import services
from referee.errors import GameNotFound
from referee.models import Game


class Command(BaseCommand):
    help = "Verify game logs: hash chain, contiguous sequence, seeded dice, re-adjudication, snapshots."

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", help="game ids (default: every game)")
        parser.add_argument("--no-freeze", action="store_true", help="report only; do not freeze broken games")

    def handle(self, *args, games: list[str], no_freeze: bool, **options):
        ids = games or [str(g) for g in Game.objects.order_by("created_at").values_list("id", flat=True)]
        broken = [line for game_id in ids if (line := self._check(game_id, freeze=not no_freeze))]
        if broken:
            # One game's broken log must not hide another's: all are checked, all are named.
            summary = f"{len(broken)} of {len(ids)} games broken"
            raise CommandError("\n".join([*broken, summary]) if len(broken) > 1 else f"{broken[0]} ({summary})")

    def _check(self, game_id: str, *, freeze: bool) -> str | None:
        """Report one game; the line naming it if it is broken, else None."""
        try:
            report = services.game_verify(game_id=game_id, freeze=freeze)
        except GameNotFound:
            self.stdout.write(f"game {game_id}: no such game")
            return f"game {game_id}: no such game"
        log_problems = [p for p in report.problems if p.check != "snapshot"]
        for p in report.problems:
            if p.check == "snapshot":
                self.stdout.write(f"game {game_id}: dropped snapshot at seq {p.seq}: {p.message}")
        if not log_problems:
            self.stdout.write(f"game {game_id}: ok ({report.records} records, {report.commands} orders re-decided)")
            return None
        for p in log_problems:
            self.stdout.write(f"game {game_id}: {p}")
        first = min(log_problems, key=lambda p: p.seq)
        return f"game {game_id} is broken at seq {first.seq} ({first.check}): {first.message}"
