"""A separate OS process that writes to a game, for the concurrency tests.

    python -m tests.integration.race_worker hold GAME SEQ RELEASE_FILE
        appends one record at SEQ inside a transaction, prints "appended", and commits only
        when RELEASE_FILE exists (so another process can race it meanwhile)
    python -m tests.integration.race_worker notes GAME USER_ID COUNT START_AT
        waits until START_AT (unix time), then places COUNT WriteNote orders as USER_ID

Prints one JSON line with what it did, including how many appends lost a race.
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402

from referee import services  # noqa: E402
from referee.core import utc_now  # noqa: E402
from referee.errors import ConcurrencyError  # noqa: E402
from referee.store.base import NewRecord, RecordKind  # noqa: E402
from referee.store.django_store import DjangoEventStore  # noqa: E402

lost = 0


def _counting(write):
    def counted(self, *args, **kwargs):
        global lost
        try:
            return write(self, *args, **kwargs)
        except ConcurrencyError:
            lost += 1
            raise
    return counted


# An order's records are written as they are decided (append) or held and written at the
# end of its unit (_settle): a lost race shows in either.
DjangoEventStore.append = _counting(DjangoEventStore.append)
DjangoEventStore._settle = _counting(DjangoEventStore._settle)


def hold(game: str, seq: int, release: str) -> None:
    with transaction.atomic():
        DjangoEventStore().append(
            game, seq, [NewRecord(kind=RecordKind.NOTICE, type="Holder", payload={"pid": os.getpid()})], utc_now()
        )
        print("appended", flush=True)
        while not os.path.exists(release):
            time.sleep(0.02)
    print(json.dumps({"seq": seq}), flush=True)


def notes(game: str, user_id: int, count: int, start_at: float) -> None:
    user = get_user_model().objects.get(pk=user_id)
    time.sleep(max(0.0, start_at - time.time()))
    seqs = []
    for i in range(count):
        outcome = services.command_handle(
            game_id=game, user=user, command_type="WriteNote", payload={"text": f"{os.getpid()}-{i}"}
        )
        seqs.append(outcome.records[0].seq)
    print(json.dumps({"seqs": seqs, "lost": lost}), flush=True)


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    if mode == "hold":
        hold(args[0], int(args[1]), args[2])
    else:
        notes(args[0], int(args[1]), int(args[2]), float(args[3]))
