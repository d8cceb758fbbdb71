"""The live part of the game page: the board, the clocks and the sides, as one fragment
(``templates/game_pages/wormlord/live.html``) that the page's script re-fetches from
``games/<id>/wormlord/live/`` whenever the viewer's feed has a new record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils.safestring import SafeString, mark_safe

from game_pages.wormlord.board_svg import COLOURS, INK, board_svg, my_colour
from game_pages.wormlord.narrate import clock_time
from referee import clock


def api_urls(game_id: str) -> dict[str, str]:
    """The feed URLs the script listens to: the stream if this server has one, else ''
    (the script then long-polls the events)."""
    stream = f"/api/games/{game_id}/stream/"
    try:
        resolve(stream)
    except Resolver404:
        stream = ""
    return {"stream": stream, "events": f"/api/games/{game_id}/events/"}


def phase_words(position: Mapping[str, Any]) -> str:
    phase = position.get("phase")
    rnd = position.get("round")
    if phase == "waiting":
        return "Round 1 is about to be set up."
    if phase == "running":
        return f"Round {rnd}: 3, 2, 1, NOW! at {clock_time(position.get('starts_at_ms'))}."
    if phase == "break":
        nxt = position.get("next_round_at_ms")
        return f"Round {rnd} is over; round {rnd + 1 if rnd else 1} is set up at {clock_time(nxt)}." if nxt \
            else f"Round {rnd} is over."
    if phase == "over":
        return "The game is over."
    return ""


def sides(position: Mapping[str, Any], names: Mapping[int, str], seat: int | None) -> list[dict[str, Any]]:
    out = []
    for s in position.get("sides", []):
        out.append({
            **s, "fill": COLOURS.get(s["colour"], "#ccc"), "ink": INK.get(s["colour"], "#000"),
            "players": " and ".join(names.get(n, f"seat {n}") for n in s["seats"]),
            "mine": seat in s["seats"], "next_at": clock_time(s["next_at_ms"]) if s["next_at_ms"] else "",
        })
    return out


def fragment(position: Mapping[str, Any], *, title: str, names: Mapping[int, str], seat: int | None, seq: int,
             now_ms: int, recent: Sequence[str] = (), playing: bool = False) -> SafeString:
    """The live fragment as HTML (the ``<div id="wl-live">``)."""
    colour = my_colour(position, seat)
    mine = next((s for s in position.get("sides", []) if s["colour"] == colour), None)
    return mark_safe(render_to_string("game_pages/wormlord/live.html", {  # noqa: S308 - an autoescaped template
        "position": position, "seq": seq, "now_ms": now_ms, "phase": phase_words(position),
        "svg": mark_safe(board_svg(position, title=title, names=names, seat=seat, clickable=playing)),  # noqa: S308
        "sides": sides(position, names, seat), "recent": list(recent), "colour": colour, "mine": mine,
        "starts": clock_time(position.get("starts_at_ms")) if position.get("starts_at_ms") else "",
        "ends": clock_time(position.get("ends_at_ms")) if position.get("ends_at_ms") else "",
        "next_round": clock_time(position.get("next_round_at_ms")) if position.get("next_round_at_ms") else "",
        "next_knot": clock_time(mine["next_at_ms"]) if mine and mine["next_at_ms"] else "",
    }))


def live_url(game_id: str) -> str:
    return reverse("wormlord-live", args=[game_id])


def now_ms() -> int:
    return int(clock.now().timestamp() * 1000)
