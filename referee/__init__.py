"""The referee's core: the event store, the referee service, replay, jobs. It imports
nothing above it (the project's wiring lives in ``config``)."""
