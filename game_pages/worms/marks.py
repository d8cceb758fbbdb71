"""What "just happened" on the board, read from the viewer's own feed records of the last
action (the game page) or of one step (the replay): the path a worm walked, the line of a
shot, the squares a blast touched, the damage each worm took. Only records the viewer
received are read, so a mark cannot show a secret."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.worms.board import name as square_name
from games.worms.board import parse_square

Square = tuple[int, int]


@dataclass(frozen=True)
class Marks:
    trail: tuple[Square, ...] = ()  # squares walked, in order (the start first when known)
    shots: tuple[tuple[Square, Square], ...] = ()  # from the shooter to where the shot went
    blasts: frozenset[Square] = frozenset()
    damage: tuple[tuple[Square, int], ...] = ()  # (square, amount): "-20" drawn there
    words: tuple[str, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.trail or self.shots or self.blasts or self.damage)


def _square(p: Mapping[str, Any], x: str = "x", y: str = "y") -> Square | None:
    try:
        return int(p[x]), int(p[y])
    except (KeyError, TypeError, ValueError):
        return None


def last_action(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The records from the last order a player gave (its own record included) to the end."""
    for i in range(len(records) - 1, -1, -1):
        r = records[i]
        if r.get("kind") == "command" and (r.get("actor") or {}).get("kind") == "player":
            return list(records[i:])
    return []


def marks_from(records: Sequence[Mapping[str, Any]], position: Mapping[str, Any],
               before: Mapping[str, Any] | None = None) -> Marks:
    """``position`` is the board after the records; ``before`` (if known) the board before
    them, which gives where a walk or a shot started."""
    where: dict[str, Square] = {}
    for worm in (before or {}).get("worms", []) if before else position.get("worms", []):
        where[worm["id"]] = (worm["x"], worm["y"])
    now = {w["id"]: (w["x"], w["y"]) for w in position.get("worms", [])}
    trail: list[Square] = []
    shots: list[tuple[Square, Square]] = []
    blasts: set[Square] = set()
    damage: list[tuple[Square, int]] = []
    words: list[str] = []
    walker = ""
    pending: Square | None = None
    fixed = False
    for r in records:
        if r.get("kind") != "event":
            continue
        p = r.get("payload") or {}
        t = r.get("type")
        if t == "WormMoved" and (sq := _square(p)) is not None:
            worm = str(p.get("worm", ""))
            if p.get("cause", "walk") == "walk":
                if worm != walker:
                    walker, trail = worm, ([where[worm]] if worm in where and before else [])
                trail.append(sq)
            where[worm] = sq
        elif t == "WeaponFired":
            origin = where.get(str(p.get("worm", ""))) or now.get(str(p.get("worm", "")))
            target = _target(str(p.get("target") or ""))
            pending = origin
            if origin is not None and target is not None and target != origin:
                shots.append((origin, target))
                pending = None
        elif t in ("Exploded", "MineExploded", "DrumExploded") and (sq := _square(p)) is not None:
            blasts.add(sq)
            if t == "Exploded" and pending is not None and sq != pending:
                shots.append((pending, sq))  # a shot along a line: it ends at its blast
                pending = None
            elif t == "Exploded" and shots and not fixed:
                shots[-1] = (shots[-1][0], sq)  # the line ends where the shot really went
                fixed = True
        elif t == "LandLowered":
            blasts.update(sq for s in p.get("squares") or [] if (sq := _square(s)) is not None)
        elif t == "WormDamaged" and p.get("cause") != "moderator ruling":
            worm = str(p.get("worm", ""))
            sq = where.get(worm) or now.get(worm)
            if sq is not None:
                damage.append((sq, int(p.get("amount") or 0)))
                words.append(f"{worm} lost {p.get('amount')} on {square_name(sq)}")
    if trail:
        words.insert(0, f"{walker} walked " + " → ".join(square_name(s) for s in trail))
    if blasts:
        words.append("hit: " + ", ".join(sorted(square_name(s) for s in blasts)))
    return Marks(tuple(trail), tuple(shots), frozenset(blasts), tuple(damage), tuple(words))


def _target(text: str) -> Square | None:
    """A square target ("j12"); a direction or a row aims along a line from the shooter,
    and its blast (if any) ends the line instead."""
    try:
        return parse_square(text.split("-")[0].strip())
    except ValueError:
        return None
