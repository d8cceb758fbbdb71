"""The fallback words: a feed record as a plain line, the status panel, the forum post.
Only what the viewer received is used (the feed record, the page's result and clock)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from frontend_templates.generic_board import scalar, words
from frontend_templates.page import Page, Panel
from games.base import Result
from referee.ratings_selectors import change_text, game_rating_changes

if TYPE_CHECKING:
    from frontend_templates.plugins import RulesetPages

#: Payload fields that name a seat: shown with the seat's name.
SEAT_FIELDS = frozenset({"seat", "next_seat", "winner", "by", "from_seat", "to_seat"})
#: How long the payload summary of a line may grow.
SUMMARY_LENGTH = 120


def seat_name(names: Mapping[int, str], seat: Any) -> str:
    return names.get(seat, f"seat {seat}") if isinstance(seat, int) else scalar(seat)


def summary(payload: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """``{"seat": 2, "value": 4}`` -> "seat Bo, value 4" (nested values are counted, not spelled out)."""
    parts = []
    for key, value in payload.items():
        if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            parts.append(f"{words(key)} {seat_name(names, value)}")
        elif isinstance(value, (list, tuple)):
            parts.append(f"{words(key)} {', '.join(scalar(v) for v in value)}" if all(
                isinstance(v, (str, int, float, bool)) for v in value) else f"{words(key)} ({len(value)})")
        elif isinstance(value, Mapping):
            parts.append(f"{words(key)} (…)")
        else:
            parts.append(f"{words(key)} {scalar(value)}")
    text = ", ".join(parts)
    return text if len(text) <= SUMMARY_LENGTH else text[: SUMMARY_LENGTH - 1] + "…"


def readable_time(iso: str | None) -> str:
    """``2026-12-02T16:05:10.051298+00:00`` -> "Wed 2 Dec 2026, 16:05 UTC" (for a forum post,
    read in many time zones; the page adds the reader's own time with JavaScript)."""
    if not iso:
        return ""
    try:
        when = dt.datetime.fromisoformat(iso).astimezone(dt.UTC)
    except (TypeError, ValueError):
        return str(iso)
    return f"{when:%a} {when.day} {when:%b %Y, %H:%M} UTC"


#: The referee's own notices (pause, extension, correction ...) in words; each carries a
#: public reason that every player is shown where the notice appears.
NOTICES: dict[str, str] = {
    "GamePaused": "A moderator paused the game",
    "GameResumed": "A moderator resumed the game",
    "GameUnfrozen": "A moderator unfroze the game",
    "DeadlineExtended": "A moderator extended the deadline",
    "ModeratorRuling": "A moderator made a correction",
    "DeadlinesExtendedForOutage": "Every deadline was extended",
    "VacationDeclared": "A vacation was declared",
    "GameVoided": "A moderator voided the game: its result counts for nothing",
}


def notice_text(record: Mapping[str, Any], names: Mapping[int, str]) -> str | None:
    """A referee notice in words with its reason, or None if the record is not one."""
    type_ = str(record.get("type", ""))
    if record.get("kind") != "notice" and type_ not in NOTICES:
        return None
    payload = record.get("payload") if isinstance(record.get("payload"), Mapping) else {}
    head = NOTICES.get(type_) or words(type_).capitalize()
    if type_ == "DeadlineExtended" and payload.get("hours"):
        head += f" by {payload['hours']} hour{'s' if payload['hours'] != 1 else ''}"
        if payload.get("due_at"):
            head += f" (now {readable_time(payload['due_at'])})"
    elif type_ == "VacationDeclared" and isinstance(payload.get("seat"), int):
        head = f"{seat_name(names, payload['seat'])} is on vacation until {readable_time(payload.get('until'))}"
    elif type_ == "DeadlinesExtendedForOutage" and payload.get("extended_by_seconds"):
        head += f" by {int(payload['extended_by_seconds']) // 60} minutes"
    reason = str(payload.get("reason") or "").strip()
    return f"{head}. Reason: {reason}" if reason else f"{head}."


def narrate(record: Mapping[str, Any], names: Mapping[int, str]) -> str:
    payload = record.get("payload") or {}
    kind = record.get("kind", "")
    notice = notice_text(record, names)
    if notice is not None:
        return notice
    if kind == "rejection":
        return f"refused: {payload.get('message') or record.get('type', '')}"
    head = words(record.get("type", "")).capitalize() or "Record"
    if kind == "command":
        actor = record.get("actor") or {}
        who = seat_name(names, actor.get("seat")) if actor.get("seat") is not None else actor.get("kind", "")
        head = f"{head} (by {who})" if who else head
    if record.get("redacted") or not isinstance(payload, Mapping):
        return head
    detail = summary(payload, names)
    return f"{head}: {detail}" if detail else head


def result_text(result: Result, names: Mapping[int, str]) -> str:
    if not result.finished:
        return ""
    if result.draw:
        return result.summary or "A draw."
    if result.winners:
        won = ", ".join(seat_name(names, s) for s in result.winners)
        return f"Won by {won}." + (f" {result.summary}" if result.summary else "")
    return result.summary or "The game is over."


def status_panel(page: Page) -> Panel:
    result = page.result
    return Panel("frontend/generic/status.html", {
        "result_text": result_text(result, page.names),
        "winner_names": [seat_name(page.names, s) for s in result.winners],
        "scores": [{"name": seat_name(page.names, s), "score": f"{v:g}"} for s, v in result.scores],
        "waiting_names": [seat_name(page.names, s) for s in page.waiting_for],
        "finished": result.finished,
    })


#: How many of the last events tell how a game ended.
ENDING_EVENTS = 4


def result_panel(page: Page, narrate: Callable[[Mapping[str, Any], Mapping[int, str]], str]) -> Panel:
    """The finished game's result for the main area. "How it ended" is the events that
    came with the last order (the viewer's own feed: what they were shown anyway)."""
    result, names = page.result, page.names
    winners = [seat_name(names, s) for s in result.winners]
    if result.draw:
        headline = "a draw"
    elif winners:
        headline = f"{', '.join(winners)} won"
    else:
        headline = "no winner"
    places = [", ".join(seat_name(names, s) for s in place) for place in result.ranking]
    ending = [narrate(r, names) for r in page.recent if r.get("kind") in ("event", "notice")][-ENDING_EVENTS:]
    return Panel("frontend/generic/result.html", {
        "headline": headline, "summary": result.summary if result.summary not in ("", "A draw.") else "",
        "places": places if len(places) > 1 else [],
        "final_scores": [{"name": seat_name(names, s), "score": f"{v:g}"} for s, v in result.scores],
        "ending": [line for line in ending if line],
        "rating_changes": rating_changes(page),
    })


def rating_changes(page: Page) -> list[dict[str, str]]:
    """Each rated seat's new rating and its change (+12 / −9), once the game is counted."""
    changes = game_rating_changes(game_id=str(page.game.pk))
    return [{"name": seat_name(page.names, seat), "after": f"{c['after']}{'?' if c['provisional'] else ''}",
             "change": change_text(c["change"])} for seat, c in sorted(changes.items())]


def forum_post(
    pages: RulesetPages, *, game_name: str, title: str, records: Sequence[Mapping[str, Any]], deadline: str | None,
    image_url: str, names: Mapping[int, str], result: Result, waiting_for: Sequence[int] = (), tail: int = 15,
) -> str:
    events = [r for r in records if r.get("kind") in ("event", "notice")][-tail:]
    lines = [f"[b]{game_name}[/b] — {title}"]
    if image_url:
        lines.append(f"[img]{image_url}[/img]")
    lines.append("[b]What happened[/b]")
    told = [pages.narrate(r, names) for r in events]
    lines.append("[list]" + "".join(f"[*]{t}" for t in told) + "[/list]" if told else "Nothing yet.")
    if result.finished:
        lines.append(f"[b]Game over[/b]: {result_text(result, names)}")
    if result.scores:
        lines.append("[b]Scores[/b]: " + ", ".join(f"{seat_name(names, s)} {v:g}" for s, v in result.scores))
    if not result.finished:
        waiting = ", ".join(seat_name(names, s) for s in waiting_for)
        lines.append(f"[b]Waiting for[/b]: {waiting or '—'}")
        lines.append(f"[b]Deadline[/b]: {readable_time(deadline) or 'not running'}")
    return "\n".join(lines)
