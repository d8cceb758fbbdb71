"""The page plug-in contract: what a ruleset's own UI package may add to the generic pages.

Every method has a generic default, so a ruleset without a plug-in still gets working
pages: its ``view()`` drawn plainly (``generic_board``), one form per order type built from
its command dataclasses (``generic_forms``), its events narrated as words plus a payload
summary (``generic_text``). A plug-in subclasses ``RulesetPages``, overrides what it draws
better, and registers itself in one place: a Django app listed in INSTALLED_APPS whose
``AppConfig.ready()`` calls ``register(PAGES)``. The generic pages only ever call
``pages_for(game.ruleset)``; they never branch on a ruleset's name.

Everything a method is given comes from what the viewer may see (the position as
``view()`` gave it to them, their feed); a method must not look anything else up, so
nothing it draws or offers can depend on a secret.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from frontend_templates import generic_board, generic_forms, generic_text
from frontend_templates.generic_forms import OrderFormError
from frontend_templates.page import Page, Panel
from games.base import Result, Ruleset

__all__ = ["GENERIC", "OrderFormError", "Page", "Panel", "RulesetPages", "pages_for", "register", "registered",
           "render_panel"]


class RulesetPages:
    """The generic pages' questions to a ruleset's UI package, each with a default."""

    #: The ruleset this plug-in draws (its ``Ruleset.name``); empty for the fallback.
    ruleset: ClassVar[str] = ""
    #: Whether ``board_png`` draws anything: the pages link the forum image without
    #: drawing it first.
    has_board_png: ClassVar[bool] = False

    # --- routes -------------------------------------------------------------------------

    def urlpatterns(self) -> Sequence[Any]:
        """Extra URLs (the plug-in's own order forms post to them); ``frontend_templates.urls``
        includes every registered plug-in's patterns. Default: none, the generic order URL
        serves."""
        return ()

    # --- the board ----------------------------------------------------------------------

    def board(self, position: dict[str, Any], *, title: str, page: Page | None = None) -> SafeString | None:
        """The board picture as safe HTML (SVG or markup), or None when there is nothing to
        draw yet. ``page`` is given on the game page (the viewer's picks may highlight
        squares); the replay passes only the position. Default: the view drawn plainly."""
        return generic_board.render(position, title=title)

    def replay_board(
        self, position: dict[str, Any], records: Sequence[Mapping[str, Any]], *, title: str,
        before: dict[str, Any] | None = None,
    ) -> SafeString | None:
        """The board after a replay step, marking what the step's ``records`` (the viewer's
        feed records of that step) did; ``before`` is the board before the step, if known.
        Default: ``board`` without marks."""
        return self.board(position, title=title)

    def board_svg(self, position: dict[str, Any], *, title: str) -> str | None:
        """The board alone as an SVG document (``board.svg``), or None if the plug-in draws none."""
        return None

    def board_in_words(self, position: dict[str, Any], names: Mapping[int, str]) -> list[str]:
        """The board as sentences, for screen readers when the picture is one image to them.
        Default: none (the generic board is already words)."""
        return []

    def board_png(self, position: dict[str, Any]) -> bytes | None:
        """The board as a PNG for the forum (always given the public view), or None."""
        return None

    # --- the game page ------------------------------------------------------------------

    def status(self, page: Page) -> Panel:
        """The status panel beside the board. Default: the result, who is awaited, the deadline."""
        return generic_text.status_panel(page)

    def result(self, page: Page) -> Panel | None:
        """The result at the top of the page's main area once the game is over (None
        while it runs): who won, the places and final scores from ``Ruleset.result``, and
        how it ended (the last events, narrated by this plug-in). Default: all of that."""
        if not page.result.finished:
            return None
        return generic_text.result_panel(page, self.narrate)

    def orders(self, page: Page) -> Panel | None:
        """The order forms for the viewer's seat (None for spectators and moderators).
        Default: one form per order type, posted to the generic order URL."""
        if page.seat is None or page.result.finished or page.moderator:
            return None
        return Panel("frontend/generic/orders.html", {
            "forms": generic_forms.order_forms(page.rules), "my_turn": page.seat in page.waiting_for,
        })

    def order_from_post(self, rules: Ruleset, data: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
        """How a posted generic order form becomes (command_type, payload); raises
        ``OrderFormError`` with a sentence for the player."""
        return generic_forms.order_from_post(rules, data)

    def announce(self, record: Mapping[str, Any]) -> bool:
        """Whether a record that an order brought (in the viewer's feed) is flashed to the
        player when the page comes back. Default: every event."""
        return record.get("kind") == "event"

    # --- the create page ----------------------------------------------------------------

    def create_settings(self, rules: Ruleset, posted: Mapping[str, str]) -> Panel | None:
        """Fields for the ruleset's own settings on the create page (an arena's size, a tick
        cap), refilled from ``posted``; None for none. The turn limit has its own field
        there: a clock the settings carry is set from it (``Ruleset.clock_settings``)."""
        return None

    def settings_from_post(self, rules: Ruleset, posted: Mapping[str, str]) -> dict[str, Any]:
        """The posted create form's own fields as raw settings (``parse_settings`` still has
        the last word); raises ``OrderFormError`` with a sentence. Default: no settings."""
        return {}

    # --- the join page ------------------------------------------------------------------

    def signup(self, game: Any, rules: Ruleset, posted: Mapping[str, str]) -> Panel | None:
        """The sign-up order's form on the join page (a shopping list, a secret pick), or None."""
        return None

    def signup_order(self, game: Any, rules: Ruleset, posted: Mapping[str, str]) -> dict[str, Any] | None:
        """The private order a seat joins with ({"type", "payload"}), or None; may raise
        ``RuleViolation`` to refuse the form before the seat is taken."""
        return None

    def joined_note(self) -> str:
        """A sentence added to "You joined ..." (what happens to the sign-up order)."""
        return ""

    # --- words --------------------------------------------------------------------------

    def narrate(self, record: Mapping[str, Any], names: Mapping[int, str]) -> str:
        """One plain-English line for a feed record, with seat names."""
        return generic_text.narrate(record, names)

    def step_title(self, records: Sequence[Mapping[str, Any]], names: Mapping[int, str]) -> str:
        """A replay step's heading from what the viewer saw of it (an opponent's order is
        titled by what it did, not "Order"). Default: the first event narrated."""
        for record in records:
            if record.get("kind") in ("event", "notice"):
                return self.narrate(record, names)
        return ""

    # --- moderators ---------------------------------------------------------------------

    def correction(self, position: dict[str, Any], names: Mapping[int, str], posted: Mapping[str, str]) -> Panel | None:
        """The correction form of the audit page (``position`` is the moderator's view), or
        None for the generic one (an order type and its fields as JSON)."""
        return None

    def correction_from_post(self, position: dict[str, Any], data: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
        """A posted correction form -> (command_type, payload); raises ``OrderFormError``
        with a sentence for the moderator. The ruleset's ``decide`` still has the last word."""
        raise OrderFormError("This game has no correction form of its own: give the order type and its fields.")

    def clause_url(self, clause: str) -> str | None:
        """Where the text of a rulebook clause like "§7" can be read, or None."""
        return None

    def forum_post(
        self, *, game_name: str, title: str, position: dict[str, Any], records: Sequence[Mapping[str, Any]],
        deadline: str | None, image_url: str, names: Mapping[int, str], result: Result,
        waiting_for: Sequence[int] = (),
    ) -> str:
        """The BBCode post for the forum thread, from the public view and the public log
        only. Default: the last events narrated, then the result or whose turn it is."""
        return generic_text.forum_post(
            self, game_name=game_name, title=title, records=records, deadline=deadline, image_url=image_url,
            names=names, result=result, waiting_for=waiting_for,
        )


GENERIC = RulesetPages()
_REGISTRY: dict[str, RulesetPages] = {}


def register(pages: RulesetPages) -> RulesetPages:
    """Called from a plug-in app's ``AppConfig.ready()``; one plug-in per ruleset name."""
    if not pages.ruleset:
        raise ValueError("a page plug-in names the ruleset it draws")
    known = _REGISTRY.get(pages.ruleset)
    if known is not None and type(known) is not type(pages):
        raise ValueError(f"two page plug-ins for {pages.ruleset!r}: {type(known).__name__}, {type(pages).__name__}")
    _REGISTRY[pages.ruleset] = pages
    return pages


def pages_for(ruleset_name: str) -> RulesetPages:
    """The ruleset's plug-in, or the generic fallback."""
    return _REGISTRY.get(ruleset_name, GENERIC)


def registered() -> tuple[RulesetPages, ...]:
    return tuple(_REGISTRY[name] for name in sorted(_REGISTRY))


def render_panel(request: HttpRequest, panel: Panel | None, **base: Any) -> SafeString | None:
    """A panel as HTML; ``base`` (the game, the page) comes first, the panel's own context wins."""
    if panel is None:
        return None
    return mark_safe(render_to_string(panel.template, {**base, **panel.context}, request=request))  # noqa: S308 - a template render, autoescaped
