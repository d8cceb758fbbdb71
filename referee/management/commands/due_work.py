"""manage.py due_work: what is due and overdue, with its lag, and when the sweeper last ran."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from referee import clock
from referee.models import SchedulerHeartbeat
from referee.selectors import due_work_report


class Command(BaseCommand):
    help = "List pending scheduled work (phases, deadlines, reminders) with how late it is."

    def add_arguments(self, parser):
        parser.add_argument("--overdue", action="store_true", help="only what is already due")

    def handle(self, *args, overdue: bool, **options):
        now = clock.now()
        beat = SchedulerHeartbeat.objects.filter(name="sweeper").first()
        self.stdout.write(
            f"sweeper last ran {beat.last_run_at.isoformat()} ({(now - beat.last_run_at).total_seconds():.0f} s ago)"
            if beat else "sweeper has never run"
        )
        rows = [r for r in due_work_report(now=now) if r["overdue"] or not overdue]
        overdue_rows = [r for r in rows if r["overdue"]]
        self.stdout.write(f"{len(rows)} pending, {len(overdue_rows)} overdue"
                          + (f", oldest {overdue_rows[0]['lag_seconds']:.0f} s late" if overdue_rows else ""))
        for r in rows:
            state = f"OVERDUE {r['lag_seconds']:.0f}s" if r["overdue"] else f"due {r['due_at'] or 'when resumed'}"
            self.stdout.write(f"  {r['game']}  {r['key']:<28} {r['kind']:<8} {state}")
