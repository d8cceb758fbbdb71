"""Wormlord's answers to the generic pages (``frontend_templates.plugins.RulesetPages``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from frontend_templates import generic_text
from frontend_templates.plugins import Page, Panel, RulesetPages
from game_pages.wormlord import board_svg as svg
from game_pages.wormlord import live
from game_pages.wormlord.bbcode import forum_post
from game_pages.wormlord.board_png import board_png
from game_pages.wormlord.live import now_ms
from game_pages.wormlord.narrate import narrate
from games.base import Result

#: What is flashed to the player after an order (the rest streams into the board's list).
ANNOUNCED = frozenset({"KnotLiberated", "KnotPlaced", "HeadquartersPlaced", "HeadquartersLifted", "RoundWon",
                       "RoundTied", "GameWon"})
COLOURS = ("pink", "blue", "yellow", "brown")


def playing(page: Page) -> bool:
    return page.seat is not None and not page.moderator and not page.result.finished


class WormlordPages(RulesetPages):
    ruleset: ClassVar[str] = "wormlord"
    has_board_png: ClassVar[bool] = True

    def urlpatterns(self) -> Sequence[Any]:
        from game_pages.wormlord.urls import urlpatterns

        return urlpatterns

    def board(self, position: dict[str, Any], *, title: str, page: Page | None = None) -> SafeString | None:
        if not position.get("squares"):
            return None  # not set up yet
        if page is None:  # the replay: the picture alone
            return mark_safe(svg.board_svg(position, title=title))  # noqa: S308 - board_svg escapes its texts
        game_id = str(page.game.pk)
        inner = live.fragment(position, title=title, names=page.names, seat=page.seat, seq=page.seq,
                              now_ms=now_ms(), playing=playing(page))
        return mark_safe(render_to_string("game_pages/wormlord/board.html", {  # noqa: S308 - autoescaped
            "inner": inner, "game_id": game_id, "live_url": live.live_url(game_id), "seq": page.seq,
            "urls": live.api_urls(game_id), "title": title,
        }))

    def board_svg(self, position: dict[str, Any], *, title: str) -> str | None:
        return svg.board_svg(position, title=title) if position.get("squares") else None

    def board_png(self, position: dict[str, Any]) -> bytes | None:
        return board_png(position) if position.get("squares") else None

    def board_in_words(self, position: dict[str, Any], names: Mapping[int, str]) -> list[str]:
        return svg.board_in_words(position, names)

    def status(self, page: Page) -> Panel:
        position = page.position
        colour = svg.my_colour(position, page.seat)
        timing = position.get("timing") or {}
        winners = [page.names.get(s, f"seat {s}") for s in page.result.winners]
        return Panel("game_pages/wormlord/status.html", {
            "colour": colour, "map": position.get("map") or {}, "timing": timing,
            "interval_s": (timing.get("knot_interval_ms") or 0) / 1000,
            "untie_s": (timing.get("untie_ms") or 0) / 1000,
            "round_s": (timing.get("round_ms") or 0) // 1000,
            "teammates": [page.names.get(t, f"seat {t}")
                          for t in ((position.get("seats") or {}).get(str(page.seat)) or {}).get("teammates", [])],
            "finished": page.result.finished, "winners": ", ".join(winners), "summary": page.result.summary,
        })

    def orders(self, page: Page) -> Panel | None:
        if not playing(page) or not page.position.get("squares"):
            return None
        square = page.query.get("square", "").strip().lower()
        spaces = {s["square"]: s for s in page.position.get("squares", [])}
        seen = ((spaces.get(square) or {}).get("knot") or {}).get("colour", "")
        colour = svg.my_colour(page.position, page.seat)
        teams = any(len(s.get("seats", [])) > 1 for s in page.position.get("sides", []))
        return Panel("game_pages/wormlord/orders.html", {
            "square": square if square in spaces else "", "owner": seen if seen != colour else "",
            "colours": [c for c in COLOURS if c != colour and any(s["colour"] == c for s in page.position["sides"])],
            "colour": colour, "teams": teams,
        })

    def announce(self, record: Mapping[str, Any]) -> bool:
        return record.get("type") in ANNOUNCED

    def narrate(self, record: Mapping[str, Any], names: Mapping[int, str]) -> str:
        return narrate(record, names) or generic_text.narrate(record, names)

    def forum_post(
        self, *, game_name: str, title: str, position: dict[str, Any], records: Sequence[Mapping[str, Any]],
        deadline: str | None, image_url: str, names: Mapping[int, str], result: Result,
        waiting_for: Sequence[int] = (),
    ) -> str:
        """A real-time game has no deadline or seat awaited: the post tells the round instead."""
        return forum_post(game_name=game_name, title=title, position=position, records=records,
                          image_url=image_url, names=names, result=result,
                          narrate=lambda r: self.narrate(r, names))


PAGES = WormlordPages()
