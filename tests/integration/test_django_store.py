import pytest

from referee.store.django_store import DjangoEventStore
from tests.contract.event_store_contract import EventStoreContract


@pytest.mark.postgres
@pytest.mark.django_db
class TestDjangoEventStore(EventStoreContract):
    def make_store(self) -> DjangoEventStore:
        return DjangoEventStore()
