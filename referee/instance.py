"""The referee the Django side uses: the database store, the installed rulesets, the clock.
Its own module so that services, selectors and scheduling all import it one way."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings

from referee import clock, core, ratings
from referee.core import Referee
from referee.rulesets import get_registry
from referee.store.django_store import DjangoEventStore

# A referee's caches are the process's (referee.positions, referee.reading, referee.store)
# and a Django store has no state of its own, so one referee is shared while what it is
# built from is unchanged: a job asks for it several times a game. Keyed on everything its
# construction reads, so a test that overrides a setting or the rulesets, or patches the
# clock, the store or the back-off, gets a referee built from that.
_SHARED: list[tuple[tuple[Any, ...], Referee]] = []


def _built_from() -> tuple[Any, ...]:
    return (django_settings.REFEREE_SNAPSHOT_EVERY, get_registry(), clock.now, ratings.game_ended,
            DjangoEventStore, core.jittered_sleep)


def referee_get() -> Referee:
    key = _built_from()
    if _SHARED and _SHARED[0][0] == key:  # a tuple's == tries identity first: one C loop
        return _SHARED[0][1]
    every, registry, now, ended, store, backoff = key
    referee = Referee(store(), registry, now, snapshot_every=every, on_game_end=ended, backoff=backoff)
    _SHARED[:] = [(key, referee)]
    return referee
