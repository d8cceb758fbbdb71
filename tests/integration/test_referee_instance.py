"""The referee the Django side shares (``referee.instance.referee_get``): one while what it
is built from stands, a new one built from whatever a setting, the rulesets, the clock, the
store or the back-off has become."""

from __future__ import annotations

import datetime as dt

import pytest

from referee import clock, core
from referee.instance import referee_get
from referee.store.django_store import DjangoEventStore
from tests.rulesets.pig import RULESET as PIG


def test_the_referee_is_shared_while_nothing_it_is_built_from_changes():
    assert referee_get() is referee_get()


def test_a_changed_snapshot_setting_builds_a_referee_with_it(settings):
    before = referee_get()
    settings.REFEREE_SNAPSHOT_EVERY = before.snapshot_every + 7
    after = referee_get()
    assert after is not before
    assert after.snapshot_every == before.snapshot_every + 7


def test_changed_rulesets_build_a_referee_that_knows_them(settings):
    before = referee_get()
    settings.REFEREE_EXTRA_RULESETS = ()
    after = referee_get()
    assert after is not before
    assert PIG.name in {name for name, _ in before.registry.names()}
    assert PIG.name not in {name for name, _ in after.registry.names()}


def test_a_patched_clock_is_the_referees_clock(monkeypatch: pytest.MonkeyPatch):
    instant = dt.datetime(2031, 5, 6, 7, 8, tzinfo=dt.UTC)
    referee_get()
    monkeypatch.setattr(clock, "now", lambda: instant)
    assert referee_get().clock() == instant


def test_a_patched_store_is_the_referees_store(monkeypatch: pytest.MonkeyPatch):
    class Store(DjangoEventStore):
        pass

    referee_get()
    monkeypatch.setattr("referee.instance.DjangoEventStore", Store)
    assert type(referee_get().store) is Store


def test_a_patched_back_off_is_the_referees_back_off(monkeypatch: pytest.MonkeyPatch):
    waited: list[int] = []
    referee_get()
    monkeypatch.setattr(core, "jittered_sleep", waited.append)
    referee_get().backoff(3)
    assert waited == [3]


def test_once_the_patch_is_undone_the_referee_is_built_as_before(monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as patch:
        patch.setattr(clock, "now", lambda: dt.datetime(2031, 5, 6, tzinfo=dt.UTC))
        patched = referee_get()
    assert referee_get() is not patched
    assert referee_get().clock is clock.now
