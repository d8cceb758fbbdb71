"""The forum post of the last turn in BBCode, from the public view and the public log only:
the picture, the last resolution step by step (each step's team, unit and kind are public,
L-R21; what it hit only its witnesses know), what happened since, the scoreboard, and the
result or whose list is awaited and the deadline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from frontend_templates.generic_text import readable_time, result_text, seat_name
from game_pages.lggwg.narrate import narrate, step_text
from games.base import Result

#: The public records worth telling in a post (the steps have their own list).
TOLD = frozenset({"TurnStarted", "TeamSubmitted", "UnitDied", "TeamOut", "GameEnded"})


def since_last_turn(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The public events from the start of the turn before the current one (the turn that
    resolved last) to now."""
    events = [r for r in records if r.get("kind") in ("event", "notice")]
    starts = [i for i, r in enumerate(events) if r.get("type") == "TurnStarted"]
    return events[starts[-2]:] if len(starts) >= 2 else events


def forum_post(
    *, game_name: str, title: str, position: Mapping[str, Any], records: Sequence[Mapping[str, Any]],
    deadline: str | None, image_url: str, names: Mapping[int, str], result: Result,
    waiting_for: Sequence[int] = (),
) -> str:
    turn = position.get("turn")
    lines = [f"[b]{game_name}[/b] — {title}, turn {turn} of {position.get('max_turns')}"
             f" on the map {position.get('map')}"]
    if image_url:
        lines.append(f"[img]{image_url}[/img]")
    steps = [step_text(s, names) for s in position.get("last_resolution") or []]
    lines.append("[b]The last resolution[/b]")
    lines.append("[list=1]" + "".join(f"[*]{s}" for s in steps) + "[/list]" if steps else "No turn has resolved yet.")
    told = [narrate(r, names) for r in since_last_turn(records)
            if r.get("type") in TOLD or r.get("kind") == "notice"]
    told = [t for t in told if t]
    lines.append("[b]What happened[/b]")
    lines.append("[list]" + "".join(f"[*]{t}" for t in told) + "[/list]" if told else "Nothing yet.")
    roster = position.get("roster") or []
    lines.append("[b]Scoreboard[/b]")
    rows = []
    for t in position.get("teams") or []:
        units = ", ".join(f"{u['id']} {u.get('name', '')} {u.get('hp')}/{u.get('max_hp')}"
                          for u in roster if u.get("team") == t.get("seat"))
        out = f" (out: {t['out']})" if t.get("out") else ""
        rows.append(f"[*]{t.get('colour_name')} ({seat_name(names, t.get('seat'))}){out}: score {t.get('score')}, "
                    f"kills {t.get('kills')}, sheep {t.get('sheep')} — {units or 'no units left'}")
    lines.append("[list]" + "".join(rows) + "[/list]" if rows else "No teams yet.")
    if result.finished:
        lines.append(f"[b]Game over[/b]: {result_text(result, names)}")
    else:
        waiting = ", ".join(seat_name(names, s) for s in waiting_for)
        lines.append(f"[b]Lists awaited from[/b]: {waiting or '—'}")
        lines.append(f"[b]Deadline[/b]: {readable_time(deadline) or 'not running'}")
    return "\n".join(lines)
