"""LGGWG's answers to the generic pages (``frontend_templates.plugins.RulesetPages``).
Everything is built from the position as ``view()`` gave it to the viewer and their feed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from frontend_templates import generic_text
from frontend_templates.plugins import Page, Panel, RulesetPages
from game_pages.lggwg import bbcode
from game_pages.lggwg import board_png as png
from game_pages.lggwg import board_svg as svg
from game_pages.lggwg import draft as drafts
from game_pages.lggwg import rules as rulebook
from game_pages.lggwg.narrate import narrate, step_text
from games.base import Result
from games.lggwg.board import DIRECTION_NAMES

#: What is flashed to a player after an order (the rest is in the log under the board).
ANNOUNCED = frozenset({"OrdersSubmitted", "TeamSubmitted", "TurnStarted", "TeamOut", "GameEnded"})
ORDER_KINDS = (
    ("move", "move one step (§2)"), ("fire", "targeted fire at a square (§2)"),
    ("opp", "opportunity fire (§2)"), ("oppmove", "opportunity move (§2)"), ("mine", "lay a mine (Miners, §4)"),
    ("hold", "hold (§3.3)"), ("forfeit", "forfeit: every unit dies (§2; last)"),
)
SOLDIERS = frozenset("SMPEBN")


def playing(page: Page) -> bool:
    return page.seat is not None and not page.moderator and not page.result.finished


def my_team(position: Mapping[str, Any]) -> dict[str, Any] | None:
    you = position.get("you")
    return next((t for t in position.get("teams") or [] if t.get("seat") == you), None) if you else None


def selected_step(page: Page | None) -> int | None:
    raw = (page.query.get("step", "") if page else "").strip()
    return int(raw) if raw.isdigit() else None


def steps(position: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    return [{"n": r.get("step"), "text": step_text(r, names), "colour": r.get("colour"),
             "paths": len(r.get("paths") or [])} for r in position.get("last_resolution") or []]


class LggwgPages(RulesetPages):
    ruleset: ClassVar[str] = "lggwg"
    has_board_png: ClassVar[bool] = True

    def urlpatterns(self) -> Sequence[Any]:
        from game_pages.lggwg.urls import urlpatterns

        return urlpatterns

    def board(self, position: dict[str, Any], *, title: str, page: Page | None = None) -> SafeString | None:
        if not position.get("squares"):
            return None
        step = selected_step(page)
        picture = svg.board_svg(position, title=title, step=step, standalone=False)
        if page is None:  # the replay: the picture alone
            return mark_safe(picture)  # noqa: S308 - board_svg escapes its texts
        return mark_safe(render_to_string("game_pages/lggwg/board.html", {  # noqa: S308 - autoescaped
            "svg": mark_safe(picture), "steps": steps(position, page.names), "step": step,  # noqa: S308
            "game": page.game, "turn": position.get("turn"), "colours": svg.COLOURS,
        }))

    def replay_board(
        self, position: dict[str, Any], records: Sequence[Mapping[str, Any]], *, title: str,
        before: dict[str, Any] | None = None,
    ) -> SafeString | None:
        """After a replay step: the paths of the orders this step resolved (as the viewer
        was told them), not those of an earlier resolution."""
        if not position.get("squares"):
            return None
        colours = {t.get("seat"): t.get("colour") for t in position.get("teams") or []}
        resolved = [dict((r.get("payload") or {}).get("record") or {}) for r in records
                    if r.get("type") == "OrderResolved"]
        for step in resolved:
            step["colour"] = colours.get(step.get("team"), "X")
        shown = {**position, "last_resolution": resolved}
        return mark_safe(svg.board_svg(shown, title=title, standalone=False))  # noqa: S308 - board_svg escapes

    def step_title(self, records: Sequence[Mapping[str, Any]], names: Mapping[int, str]) -> str:
        """A replay step told by what it did: whose list came in, how many orders resolved,
        the next turn or the end."""
        kinds = [r.get("type") for r in records]
        parts = []
        for r in records:
            if r.get("type") == "TeamSubmitted":
                parts.append(f"{names.get((r.get('payload') or {}).get('team'), 'a team')}'s list is in")
        resolved = kinds.count("OrderResolved")
        if resolved:
            parts.append(f"the turn resolves in {resolved} step{'s' if resolved != 1 else ''}")
        ended = next((r for r in records if r.get("type") == "GameEnded"), None)
        started = next((r for r in records if r.get("type") == "TurnStarted"), None)
        if ended is not None:
            parts.append(narrate(ended, names) or "the game is over")
        elif started is not None:
            parts.append(f"turn {(started.get('payload') or {}).get('turn')} begins")
        return "; ".join(parts) if parts else super().step_title(records, names)

    def board_svg(self, position: dict[str, Any], *, title: str) -> str | None:
        return svg.board_svg(position, title=title) if position.get("squares") else None

    def board_png(self, position: dict[str, Any]) -> bytes | None:
        return png.board_png(position) if position.get("squares") else None

    def forum_post(
        self, *, game_name: str, title: str, position: dict[str, Any], records: Sequence[Mapping[str, Any]],
        deadline: str | None, image_url: str, names: Mapping[int, str], result: Result,
        waiting_for: Sequence[int] = (),
    ) -> str:
        return bbcode.forum_post(
            game_name=game_name, title=title, position=position, records=records, deadline=deadline,
            image_url=image_url, names=names, result=result, waiting_for=waiting_for,
        )

    def board_in_words(self, position: dict[str, Any], names: Mapping[int, str]) -> list[str]:
        return svg.board_in_words(position, names)

    def status(self, page: Page) -> Panel:
        position = page.position
        names = page.names
        teams = []
        roster = position.get("roster") or []
        for t in position.get("teams") or []:
            seat = t.get("seat")
            teams.append({
                **t, "name": names.get(seat, f"seat {seat}"), "colour_code": svg.colour_of(str(t.get("colour"))),
                "units": [u for u in roster if u.get("team") == seat],
                "you": seat == page.seat,
            })
        neutral = [u for u in roster if not u.get("team")]
        order = [{"name": names.get(o["seat"], f"seat {o['seat']}"), "colour": o.get("colour"),
                  "colour_code": svg.colour_of(str(o.get("colour"))),
                  "submitted": next((t.get("submitted") for t in position.get("teams") or []
                                     if t.get("seat") == o["seat"]), False)}
                 for o in position.get("team_order") or []]
        winners = [names.get(s, f"seat {s}") for s in page.result.winners]
        mine = my_team(position)
        return Panel("game_pages/lggwg/status.html", {
            "teams": teams, "neutral": neutral, "team_order": order, "turn": position.get("turn"),
            "max_turns": position.get("max_turns"), "phase": position.get("phase"),
            "flag_game": position.get("flag_game"), "map_name": position.get("map"),
            "finished": page.result.finished, "winners": winners, "summary": page.result.summary,
            "draw": page.result.draw, "my_colour": (mine or {}).get("colour_name"),
        })

    def orders(self, page: Page) -> Panel | None:
        position = page.position
        mine = my_team(position)
        if not playing(page) or mine is None or mine.get("out") or position.get("phase") != "orders":
            return None
        sent = (position.get("orders") or {}).get(str(page.seat)) or []
        text = page.query["draft"] if "draft" in page.query else ",".join(sent)
        items, error = drafts.read(text)
        units = [u for u in position.get("units") or []
                 if u.get("team") == page.seat and u.get("type") in SOLDIERS]
        return Panel("game_pages/lggwg/orders.html", {
            "draft": drafts.write(items) if not error else text, "items": items, "error": error,
            "sent": ",".join(sent), "submitted": bool(mine.get("submitted")), "units": units,
            "kinds": ORDER_KINDS, "directions": DIRECTION_NAMES, "turn": position.get("turn"),
            "changed": ",".join(sent) != (drafts.write(items) if not error else text),
        })

    def announce(self, record: Mapping[str, Any]) -> bool:
        return record.get("type") in ANNOUNCED or record.get("kind") == "rejection"

    def narrate(self, record: Mapping[str, Any], names: Mapping[int, str]) -> str:
        return narrate(record, names) or generic_text.narrate(record, names)

    def clause_url(self, clause: str) -> str | None:
        section = rulebook.section_of(clause)
        return reverse("lggwg-rules") + f"#s{section}" if section else None


PAGES = LggwgPages()
