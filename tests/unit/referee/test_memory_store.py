from referee.store.memory import InMemoryEventStore
from tests.contract.event_store_contract import EventStoreContract


class TestInMemoryEventStore(EventStoreContract):
    def make_store(self) -> InMemoryEventStore:
        return InMemoryEventStore()
