"""What a plug-in is given and gives back: the ``Page`` (what the viewer may see of a game)
and the ``Panel`` (a template and its context). Apart from the contract in ``plugins`` so
the generic words (``generic_text``), which the contract's defaults call, can build panels
without importing the contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import Result, Ruleset


@dataclass(frozen=True)
class Panel:
    """A piece of a page: a template and its context (rendered with the request, so a
    form in it gets its CSRF token)."""

    template: str
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Page:
    """What the game page knows when it asks a plug-in for a panel: only what the viewer
    may see, plus their own picks from the query string (a worm, a weapon)."""

    game: Any  # referee.models.Game
    rules: Ruleset
    position: dict[str, Any]
    seq: int
    clock: Mapping[str, Any]
    seat: int | None
    names: Mapping[int, str]
    moderator: bool
    result: Result
    query: Mapping[str, str] = field(default_factory=dict)
    form_key: str = ""
    #: The viewer's own feed records of the last player's action and what followed it
    #: (their numbering): what the board marks as "just happened".
    recent: Sequence[Mapping[str, Any]] = ()
    #: The position (as the viewer may see it) just before ``recent``: where a walk started.
    before: dict[str, Any] | None = None

    @property
    def waiting_for(self) -> list[int]:
        """Seats the clock is waiting for (public: the deadline says whose turn it is)."""
        return list(self.clock.get("waiting_for") or [])
