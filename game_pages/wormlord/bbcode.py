"""The forum post in BBCode: the round, the board picture, what happened lately, each side's
supply, Objectives and rounds won, then the result or the round's clock. Built from the
public view and the public log only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from frontend_templates.generic_text import result_text
from game_pages.wormlord.live import phase_words
from game_pages.wormlord.narrate import clock_time
from games.base import Result

#: The feed of a round at full speed is long; the post tells the last of it.
TAIL = 12


def forum_post(
    *, game_name: str, title: str, position: Mapping[str, Any], records: Sequence[Mapping[str, Any]],
    image_url: str, names: Mapping[int, str], result: Result, narrate: Callable[[Mapping[str, Any]], str],
) -> str:
    rnd = position.get("round") or 0
    lines = [f"[b]{game_name}[/b] — {title}" + (f", round {rnd}" if rnd else "")]
    if image_url:
        lines.append(f"[img]{image_url}[/img]")
    events = [r for r in records if r.get("kind") in ("event", "notice")][-TAIL:]
    lines.append("[b]What happened[/b]")
    told = [narrate(r) for r in events]
    lines.append("[list]" + "".join(f"[*]{t}" for t in told) + "[/list]" if told else "Nothing yet.")
    lines.append("[b]The sides[/b]")
    rows = []
    for side in position.get("sides", []):
        players = " and ".join(names.get(n, f"seat {n}") for n in side.get("seats", []))
        rows.append(f"[*][color={side['colour']}]{side['colour'].capitalize()}[/color] ({players}): "
                    f"{side.get('supply', 0)} strings in supply, {side.get('objectives_held', 0)} Objectives held, "
                    f"{side.get('rounds_won', 0)} rounds won")
    lines.append("[list]" + "".join(rows) + "[/list]" if rows else "Not set up yet.")
    if result.finished:
        lines.append(f"[b]Game over[/b]: {result_text(result, names)}")
    else:
        lines.append(f"[b]Now[/b]: {phase_words(position)}")
        if position.get("phase") == "running" and position.get("ends_at_ms"):
            lines.append(f"[b]Round clock[/b]: the round ends at {clock_time(position['ends_at_ms'])} (§7.2)")
    return "\n".join(lines)
