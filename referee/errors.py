"""The referee's own errors. Each has a stable ``code`` and a plain sentence; the API maps
them onto one JSON error shape. Rule violations come from ``games.base.RuleViolation``."""

from __future__ import annotations


class RefereeError(Exception):
    code = "referee_error"
    status = 400

    def __init__(self, message: str, **detail: object) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail


class GameNotFound(RefereeError):
    code = "game_not_found"
    status = 404


class GameFrozen(RefereeError):
    code = "game_frozen"
    status = 409


class GameNotActive(RefereeError):
    code = "game_not_active"
    status = 409


class ConcurrencyError(RefereeError):
    """Another writer appended first: the expected sequence number is taken."""

    code = "log_advanced"
    status = 409


class IdempotencyConflict(RefereeError):
    code = "idempotency_key_reused"
    status = 422


class SeatError(RefereeError):
    code = "seat_error"
    status = 400


class InvalidSetting(RefereeError):
    code = "invalid_setting"
    status = 400


class LogCorrupt(RefereeError):
    """The log holds a record the ruleset cannot read: changed outside the referee."""

    code = "log_corrupt"
    status = 409
