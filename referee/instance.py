"""The referee the Django side uses: the database store, the installed rulesets, the clock.
Its own module so that services, selectors and scheduling all import it one way."""

from __future__ import annotations

from django.conf import settings as django_settings

from referee import clock, ratings
from referee.core import Referee
from referee.rulesets import get_registry
from referee.store.django_store import DjangoEventStore


def referee_get() -> Referee:
    return Referee(
        DjangoEventStore(), get_registry(), clock.now, snapshot_every=django_settings.REFEREE_SNAPSHOT_EVERY,
        on_game_end=ratings.game_ended,
    )
