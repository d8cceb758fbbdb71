"""The referee the Django side uses: the database store, the installed rulesets, the clock.
Its own module so that services, selectors and scheduling all import it one way."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings

from referee import clock, ratings
from referee.core import Referee
from referee.rulesets import get_registry
from referee.store.django_store import DjangoEventStore

# A referee keeps no state of its own (its caches are the process's, in referee.positions
# and referee.store), so one is shared while what it was built from is unchanged: a job
# asks for it several times a game. Keyed on everything it reads, so a test that overrides
# a setting or patches the clock gets a referee built from that.
_LAST: list[tuple[tuple[Any, ...], Referee]] = []


def referee_get() -> Referee:
    key = (django_settings.REFEREE_SNAPSHOT_EVERY, get_registry(), clock.now, ratings.game_ended, DjangoEventStore)
    if _LAST:
        (every, registry, now, ended, store), referee = _LAST[0]
        if (every == key[0] and registry is key[1] and now is key[2] and ended is key[3]
                and store is key[4]):
            return referee
    referee = Referee(
        DjangoEventStore(), key[1], clock.now, snapshot_every=key[0], on_game_end=ratings.game_ended,
    )
    _LAST[:] = [(key, referee)]
    return referee
