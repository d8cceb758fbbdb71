import pytest

from referee.store import sql
from referee.store.django_store import DjangoEventStore
from tests.contract.event_store_contract import EventStoreContract


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
