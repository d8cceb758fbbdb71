"""Counting the orders a seat may repeat within one period of play (a tick, a turn, a round),
for rulesets that bound how much one seat may add to the append-only log before the period
resolves.

A ruleset keeps its counts in a subclass of its plain position, so the versions without a bound
keep the plain position and replay and verify as they were played. Counts are ``(key, times)``
pairs sorted by key: the position stays frozen and hashable, and its snapshot is the same text
whatever order the orders arrived in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

from games.base import RuleViolation

K = TypeVar("K")
C = TypeVar("C")

#: (key, times counted this period), sorted by key
Counts = tuple[tuple[K, int], ...]


def lift(state: Any, counted_type: type[C], plain_type: type) -> C:
    """``state`` as ``counted_type`` keeps it: a plain position (from set-up or the notation)
    has counted nothing yet."""
    if isinstance(state, counted_type):
        return state
    return counted_type(**{f.name: getattr(state, f.name) for f in fields(plain_type)})


def times(counts: Counts[K], key: K) -> int:
    """How many times ``key`` has been counted this period."""
    return dict(counts).get(key, 0)


def plus_one(counts: Counts[K], key: K) -> Counts[K]:
    tallied = dict(counts)
    tallied[key] = tallied.get(key, 0) + 1
    return tuple(sorted(tallied.items()))


def refuse_at_limit(counts: Counts[K], key: K, limit: int, rule: str, sentence: Callable[[int], str]) -> None:
    """Refuse (``rule``, ``sentence(times so far)``) the order that would go over ``limit``."""
    given = times(counts, key)
    if given >= limit:
        raise RuleViolation(rule, sentence(given))
