"""Replay for players and moderators: step through a game one order at a time, with the
dice drawn, the events, what changed in the position (as the viewer may see it) and the
rulebook clauses applied. Everything passes through the same visibility as live play."""

from __future__ import annotations

from typing import Any

from games.base import Viewer, ViewerKind
from referee.core import Referee
from referee.store.base import RecordKind


def json_diff(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """Paths that differ between two JSON values, with both sides."""
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[dict[str, Any]] = []
        for key in sorted(set(before) | set(after), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in before:
                out.append({"path": sub, "before": None, "after": after[key]})
            elif key not in after:
                out.append({"path": sub, "before": before[key], "after": None})
            else:
                out += json_diff(before[key], after[key], sub)
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        out = []
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            out += json_diff(b, a, f"{path}[{i}]")
        return out
    return [] if before == after else [{"path": path, "before": before, "after": after}]


def replay_index(referee: Referee, game_id: str, viewer: Viewer) -> list[dict[str, Any]]:
    """One line per step (an order, a refusal, a referee notice) the viewer may see."""
    info = referee.store.get_game(game_id)
    rules = referee.ruleset_for(info)
    feed = referee.feed(game_id, viewer)
    steps = []
    for item in feed:
        if item["kind"] == str(RecordKind.EVENT):
            continue
        steps.append({
            "seq": item["seq"], "kind": item["kind"], "type": item["type"], "actor": item["actor"],
            "at": item["at"], "clauses": list(rules.clauses(item["type"])),
        })
    return steps


def replay_step(referee: Referee, game_id: str, viewer: Viewer, seq: int) -> dict[str, Any] | None:
    """The viewer's step ``seq`` (in their own numbering): the order, its dice (moderators,
    or everyone once the log is public), its events, what changed, the clauses."""
    info = referee.store.get_game(game_id)
    rules = referee.ruleset_for(info)
    effective = referee._effective(info, viewer)
    numbering = referee.numbering(game_id, viewer)
    if not 1 <= seq <= numbering.count:
        return None
    real = numbering.real_of(seq)
    records = referee.store.read(game_id, after=real - 1, upto=real)
    if not records or records[0].kind is RecordKind.EVENT:
        return None
    record = records[0]
    caused = referee.store.caused_by(game_id, real)
    last = caused[-1].seq if caused else real
    items = referee.feed_between(game_id, viewer, real - 1, last, numbering)
    order, events = items[0], items[1:]
    before = referee.view_at_real(game_id, viewer, real - 1)["position"] if real > 1 else None
    after = referee.view_at_real(game_id, viewer, last)["position"]
    clauses = list(rules.clauses(record.type)) if not order.get("redacted") else []
    for e in events:
        clauses += [c for c in rules.clauses(e["type"]) if c not in clauses]
    step: dict[str, Any] = {
        "seq": seq,
        "order": order,
        "events": events,
        "clauses": clauses,
        "diff": json_diff(before, after) if before is not None else [],
        "position_after": after,
    }
    if effective.kind is ViewerKind.MODERATOR:
        step["draws"] = list(record.draws)
    return step


def inbox(referee: Referee, game_id: str, seat: int) -> list[dict[str, Any]]:
    """The private messages of one seat: what the game master used to PM. Another seat's
    order shows in the feed as a redacted trace ("a seat gave an order"); that is no message
    to this seat, so it is left out."""
    return [
        e for e in referee.feed(game_id, Viewer.for_seat(seat))
        if e["audience"] == "seats" and not e.get("redacted")
    ]
