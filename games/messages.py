"""Who acts and who may see: actors, audiences and viewers, and the ``Command`` and
``Event`` base classes that carry them (re-exported by ``games.base``, the module
to import them from)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

# --- who acts and who may see ------------------------------------------------------


class ActorKind(enum.StrEnum):
    PLAYER = "player"
    REFEREE = "referee"
    SCHEDULER = "scheduler"
    MODERATOR = "moderator"


@dataclass(frozen=True)
class Actor:
    kind: ActorKind = ActorKind.REFEREE
    seat: int | None = None

    @classmethod
    def player(cls, seat: int) -> Actor:
        return cls(ActorKind.PLAYER, seat)


REFEREE = Actor(ActorKind.REFEREE)
SCHEDULER = Actor(ActorKind.SCHEDULER)
MODERATOR = Actor(ActorKind.MODERATOR)


class AudienceKind(enum.StrEnum):
    EVERYONE = "everyone"
    #: A set of seats: one player's secret, a team's, an alliance's. (Logs written before
    #: record version 2 name a single seat as "seat"; the store reads that as a set of one.)
    SEATS = "seats"
    MODERATORS = "moderators"


@dataclass(frozen=True)
class Audience:
    """Who an event is for: everyone, a set of seats, or moderators only.

    A set rather than one seat because teams (Wormlord's shared colours), alliances
    (Parties) and LGGWG's team orders are secrets several seats share."""

    kind: AudienceKind = AudienceKind.EVERYONE
    seats: frozenset[int] = frozenset()

    @classmethod
    def only(cls, seat: int) -> Audience:
        return cls(AudienceKind.SEATS, frozenset((seat,)))

    @classmethod
    def group(cls, seats: Iterable[int]) -> Audience:
        return cls(AudienceKind.SEATS, frozenset(seats))

    @property
    def seat(self) -> int | None:
        """The one seat of a one-seat audience (None otherwise)."""
        return next(iter(self.seats)) if len(self.seats) == 1 else None


EVERYONE = Audience(AudienceKind.EVERYONE)
MODERATORS_ONLY = Audience(AudienceKind.MODERATORS)


def narrowest(first: Audience, second: Audience) -> Audience:
    """Who is in both audiences. Moderators see everything, so "moderators only" is the
    set of no seats: one form, so that what a viewer is shown of a record it may not
    read cannot depend on which of the two it was."""
    if first.kind is AudienceKind.EVERYONE:
        return second if second.kind is not AudienceKind.MODERATORS else Audience.group(())
    if second.kind is AudienceKind.EVERYONE:
        return narrowest(second, first)
    if AudienceKind.MODERATORS in (first.kind, second.kind):
        return Audience.group(())
    return Audience.group(first.seats & second.seats)


class ViewerKind(enum.StrEnum):
    PUBLIC = "public"
    SEAT = "seat"
    MODERATOR = "moderator"


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the public, one seat, or a moderator (who sees everything)."""

    kind: ViewerKind = ViewerKind.PUBLIC
    seat: int | None = None

    @classmethod
    def for_seat(cls, seat: int) -> Viewer:
        return cls(ViewerKind.SEAT, seat)

    def may_see(self, audience: Audience) -> bool:
        return self.may_see_parts(str(audience.kind), audience.seats)

    def may_see_parts(self, kind: str, seats: Iterable[int]) -> bool:
        """The one visibility rule, on an audience's stored parts (kind and seats), so
        the referee's record filter and the rulesets' ``view_event`` cannot disagree."""
        if self.kind is ViewerKind.MODERATOR or kind == AudienceKind.EVERYONE:
            return True
        return kind in ("seats", "seat") and self.kind is ViewerKind.SEAT and self.seat in seats


PUBLIC = Viewer(ViewerKind.PUBLIC)
MODERATOR_VIEW = Viewer(ViewerKind.MODERATOR)


# --- commands and events -------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Command:
    """An order. The referee fills ``actor`` from authentication and ``at_ms`` from its clock;
    a client never sets either. Both are recorded, so re-adjudication sees what ``decide`` saw."""

    actor: Actor = REFEREE
    at_ms: int = 0

    #: Who gives this order: "player", or "referee" (a scheduler's phase, a deadline's
    #: auto-turn) or "moderator" (a correction). The pages offer players only their own
    #: orders and the API's schema marks the rest; ``decide`` still refuses them itself.
    given_by: ClassVar[str] = "player"


@dataclass(frozen=True)
class Event:
    """Something that happened. Subclasses override ``audience`` for private events."""

    schema_version: ClassVar[int] = 1

    def audience(self) -> Audience:
        return EVERYONE
