"""Event stores: one contract (``base.EventStore``), two implementations (memory, Django)."""
