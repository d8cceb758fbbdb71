"""A forum post of the last turn in BBCode (turn summary, damage, deaths, whose turn is
next, the deadline). It is built from the public view and the public log only."""

from __future__ import annotations

from typing import Any

from frontend_templates.generic_text import readable_time
from game_pages.worms.narrate import narrate
from games.base import Result


def last_turn(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public events since the last turn started (or the whole tail if none did)."""
    events = [r for r in records if r.get("kind") in ("event", "notice")]
    starts = [i for i, r in enumerate(events) if r["type"] == "TurnStarted"]
    if not starts:
        return events[-30:]
    ended = [i for i, r in enumerate(events) if r["type"] == "TurnEnded"]
    if ended:
        # the last finished turn: from its start to its end, plus what followed (next turn start)
        end = ended[-1]
        start = max((i for i in starts if i < end), default=0)
        return events[start:]
    return events[starts[-1]:]


def forum_post(
    *, game_name: str, position: dict[str, Any], records: list[dict[str, Any]],
    deadline: str | None, image_url: str = "", result: Result | None = None,
) -> str:
    """``result`` is the ruleset's ``result(state)``: who won is never read off the view."""
    names = {t["seat"]: t["name"] or f"Team {t['letter']}" for t in position.get("teams", [])}
    turn = last_turn(records)
    summary = [narrate(r, names) for r in turn if r["type"] not in ("WormDamaged", "WormDied")
               or r["payload"].get("cause") == "moderator ruling"]
    damage = [r["payload"] for r in turn if r["type"] == "WormDamaged" and r["payload"].get("cause") != "moderator ruling"]
    deaths = [r["payload"] for r in turn if r["type"] == "WormDied"]
    lines = [f"[b]{game_name}[/b] — round {position.get('round', 0)}, turn {position.get('turn', 0)}"]
    if image_url:
        lines.append(f"[img]{image_url}[/img]")
    lines.append("[b]What happened[/b]")
    lines.append("[list]" + "".join(f"[*]{s}" for s in summary) + "[/list]" if summary else "Nothing yet.")
    lines.append("[b]Damage[/b]")
    lines.append(
        "[list]" + "".join(f"[*]{d['worm']}: -{d['amount']} (the {d['cause']}), health {d['health']}" for d in damage) + "[/list]"
        if damage else "None."
    )
    lines.append("[b]Deaths[/b]")
    lines.append("[list]" + "".join(f"[*]{d['worm']} ({d['cause']})" for d in deaths) + "[/list]" if deaths else "None.")
    wind = position.get("wind") or {}
    lines.append(f"Wind: {wind.get('strength', 0)} {wind.get('direction') or ''}".rstrip()
                 + f" · Water level: {position.get('water', 0)}")
    if result is not None and result.finished:
        won = ", ".join(names.get(s, f"seat {s}") for s in result.winners)
        lines.append(f"[b]Game over[/b]: {won or 'a draw'}")
    else:
        seat = position.get("seat")
        lines.append(f"[b]Next to play[/b]: {names.get(seat, '—')}")
        lines.append(f"[b]Deadline[/b]: {readable_time(deadline) or 'not running'}")
    return "\n".join(lines)
