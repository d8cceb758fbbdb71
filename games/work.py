"""Work the referee does without being asked: ``Work`` a position makes due and the
text its key is stored as (re-exported by ``games.base``, the module to import them
from)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from games.messages import Command

# --- work the referee does without being asked ----------------------------------------


WorkKey = tuple[str | int, ...]
_PLAIN_PART = re.compile(r"[A-Za-z0-9_.-]+")


def work_key_text(key: WorkKey) -> str:
    """The text the referee stores a work key as (and uses as its idempotency key).

    Words and numbers join with ":" (``("turn", 3, "start")`` is ``turn:3:start``, the form
    logs have always used); a key with any other character is written as canonical JSON,
    which starts with "[" and so can never collide with a joined key. Never parsed back."""
    if not isinstance(key, tuple) or not key:
        raise TypeError(f"a work key is a non-empty tuple of words and numbers, not {key!r}")
    if all((isinstance(p, int) and not isinstance(p, bool)) or (isinstance(p, str) and _PLAIN_PART.fullmatch(p))
           for p in key):
        return ":".join(str(p) for p in key)
    return json.dumps(list(key), separators=(",", ":"), ensure_ascii=True)


@dataclass(frozen=True)
class Work:
    """Work a position makes due. ``key`` is unique per game: it is the idempotency key of
    the job, so a job delivered twice, or after a player already acted, does nothing.
    It is data (a tuple of words and numbers, e.g. ``("turn", 12)``), never a string the
    referee has to take apart.

    * ``when="now"``: run ``command`` as soon as possible (a turn-start phase).
    * ``when="at"``: run ``command`` at ``at_ms`` (a round timer, a tick), to the second.
    * ``when="deadline"``: if ``seats`` have not acted when the turn's time limit runs out,
      the referee runs ``Ruleset.deadline_command(state, missed, policy)`` with every seat
      of ``seats`` that has still not acted.
    """

    key: WorkKey
    when: Literal["now", "at", "deadline"]
    command: Command | None = None
    at_ms: int | None = None
    seats: tuple[int, ...] = ()
