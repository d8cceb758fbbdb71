"""The ruleset contract: what every rules engine under ``games/`` offers the referee.

A ruleset is pure: no Django, no I/O, no clock, no global randomness. The referee passes
time in (``Command.at_ms``) and every random draw goes through the ``Dice`` it is given.

    decide(state, command, dice) -> tuple[Event, ...]   # all validation; may raise RuleViolation
    evolve(state, event) -> state                       # never checks, raises or rolls

State at any point is ``fold(evolve, events, initial_state())``; replay never rolls.

Four ways of taking turns are served by the same contract (``TurnMode``):

* SEQUENTIAL: one seat acts at a time with interactive steps (Worms).
* SIMULTANEOUS: every seat submits hidden orders; they resolve together when all are in
  or at the deadline (LGGWG).
* REALTIME: actions apply in arrival order against a round timer (Wormlord).
* TICK: at each tick every bot moves (Parties).

What the referee must do without a player's order is described by ``scheduled_work``:
work due now (a turn-start phase), at a moment (a round timer, a tick), or when the
turn's deadline passes (the referee then asks ``deadline_command`` what to do).
"""

from __future__ import annotations

import enum
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Literal

from games.dice import Dice
from games.messages import (
    EVERYONE,
    MODERATOR,
    MODERATOR_VIEW,
    MODERATORS_ONLY,
    PUBLIC,
    REFEREE,
    SCHEDULER,
    Actor,
    ActorKind,
    Audience,
    AudienceKind,
    Command,
    Event,
    Viewer,
    ViewerKind,
    narrowest,
)
from games.serialization import from_data, reader, to_data
from games.work import Work, WorkKey, work_key_text

__all__ = [
    # who acts and who may see (games.messages)
    "EVERYONE", "MODERATOR", "MODERATOR_VIEW", "MODERATORS_ONLY", "PUBLIC", "REFEREE", "SCHEDULER", "Actor",
    "ActorKind", "Audience", "AudienceKind", "Command", "Event", "Viewer", "ViewerKind", "narrowest",
    # work the referee does without being asked (games.work)
    "Work", "WorkKey", "work_key_text",
    # the contract
    "Registry", "Result", "RuleViolation", "Ruleset", "SeatInfo", "TurnLimits", "TurnMode", "version_order",
]


class RuleViolation(Exception):
    """An order the rulebook forbids. ``rule`` names the clause (e.g. ``"§7"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}


class TurnMode(enum.StrEnum):
    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"
    REALTIME = "realtime"
    TICK = "tick"



@dataclass(frozen=True)
class TurnLimits:
    """How long a seat may take over its turn, per ruleset: Worms says 24 to 48 hours (§7);
    a real-time round is minutes; a bot tournament's tick is seconds. Games choose a value
    within the bounds; the referee enforces them in one place and shows them in ``unit``.
    All figures are seconds."""

    minimum: int
    maximum: int
    default: int
    unit: Literal["seconds", "minutes", "hours"] = "hours"
    rule: str = ""  # the clause that sets the bounds, if the rulebook does

    def check(self, seconds: int) -> None:
        if not self.minimum <= seconds <= self.maximum:
            div = {"seconds": 1, "minutes": 60, "hours": 3600}[self.unit]
            raise RuleViolation(
                self.rule or "settings",
                f"The turn limit must be between {self.minimum / div:g} and {self.maximum / div:g} "
                f"{self.unit}.",
            )


@dataclass(frozen=True)
class Result:
    """How a game stands or ended, for the lobby, leagues, pages and exports.

    ``ranking`` lists places best first; seats that tie share a place. ``scores`` are the
    ruleset's own points where it keeps any."""

    finished: bool
    winners: tuple[int, ...] = ()
    ranking: tuple[tuple[int, ...], ...] = ()
    scores: tuple[tuple[int, float], ...] = ()
    draw: bool = False
    summary: str = ""

    def score_of(self, seat: int) -> float | None:
        return dict(self.scores).get(seat)


@dataclass(frozen=True)
class SeatInfo:
    number: int
    name: str


# --- the contract ----------------------------------------------------------------------


