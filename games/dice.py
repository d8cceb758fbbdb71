"""Dice: every random draw a ruleset makes goes through one of these and is recorded.

A draw states its purpose and its inclusive range; the referee stores the draws with the
order that caused them. Replaying feeds the recorded draws back (``RecordedDice``) and
fails loudly if the engine asks for something else than what was recorded.

Verifiable rolls (``SeededDice``): the referee commits to a secret seed by publishing
``sha256(seed)`` when the game is created. Draw ``i`` of the order recorded at sequence
number ``seq`` of game ``G`` is computed as::

    attempt = 0, 1, 2, ...
        h = HMAC-SHA256(key=seed, msg=f"{G}:{seq}:{i}:{attempt}")   # hex seed decoded to bytes
        x = int.from_bytes(h[:8], "big")
        n = high - low + 1
        if x < (2**64 // n) * n:          # rejection sampling: no modulo bias
            value = low + x % n; stop

Once the seed is revealed anyone can recompute every roll of the game with this recipe.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Draw:
    purpose: str
    low: int
    high: int
    value: int

    def to_data(self) -> dict[str, object]:
        return {"purpose": self.purpose, "low": self.low, "high": self.high, "value": self.value}

    @classmethod
    def from_data(cls, data: dict) -> Draw:
        return cls(str(data["purpose"]), int(data["low"]), int(data["high"]), int(data["value"]))


class DiceError(Exception):
    """Replay asked for a draw that was not recorded (the log and the rules disagree)."""


class Dice:
    """Base class: subclasses supply ``_next(purpose, low, high)``; this records the draws."""

    def __init__(self) -> None:
        self.draws: list[Draw] = []

    def _next(self, purpose: str, low: int, high: int) -> int:
        raise NotImplementedError

    def roll(self, purpose: str, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` inclusive, for ``purpose``."""
        if high < low:
            raise ValueError(f"empty range {low}..{high} for {purpose!r}")
        value = self._next(purpose, low, high)
        self.draws.append(Draw(purpose, low, high, value))
        return value

    def chance(self, purpose: str, percent: int) -> bool:
        """True with ``percent`` % probability (a d100 roll of at most ``percent``)."""
        return self.roll(purpose, 1, 100) <= percent

    def choice(self, purpose: str, options: Sequence[T]) -> T:
        if not options:
            raise ValueError(f"nothing to choose from for {purpose!r}")
        return options[self.roll(purpose, 0, len(options) - 1)]

    def shuffle(self, purpose: str, items: Iterable[T]) -> tuple[T, ...]:
        """Fisher-Yates, one recorded draw per position."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(purpose, 0, i)
            out[i], out[j] = out[j], out[i]
        return tuple(out)


def seeded_value(seed: str, game: str, seq: int, index: int, low: int, high: int) -> int:
    """The documented recipe (module docstring) for draw ``index`` of the order at ``seq``."""
    key = bytes.fromhex(seed)
    n = high - low + 1
    limit = (2**64 // n) * n
    attempt = 0
    while True:
        digest = hmac.new(key, f"{game}:{seq}:{index}:{attempt}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return low + x % n
        attempt += 1


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


class SeededDice(Dice):
    """Live dice: deterministic from the game's secret seed and the draw's position."""

    def __init__(self, seed: str, game: str, seq: int) -> None:
        super().__init__()
        self.seed, self.game, self.seq = seed, game, seq

    def _next(self, purpose: str, low: int, high: int) -> int:
        return seeded_value(self.seed, self.game, self.seq, len(self.draws), low, high)


class RecordedDice(Dice):
    """Replay: hands back recorded draws in order, checking purpose and range."""

    def __init__(self, recorded: Sequence[Draw]) -> None:
        super().__init__()
        self.recorded = tuple(recorded)

    def _next(self, purpose: str, low: int, high: int) -> int:
        i = len(self.draws)
        if i >= len(self.recorded):
            raise DiceError(f"draw {i} ({purpose!r} {low}..{high}) was not recorded")
        want = self.recorded[i]
        if (want.purpose, want.low, want.high) != (purpose, low, high):
            raise DiceError(
                f"draw {i}: recorded {want.purpose!r} {want.low}..{want.high}, "
                f"replay asked for {purpose!r} {low}..{high}"
            )
        return want.value

    @property
    def unused(self) -> int:
        return len(self.recorded) - len(self.draws)


class ForcedDice(Dice):
    """For tests and rules cases: the given values in order, whatever the purpose.
    A value outside the asked range is an error in the case, not a silent clamp."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        super().__init__()
        self.values = list(values)

    def _next(self, purpose: str, low: int, high: int) -> int:
        if not self.values:
            raise DiceError(f"no forced value left for {purpose!r} {low}..{high}")
        value = self.values.pop(0)
        if not low <= value <= high:
            raise DiceError(f"forced value {value} outside {low}..{high} for {purpose!r}")
        return value


class NoDice(Dice):
    """For orders that must not roll: any draw is a bug."""

    def _next(self, purpose: str, low: int, high: int) -> int:
        raise DiceError(f"unexpected draw {purpose!r}")
