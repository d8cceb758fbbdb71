import uuid

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

from referee.store import sql
from referee.store.base import GameInfo
from referee.store.django_store import DjangoEventStore
from tests.contract.event_store_contract import NOW, EventStoreContract, rec


@pytest.mark.postgres
@pytest.mark.django_db
class TestDjangoEventStore(EventStoreContract):
    def make_store(self) -> DjangoEventStore:
        return DjangoEventStore()


@pytest.mark.postgres
@pytest.mark.django_db
class TestDjangoEventStoreThroughTheOrm(EventStoreContract):
    """The ORM path the store takes off PostgreSQL (SQLite), held to the same contract."""

    @pytest.fixture(autouse=True)
    def _orm_only(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sql, "enabled", lambda: False)

    def make_store(self) -> DjangoEventStore:
        return DjangoEventStore()


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_read_of_a_long_log_leaves_no_kept_cursor_holding_its_rows():
    """The store's statements share a kept cursor per connection, which holds its last
    result until the next statement: a long read's rows are let go at once instead."""
    store = DjangoEventStore()
    game = str(uuid.uuid4())
    store.create_game(GameInfo(game, "pig", "1", {"target": 30}, "ab" * 32))
    records = [rec(n=i) for i in range(sql._KEPT_ROWS + 1)]
    store.append(game, 1, records, NOW)
    store.append(game, len(records) + 1, [rec(n=-1)], NOW)
    kept = connections[DEFAULT_DB_ALIAS].__dict__["_referee_cursors"]
    assert kept[2] is not None and kept[2].pgresult is not None  # a small result stays, with its cursor
    assert len(store.read(game, upto=2)) == 2
    assert kept[3] is not None and kept[3].pgresult is not None
    assert len(store.read(game)) == len(records) + 1
    assert kept[3] is None
