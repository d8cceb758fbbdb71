"""What the panels show, computed from the viewer's position (and, for the live feed, the
viewer's own log): the bots' table, the tick and its deadline, the podium, the move pad."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from game_pages.parties.board_svg import colour
from game_pages.parties.narrate import DIRECTION_WORDS, NOTABLE, POLICY_WORDS, narrate
from games.base import Result
from games.parties.bot import legal_moves

TROPHIES = (("1st", "🥇", "gold"), ("2nd", "🥈", "silver"), ("3rd", "🥉", "bronze"))
#: the move pad, row by row as on a compass
PAD = (("NW", "N", "NE"), ("W", "stay", "E"), ("SW", "S", "SE"))


def when(ms: Any) -> str | None:
    """An epoch-ms instant as ISO 8601 (the countdown script reads it)."""
    if not isinstance(ms, int) or ms <= 0:
        return None
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).isoformat()


def clock_time(ms: Any) -> str:
    """An epoch-ms instant as the page says it without JavaScript ("16:05:10 UTC")."""
    if not isinstance(ms, int) or ms <= 0:
        return ""
    return f"{dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC):%H:%M:%S} UTC"


def name_of(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, f"bot {seat}")


def bot_rows(position: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Every bot, best first (score, then strength: the ranking's order)."""
    rows = []
    for bot in position.get("bots") or []:
        seat = int(bot["seat"])
        rows.append({
            "seat": seat, "name": name_of(names, seat), "colour": colour(seat), "square": bot.get("square"),
            "strength": bot.get("strength"), "score": bot.get("score"), "role": bot.get("role"),
            "party": name_of(names, bot["party"]) if bot.get("party") else "",
            "moved": bool(bot.get("moved")), "you": seat == position.get("you"),
        })
    rows.sort(key=lambda r: (-(r["score"] or 0), -(r["strength"] or 0), r["seat"]))
    return rows


def podium(result: Result, position: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """The first three places with their trophies; tied bots share a place (P-R18)."""
    if not result.finished:
        return []
    bots = {int(b["seat"]): b for b in position.get("bots") or []}
    places = []
    for (label, medal, metal), place in zip(TROPHIES, result.ranking, strict=False):
        places.append({
            "label": label, "medal": medal, "metal": metal,
            "bots": [{"seat": s, "name": name_of(names, s), "colour": colour(s),
                      "score": bots.get(s, {}).get("score"), "strength": bots.get(s, {}).get("strength")}
                     for s in place],
        })
    return places


def how_it_ended(position: Mapping[str, Any]) -> str:
    if not position.get("finished"):
        return ""
    if position.get("end_reason") == "united":
        return "Game over: all bots are united in one party."
    return f"Game over: tick {position.get('max_ticks')}, the tick cap, was played (P-R5)."


def tick_info(position: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "tick": position.get("tick") or 0, "max_ticks": position.get("max_ticks"),
        "tick_seconds": (position.get("tick_ms") or 0) // 1000,
        "deadline": None if position.get("finished") else when(position.get("tick_deadline_ms")),
        "deadline_words": clock_time(position.get("tick_deadline_ms")),
        "to_act": list(position.get("to_act") or []),
    }


def feed_lines(records: Sequence[Mapping[str, Any]], names: Mapping[int, str], limit: int = 14) -> list[dict[str, Any]]:
    """The latest notable records narrated, newest first (bot steps are on the board)."""
    notable = [r for r in records if r.get("kind") == "event" and r.get("type") in NOTABLE]
    return [{"seq": r["seq"], "type": r["type"], "text": narrate(r, names)} for r in notable[-limit:]][::-1]


def move_pad(position: Mapping[str, Any], seat: int | None, names: Mapping[int, str]) -> dict[str, Any]:
    """The nine buttons for a seat that chooses this tick (a follower's leader chooses, §4.1)."""
    bots = {int(b["seat"]): b for b in position.get("bots") or []}
    me = bots.get(seat) if seat is not None else None
    if me is None or position.get("finished") or not position.get("tick"):
        return {"can_move": False, "me": me}
    chooses = me.get("role") in ("solo", "leader")
    legal = set(legal_moves(dict(position), me)) | {"stay"}
    pad = [[{"direction": d, "words": DIRECTION_WORDS[d], "legal": d in legal} for d in row] for row in PAD]
    chosen = (position.get("pending") or {}).get(str(seat))
    return {
        "can_move": chooses, "me": me, "pad": pad, "chosen": chosen,
        "chosen_words": DIRECTION_WORDS.get(chosen, "") if chosen else "",
        "leader": name_of(names, me["party"]) if me.get("party") and not chooses else "",
        "policy": me.get("ally_policy", "always"),
        "policies": [{"value": k, "words": v} for k, v in POLICY_WORDS.items()],
        "state": f"{position.get('tick')}-{chosen or ''}-{me.get('ally_policy', '')}-{me.get('role')}",
    }


def in_words(position: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    lines = [f"Tick {position.get('tick') or 0} of at most {position.get('max_ticks')}; "
             f"the arena is {position.get('width')} by {position.get('height')} squares."]
    for row in bot_rows(position, names):
        party = f", in the party of {row['party']}" if row["party"] else ""
        lines.append(f"{row['name']} ({row['role']}{party}) stands on {row['square']}: strength "
                     f"{row['strength']}, score {row['score']}.")
    return lines
