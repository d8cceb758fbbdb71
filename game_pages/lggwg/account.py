"""A game record told in words: each turn's lists and resolution, then the result (the
``replay_record`` command's output). Django-free."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from game_pages.lggwg.narrate import narrate, seat_name
from game_pages.lggwg.record import GameRecord, Replay
from referee.store.base import StoredRecord

QUIET = frozenset({"TeamSubmitted"})  # the lists themselves are told (they are public once resolved)


def names_of(record: GameRecord) -> dict[int, str]:
    return {int(s["number"]): str(s["name"]) for s in record.header.get("seats") or []}


def _item(r: StoredRecord) -> dict[str, Any]:
    return {"seq": r.seq, "kind": str(r.kind), "type": r.type, "payload": r.payload,
            "actor": {"kind": r.actor_kind, "seat": r.actor_seat}}


def turns_in_words(items: Iterable[Mapping[str, Any]], names: Mapping[int, str]) -> list[str]:
    """One heading a turn, then a line a record (commands other than the referee's left out)."""
    lines: list[str] = []
    for item in items:
        kind, t = item.get("kind"), item.get("type")
        if t in QUIET or (kind == "command" and t not in ("ResolveAtDeadline",)):
            continue
        text = narrate(item, names)
        if text is None:
            continue
        if t == "TurnStarted":
            lines += ["", text]
        elif t == "OrdersSubmitted":
            p = item.get("payload") or {}
            lines.append(f"  {seat_name(p.get('team'), names)}'s list: " + text.split(": ", 1)[-1].split(" (secret")[0])
        else:
            lines.append(("    " if t not in ("OrderResolved", "GameStarted", "GameEnded", "TeamOut") else "  ") + text)
    return lines


def result_in_words(replay: Replay, names: Mapping[int, str]) -> list[str]:
    state, _ = replay.referee.current(replay.game_id)
    rules = replay.referee.ruleset_for(replay.referee.store.get_game(replay.game_id))
    r = rules.result(state)
    scores = dict(r.scores)
    lines = [f"Result: {'finished' if r.finished else 'not finished'}. {r.summary}".rstrip()]
    for place, seats in enumerate(r.ranking, start=1):
        who = ", ".join(f"{seat_name(s, names)} ({scores.get(s, 0):g} points)" for s in seats)
        lines.append(f"  {place}. {who}")
    if r.winners:
        lines.append("Winner" + ("s" if len(r.winners) > 1 else "") + ": "
                     + ", ".join(seat_name(s, names) for s in r.winners) + (" (a draw)" if r.draw else ""))
    return lines


def account(record: GameRecord, replay: Replay) -> list[str]:
    names = names_of(record)
    items = [_item(r) for r in replay.referee.store.read(replay.game_id)]
    return turns_in_words(items, names) + [""] + result_in_words(replay, names)
