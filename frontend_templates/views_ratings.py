"""Ratings pages: a ruleset's ladder and a player's ratings with a small SVG graph of each
one's history (drawn here, on the server)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from referee import ratings_selectors
from referee.errors import InvalidSetting

GRAPH_W, GRAPH_H, PAD = 320, 100, 6


def ladder(request: HttpRequest, name: str) -> HttpResponse:
    try:
        page = int(request.GET.get("page") or 1)
        data = ratings_selectors.ladder_get(ruleset=name[:40], page=page)
    except (ValueError, InvalidSetting):
        raise Http404("No such page of the ladder.") from None
    except ratings_selectors.NotFound:
        raise Http404("No such ruleset.") from None
    for row in data["results"]:
        row["label"] = ratings_selectors.rating_label(row)
    return render(request, "frontend/ladder.html", {"ladder": data})


def history_points(history: list[dict[str, Any]]) -> str:
    """The polyline of a rating's history: 1000 (the start) then each game's rating after."""
    values = [1000] + [h["rating"] for h in history]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (GRAPH_W - 2 * PAD) / max(len(values) - 1, 1)
    return " ".join(
        f"{PAD + i * step:.1f},{PAD + (high - v) * (GRAPH_H - 2 * PAD) / span:.1f}" for i, v in enumerate(values)
    )


def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        data = ratings_selectors.player_ratings_get(username=username[:150])
    except ratings_selectors.NotFound:
        raise Http404("No such player.") from None
    for entry in data["ratings"]:
        entry["label"] = ratings_selectors.rating_label(entry)
        entry["points"] = history_points(entry["history"])
        for h in entry["history"]:
            h["change_text"] = ratings_selectors.change_text(h["change"])
    return render(request, "frontend/player.html", {
        "player": data, "graph_w": GRAPH_W, "graph_h": GRAPH_H,
    })