class Ruleset(ABC):
    """One version of one game's rules. Instances are stateless."""

    name: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str] = ""
    mode: ClassVar[TurnMode]
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    command_types: ClassVar[tuple[type[Command], ...]]
    event_types: ClassVar[tuple[type[Event], ...]]
    state_type: ClassVar[type]
    settings_type: ClassVar[type]
    #: Whether a refused player order leaves a record (private to that seat) in the log.
    records_rejections: ClassVar[bool] = False
    #: What the referee does when a deadline passes, unless the game's settings say otherwise.
    deadline_policies: ClassVar[tuple[str, ...]] = ("skip",)
    #: The order that carries a whole turn as a list, and the name of that list's field
    #: (Worms: a forum post of steps is ``SubmitTurn.steps``), for clients that send a turn
    #: at once; None if the ruleset has no such order.
    whole_turn: ClassVar[tuple[str, str] | None] = None
    #: Bounds of a game's turn limit (see ``TurnLimits``).
    turn_limits: ClassVar[TurnLimits] = TurnLimits(minimum=3600, maximum=1000 * 3600, default=24 * 3600)

    # set-up
    @abstractmethod
    def parse_settings(self, raw: Mapping[str, Any]) -> Any:
        """Validate and complete a game's settings; raise RuleViolation on bad input."""

    def clock_settings(
        self, settings: Mapping[str, Any], turn_limit_seconds: int | None
    ) -> tuple[dict[str, Any], int | None]:
        """A new game's settings and turn limit made to agree, for a ruleset whose settings
        carry its own clock (a tick, a round): the game's clock has one source, whichever of
        the two the creator gave. ``turn_limit_seconds`` is None when none was given (the
        referee then uses ``turn_limits.default`` and asks again with it, so that the default
        is written into the settings too). Raise RuleViolation when the two disagree or the
        settings refuse a clock. Default: both unchanged (the referee's deadline is the clock)."""
        return dict(settings), turn_limit_seconds

    @abstractmethod
    def initial_state(self) -> Any:
        """The empty position that the fold starts from (before any event)."""

    @abstractmethod
    def setup(self, settings: Any, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        """The events that start a game with these seats (map, placement, turn order)."""

    # play
    @abstractmethod
    def decide(self, state: Any, command: Command, dice: Dice) -> tuple[Event, ...]:
        """Check ``command`` against the rules; return what happens or raise RuleViolation."""

    @abstractmethod
    def evolve(self, state: Any, event: Event) -> Any:
        """Apply one event. Pure: never checks, raises or rolls."""

    def fold(self, state: Any, events: Iterable[Event]) -> Any:
        evolve = self.evolve
        for event in events:
            state = evolve(state, event)
        return state

    # scheduling
    @abstractmethod
    def to_act(self, state: Any) -> frozenset[int]:
        """Seats whose order the game is waiting for now."""

    @abstractmethod
    def is_finished(self, state: Any) -> bool: ...

    def scheduled_work(self, state: Any) -> tuple[Work, ...]:
        """What becomes due in this position without any player's order."""
        return ()

    @abstractmethod
    def deadline_command(self, state: Any, seats: tuple[int, ...], policy: str) -> Command:
        """What the referee plays for ``seats`` (every seat that missed the deadline)."""

    def demo_orders(self, state: Any, seat: int) -> tuple[Command, ...]:
        """Orders that bring a freshly started demo game to something worth looking at
        (Worms: a shopping list per team). The embedded default plays them for each seat."""
        return ()

    def result(self, state: Any) -> Result:
        """Winners, ranking, scores, or a draw. Rulesets override this; the default knows
        only whether the game is over."""
        return Result(finished=self.is_finished(state))

    # visibility
    @abstractmethod
    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """The position as ``viewer`` may know it: the full state with its secrets removed."""

    def event_audience(self, event: Event) -> Audience:
        return event.audience()

    def event_reach(self, event: Event) -> Audience:
        """Who sees ``event`` in full: its audience, less anyone ``view_event`` blanks part
        of it for. Seats outside its audience cannot be named here, so a public event
        blanked for the public reaches no seat (the order's own seat is added back by
        ``order_audience``)."""
        audience = self.event_audience(event)
        whole = self.event_to_data(event)
        if audience.kind is AudienceKind.EVERYONE:
            return EVERYONE if self.view_event(event, PUBLIC) == whole else Audience.group(())
        if audience.kind is AudienceKind.MODERATORS:
            return Audience.group(())
        return Audience.group(s for s in audience.seats if self.view_event(event, Viewer.for_seat(s)) == whole)

    def order_audience(
        self, order: str, fields: Mapping[str, Any], actor: Actor, events: Sequence[Event]
    ) -> Audience:
        """Who may read an order in full (``fields``: what it says, without its actor and
        time); everyone else learns only that an order was given, and by whom.

        An order is its seat's: a player's own, or the referee's turn played for a seat
        (a deadline bot decides from what that seat knows). Beyond that seat, no one reads
        an order who does not see every one of its events in full: a referee's or a
        moderator's order says what its events say, and it must not tell more than the
        narrowest of them. An order that says nothing but its kind (a turn's start, a
        tick) is public unless a player gave it. Override to narrow further an order
        whose fields carry a secret its events do not show."""
        own = Audience.group(() if actor.seat is None else (actor.seat,))
        if actor.kind is ActorKind.PLAYER:
            return own
        if not fields:
            return EVERYONE
        reach = EVERYONE
        for event in events:
            reach = narrowest(reach, self.event_reach(event))
        if reach.kind is AudienceKind.EVERYONE:
            return reach
        return Audience.group(reach.seats | own.seats)

    def view_event(self, event: Event, viewer: Viewer) -> dict[str, Any] | None:
        """What ``viewer`` sees of one event, or None. Override to redact public events
        that carry a secret (a teleport announced without its destination)."""
        if not viewer.may_see(self.event_audience(event)):
            return None
        return self.event_to_data(event)

    # serialization (state and events are frozen dataclasses; see games.serialization)
    def state_to_data(self, state: Any) -> dict[str, Any]:
        return to_data(state)

    def state_from_data(self, data: Mapping[str, Any]) -> Any:
        return from_data(self.state_type, data)

    def event_type_name(self, event: Event) -> str:
        return type(event).__name__

    def event_to_data(self, event: Event) -> dict[str, Any]:
        return to_data(event)

    def event_from_data(self, type_name: str, data: Mapping[str, Any], schema_version: int | None = None) -> Event:
        cls = self._types(self.event_types)[type_name]
        if schema_version is not None and schema_version != cls.schema_version:
            data = self.upcast(type_name, schema_version, data)
        return from_data(cls, data)

    def event_reader(self, type_name: str, schema_version: int | None = None) -> Callable[[Mapping[str, Any]], Event]:
        """``event_from_data(type_name, data, schema_version)`` as a function of ``data``, for
        reading many events (a replay): the type, its version and its readers are looked up
        once. Raises KeyError for a type the ruleset does not have; a ruleset that overrides
        ``event_from_data`` is read through it."""
        if type(self).event_from_data is not Ruleset.event_from_data:
            return lambda data: self.event_from_data(type_name, data, schema_version)
        cls = self._types(self.event_types)[type_name]
        if schema_version is not None and schema_version != cls.schema_version:
            return lambda data: from_data(cls, self.upcast(type_name, schema_version, data))
        return reader(cls)

    def upcast(self, type_name: str, schema_version: int, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Bring a stored event of an older schema version up to the current one. Override
        when an event's fields change; the log itself is never rewritten."""
        raise ValueError(f"{type_name} v{schema_version} has no upcaster to v{self._types(self.event_types)[type_name].schema_version}")

    def command_to_data(self, command: Command) -> dict[str, Any]:
        return to_data(command)

    def command_from_data(self, type_name: str, data: Mapping[str, Any]) -> Command:
        types = self._types(self.command_types)
        if type_name not in types:
            raise RuleViolation(
                "order", f"{type_name!r} is not an order in {self.name} {self.version}; "
                f"known orders: {', '.join(sorted(types))}."
            )
        return from_data(types[type_name], data)

    def clauses(self, type_name: str) -> tuple[str, ...]:
        """The rulebook sections an order or event applies, read from its docstring's
        "§N" references (rulesets write them there; override for anything finer)."""
        cls = self._types(self.command_types).get(type_name) or self._types(self.event_types).get(type_name)
        return tuple(dict.fromkeys(re.findall(r"§\s?\d+(?:\.\d+)*", (cls.__doc__ or "") if cls else "")))

    @staticmethod
    @cache
    def _types(types: tuple[type, ...]) -> dict[str, type]:
        return {t.__name__: t for t in types}


def version_order(version: str) -> tuple[tuple[int, int | str], ...]:
    """Versions in the order they were made: "2" < "2.1" < "10" (numbers as numbers)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in version.split("."))


@dataclass(frozen=True)
class Registry:
    """Finds rulesets by name and version, so an old game replays under its own rules."""

    rulesets: Mapping[tuple[str, str], Ruleset] = field(default_factory=dict)

    def register(self, ruleset: Ruleset) -> Registry:
        return Registry({**self.rulesets, (ruleset.name, ruleset.version): ruleset})

    def get(self, name: str, version: str | None = None) -> Ruleset:
        versions = sorted((v for (n, v) in self.rulesets if n == name), key=version_order)
        if not versions:
            known = ", ".join(sorted({n for (n, _) in self.rulesets})) or "none"
            raise RuleViolation("ruleset", f"There is no ruleset called {name!r} (known: {known}).")
        if version is None:
            version = versions[-1]
        if (name, version) not in self.rulesets:
            raise RuleViolation(
                "ruleset",
                f"{name!r} has no version {version!r} (known: {', '.join(versions)}).",
            )
        return self.rulesets[(name, version)]

    def names(self) -> tuple[tuple[str, str], ...]:
        """(name, version) pairs by name, each name's versions oldest first."""
        return tuple(sorted(self.rulesets, key=lambda nv: (nv[0], version_order(nv[1]))))
