"""The forum post of a Parties game in BBCode: the tick, the arena's picture, what the last
tick brought (the moves, battles and alliances), the standings and then the podium or when
the next tick closes. Built from the public view and the public log only: a bot's chosen
move or ally policy (P-R14) is never in it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from game_pages.parties.narrate import narrate
from game_pages.parties.ui import TROPHIES, bot_rows, name_of
from games.base import Result

#: what a post tells of a tick (a tick's start is said by the heading)
TOLD = frozenset({"GameSetUp", "TickClosed", "MoveBlocked", "BotMoved", "Squeezed", "AllianceFormed",
                  "AllianceDeclined", "PartyJoined", "BattleFought", "GameEnded"})


def last_tick(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The public events from the last tick's close on (or the set-up before any closed)."""
    events = [r for r in records if r.get("kind") == "event" and r.get("type") in TOLD]
    closed = [i for i, r in enumerate(events) if r.get("type") == "TickClosed"]
    return events[closed[-1]:] if closed else events[-10:]


def closing_time(ms: Any) -> str:
    if not isinstance(ms, int) or ms <= 0:
        return ""
    return f"{dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC):%a %d %b %Y, %H:%M:%S} UTC"


def forum_post(
    *, game_name: str, title: str, position: Mapping[str, Any], records: Sequence[Mapping[str, Any]],
    image_url: str, names: Mapping[int, str], result: Result,
) -> str:
    tick, cap = position.get("tick") or 0, position.get("max_ticks")
    lines = [f"[b]{game_name}[/b] — {title}, tick {tick}" + (f" of at most {cap}" if cap else "")]
    if image_url:
        lines.append(f"[img]{image_url}[/img]")
    told = [narrate(r, names) for r in last_tick(records)]
    lines.append("[b]Last tick[/b]" if any(r.get("type") == "TickClosed" for r in records) else "[b]Set-up[/b]")
    lines.append("[list]" + "".join(f"[*]{t}" for t in told) + "[/list]" if told else "Nothing yet.")
    lines.append("[b]Standings[/b] (score, then strength)")
    lines.append("[list]" + "".join(
        f"[*]{row['name']}: score {row['score']}, strength {row['strength']}, {row['role']}"
        + (f" of {row['party']}" if row["party"] else "") + f", on {row['square']}"
        for row in bot_rows(position, names)) + "[/list]")
    if result.finished:
        podium = "; ".join(f"{label} {' and '.join(name_of(names, s) for s in place)}"
                           for (label, _, _), place in zip(TROPHIES, result.ranking, strict=False))
        how = "all bots united in one party" if position.get("end_reason") == "united" else "the tick cap was reached"
        lines.append(f"[b]Game over[/b] ({how}): {podium}.")
    else:
        waiting = ", ".join(name_of(names, s) for s in position.get("to_act") or [])
        closes = closing_time(position.get("tick_deadline_ms"))
        lines.append(f"[b]Tick {tick} closes[/b]: {closes or 'when it starts'}, or as soon as every solo and "
                     "leader has moved (a missing move is stay).")
        lines.append(f"[b]Still to move[/b]: {waiting or '—'}")
    return "\n".join(lines)
