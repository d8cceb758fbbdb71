"""Due work: derived from each position, stored in the database, claimed with SKIP LOCKED.

After every append the game's pending ``DueWork`` rows are brought in line with what the
ruleset's ``scheduled_work`` says (in the same transaction). The broker only carries a
fast-path nudge for work due now; the beat sweeper finds everything that is due, so a lost,
duplicated or late message changes nothing. A job runs under the game's row lock and its
key is the idempotency key of whatever it appends: each phase happens exactly once.

The names callers know, gathered from the modules that do each part: keeping the rows true
to the position and nudging workers (``referee.due_sync``), running a game's rows under its
lock (``referee.due_jobs``), the sweeper and its outage check (``referee.sweeper``).
"""

from __future__ import annotations

from referee.due_jobs import _locked_game_and_row, due_work_run, game_info
from referee.due_sync import (
    RUN_DUE_WORK,
    Away,
    due_work_sync,
    enqueue_due_now,
    pending_known,
    reminder_before,
    timer_horizon,
    timers_nudge,
)
from referee.sweeper import SWEEPER, notice_append, outage_threshold, overdue, sweep, sweep_batch

__all__ = [
    "RUN_DUE_WORK", "SWEEPER", "Away", "_locked_game_and_row", "due_work_run", "due_work_sync", "enqueue_due_now",
    "game_info", "notice_append", "outage_threshold", "overdue", "pending_known", "reminder_before", "sweep",
    "sweep_batch", "timer_horizon", "timers_nudge",
]
