"""Worms' answers to the generic pages (``frontend_templates.plugins.RulesetPages``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from frontend_templates.plugins import OrderFormError, Page, Panel, RulesetPages
from game_pages.worms import corrections, signup, ui
from game_pages.worms.bbcode import forum_post
from game_pages.worms.board_png import board_png
from game_pages.worms.board_scene import Highlights
from game_pages.worms.board_svg import board_svg
from game_pages.worms.marks import last_action, marks_from
from game_pages.worms.narrate import narrate
from games.base import Result, Ruleset

#: What is flashed to the player after an order (the rest is in the log below).
ANNOUNCED = frozenset({"ItemsGained", "CrateCollected", "WormDamaged", "WormDied", "MineExploded",
                       "TurnEnded", "ItemsLost", "WeaponFired", "Exploded", "DrumExploded", "WormHealed",
                       "TeamEliminated", "GameWon", "GameDrawn", "DynamitePlaced"})


def play_context(position: dict[str, Any], seat: int | None, worm_id: str, weapon: str) -> dict[str, Any]:
    """The controls for the seat to act (empty if it is not this viewer's turn)."""
    my_turn = (
        seat is not None and position.get("phase") == "playing" and position.get("seat") == seat
        and position.get("stage") == "acting"
    )
    ctx: dict[str, Any] = {"my_turn": my_turn, "inventory": ui.inventory_of(position, seat)}
    if not my_turn or seat is None:
        return ctx
    if weapon and weapon not in {s["item"] for s in ctx["inventory"]}:
        weapon = ""  # its last round is spent (the page's address still names it): no Fire form to refuse
    worms = ui.worms_that_may_act(position, seat)
    ids = [w["id"] for w in worms]
    if worm_id not in ids:
        worm_id = ids[0] if ids else ""
    ctx.update({"worms": worms, "worm": worm_id, "weapon": weapon})
    if worm_id:
        ctx["reach"] = ui.reach(position, worm_id)
        ctx["steps"] = ui.next_steps(position, worm_id)
        ctx["moves_left"] = ui.moves_left(position, worm_id)
        if weapon:
            ctx["aim"] = ui.aim_window(position, worm_id, weapon)
    return ctx


def _play(page: Page) -> dict[str, Any]:
    return play_context(page.position, page.seat, page.query.get("worm", ""), page.query.get("weapon", ""))


class WormsPages(RulesetPages):
    ruleset: ClassVar[str] = "worms"
    has_board_png: ClassVar[bool] = True

    def urlpatterns(self) -> Sequence[Any]:
        from game_pages.worms.urls import urlpatterns

        return urlpatterns

    def board(self, position: dict[str, Any], *, title: str, page: Page | None = None) -> SafeString | None:
        if not any(position.get("heights") or ()):
            return None  # before the map is made there is no board to draw (not an all-water one)
        highlights = None
        focus = None
        if page is not None:
            play = _play(page)
            aim = play.get("aim")
            marks = marks_from(last_action(list(page.recent)), position, page.before)
            highlights = Highlights(selected=play.get("worm", ""), reach=play.get("reach", {}),
                                    targets=aim.targets if aim else {}, marks=marks)
            worm = next((w for w in position.get("worms", []) if w["id"] == play.get("worm")), None)
            focus = (worm["x"], worm["y"]) if worm else (marks.trail[-1] if marks.trail else None)
        return mark_safe(board_svg(position, highlights, title=title,  # noqa: S308 - board_svg escapes every text it draws
                                   described_by="board-in-words", focus=focus))

    def replay_board(
        self, position: dict[str, Any], records: Sequence[Mapping[str, Any]], *, title: str,
        before: dict[str, Any] | None = None,
    ) -> SafeString | None:
        if not any(position.get("heights") or ()):
            return None
        marks = marks_from(list(records), position, before)
        return mark_safe(board_svg(position, Highlights(marks=marks), title=title))  # noqa: S308 - escaped

    def board_svg(self, position: dict[str, Any], *, title: str) -> str | None:
        return board_svg(position, title=title) if position.get("heights") else None

    def board_in_words(self, position: dict[str, Any], names: Mapping[int, str]) -> list[str]:
        return ui.board_in_words(position)

    def board_png(self, position: dict[str, Any]) -> bytes | None:
        return board_png(position) if position.get("heights") else None

    def status(self, page: Page) -> Panel:
        position, names = page.position, page.names
        winners = [names.get(s, f"seat {s}") for s in page.result.winners]
        return Panel("game_pages/worms/status.html", {
            "sudden_death_in": ui.rounds_before_sudden_death(position),
            "finished": page.result.finished,
            "winner": ", ".join(winners) if winners else None,
            "to_act": names.get(position.get("seat"), "—") if position.get("phase") == "playing" else "—",
            "teams": [
                {**t, "colour": ui.team_colour(t["letter"]),
                 "known_inventory": ui.describe_items(t["inventory"]) if t.get("inventory") is not None else None,
                 "worms": [w for w in position.get("worms", []) if w["seat"] == t["seat"]]}
                for t in position.get("teams", [])
            ],
            "inventory": ui.inventory_of(position, page.seat),
        })

    def orders(self, page: Page) -> Panel | None:
        if page.seat is None:
            return None
        return Panel("game_pages/worms/controls.html", _play(page))

    def announce(self, record: Mapping[str, Any]) -> bool:
        return record.get("type") in ANNOUNCED

    def signup(self, game: Any, rules: Ruleset, posted: Mapping[str, str]) -> Panel | None:
        return signup.panel(game.max_seats, posted)

    def signup_order(self, game: Any, rules: Ruleset, posted: Mapping[str, str]) -> dict[str, Any] | None:
        return signup.order(game.max_seats, posted)

    def joined_note(self) -> str:
        return "Your shopping list stays private."

    def narrate(self, record: Mapping[str, Any], names: Mapping[int, str]) -> str:
        return narrate(dict(record), dict(names))

    def clause_url(self, clause: str) -> str | None:
        section = ui.section_of(clause)
        return reverse("worms-rules") + f"#s{section}" if section else None

    def correction(self, position: dict[str, Any], names: Mapping[int, str], posted: Mapping[str, str]) -> Panel | None:
        return corrections.panel(position, names, posted)

    def correction_from_post(self, position: dict[str, Any], data: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
        try:
            return corrections.order(position, data)
        except corrections.CorrectionError as exc:
            raise OrderFormError(str(exc)) from None

    def forum_post(
        self, *, game_name: str, title: str, position: dict[str, Any], records: Sequence[Mapping[str, Any]],
        deadline: str | None, image_url: str, names: Mapping[int, str], result: Result,
        waiting_for: Sequence[int] = (),
    ) -> str:
        return forum_post(game_name=game_name, position=position, records=[dict(r) for r in records],
                          deadline=deadline, image_url=image_url, result=result)


PAGES = WormsPages()
