"""Parties' answers to the generic pages (``frontend_templates.plugins.RulesetPages``).

The game page's board, status and move pad are three blocks (``#parties-board``,
``#parties-status``, ``#parties-orders``) that a small script re-fetches from the
fragment route ``games/<id>/parties/live/`` whenever the viewer's stream (``GET
/api/games/<id>/stream/``) or, without EventSource, the long-poll brings a record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, ClassVar

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from frontend_templates.plugins import Page, Panel, RulesetPages
from game_pages.parties import create, ui
from game_pages.parties.bbcode import forum_post
from game_pages.parties.board_png import board_png
from game_pages.parties.board_svg import board_svg
from game_pages.parties.narrate import narrate
from games.base import MODERATOR_VIEW, PUBLIC, Result, Ruleset, Viewer

#: What is flashed to a player after their order: not their own chosen move, which the move
#: pad shows for the tick in play (a flash would stay beside the next tick's pad).
ANNOUNCED = frozenset({"AllyPolicySet", "TickClosed", "BattleFought", "AllianceFormed",
                       "PartyJoined", "GameEnded"})

#: How many of the viewer's latest records the "what happened" list looks through.
FEED_WINDOW = 200

LIVE_SCRIPT = """<script>
// Redraws the arena without a reload: every record of this viewer's stream (or of the
// long-poll where EventSource is missing) re-fetches the fragment and swaps the blocks.
(function () {
  var root = document.getElementById("parties-board");
  if (!root || !root.dataset.live || window.partiesLive) return;
  // A game page that refreshes itself (a generic #live block with its own feed) needs no
  // second stream: the fragment route stays for pages and tools without it.
  var generic = document.getElementById("live");
  if (generic && generic.contains(root) && generic.hasAttribute("data-stream")) return;
  window.partiesLive = true;
  var fragment = root.dataset.live, stream = root.dataset.stream, feed = root.dataset.feed;
  var after = parseInt(root.dataset.seq, 10) || 0, busy = false, again = false, source = null;
  function swap(doc, id, always) {
    var fresh = doc.getElementById(id), old = document.getElementById(id);
    if (!fresh && old && !always) old.remove();  // the game is over: no more move pad
    if (!fresh || !old) return;
    if (always || fresh.dataset.state !== old.dataset.state) old.replaceWith(fresh);
  }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(fragment, {credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      swap(doc, "parties-board", true); swap(doc, "parties-status", true); swap(doc, "parties-orders", false);
      var board = document.getElementById("parties-board");
      if (board && board.dataset.finished === "1" && source) { source.close(); source = null; }
      document.dispatchEvent(new CustomEvent("parties:refreshed"));
    }).catch(function () {}).finally(function () {
      busy = false;
      if (again) { again = false; setTimeout(refresh, 100); }
    });
  }
  if (root.dataset.finished === "1") return;
  if (window.EventSource && stream) {
    source = new EventSource(stream);
    source.addEventListener("record", function (e) { after = parseInt(e.lastEventId, 10) || after; refresh(); });
  } else if (feed) {
    (function poll() {
      fetch(feed + (feed.indexOf("?") < 0 ? "?" : "&") + "after=" + after + "&wait=20", {credentials: "same-origin"})
        .then(function (r) { return r.json(); })
        .then(function (data) { if (data.events && data.events.length) { after = data.next_after; refresh(); } })
        .catch(function () {}).finally(function () {
          var board = document.getElementById("parties-board");
          if (!board || board.dataset.finished !== "1") setTimeout(poll, 300);
        });
    })();
  }
})();
</script>"""


def viewer_of(page: Page) -> Viewer:
    """The viewer the page was built for (its feed is theirs to read)."""
    if page.moderator:
        return MODERATOR_VIEW
    return Viewer.for_seat(page.seat) if page.seat is not None else PUBLIC


def live_attrs(page: Page) -> str:
    game_id = str(page.game.pk)
    query = "?as=moderator" if page.moderator else ""
    stream = f"/api/games/{game_id}/stream/?after={page.seq}" + ("&as=moderator" if page.moderator else "")
    feed = f"/api/games/{game_id}/events/{query}"
    return (f' data-live="{escape(reverse("parties-live", args=[game_id]) + query)}" data-stream="{escape(stream)}"'
            f' data-feed="{escape(feed)}" data-seq="{int(page.seq)}"')


def board_block(position: dict[str, Any], *, title: str, page: Page | None) -> str:
    names = page.names if page is not None else {}
    finished = "1" if position.get("finished") else "0"
    attrs = live_attrs(page) if page is not None else ""
    return (f'<div id="parties-board" data-finished="{finished}" data-tick="{int(position.get("tick") or 0)}"{attrs}>'
            + board_svg(position, title=title, names=names) + "</div>"
            + (LIVE_SCRIPT if page is not None else ""))


class PartiesPages(RulesetPages):
    ruleset: ClassVar[str] = "parties"
    has_board_png: ClassVar[bool] = True

    def urlpatterns(self) -> Sequence[Any]:
        from game_pages.parties.urls import urlpatterns

        return urlpatterns

    def create_settings(self, rules: Ruleset, posted: Mapping[str, str]) -> Panel | None:
        return create.panel(posted)

    def settings_from_post(self, rules: Ruleset, posted: Mapping[str, str]) -> dict[str, Any]:
        return create.settings_from_post(posted)

    def board(self, position: dict[str, Any], *, title: str, page: Page | None = None) -> SafeString | None:
        if not position.get("terrain"):
            return None  # before set-up there is no arena to draw
        return mark_safe(board_block(position, title=title, page=page))  # noqa: S308 - board_svg escapes every text

    def board_svg(self, position: dict[str, Any], *, title: str) -> str | None:
        return board_svg(position, title=title) if position.get("terrain") else None

    def board_png(self, position: dict[str, Any]) -> bytes | None:
        return board_png(position) if position.get("terrain") else None

    def board_in_words(self, position: dict[str, Any], names: Mapping[int, str]) -> list[str]:
        return ui.in_words(position, names) if position.get("terrain") else []

    def status(self, page: Page) -> Panel:
        from referee import selectors

        # Only the end of the viewer's feed: a long game has thousands of records.
        records = selectors.game_events_list(game_id=str(page.game.pk), viewer=viewer_of(page),
                                             after=max(0, page.seq - FEED_WINDOW))
        return Panel("game_pages/parties/status.html", {
            **ui.tick_info(page.position),
            "finished": page.result.finished,
            # how it ended in the players' names (the ruleset's summary says "bot 1")
            "summary": ui.how_it_ended(page.position),
            "end_reason": page.position.get("end_reason"),
            "bots": ui.bot_rows(page.position, page.names),
            "podium": ui.podium(page.result, page.position, page.names),
            "feed": ui.feed_lines(records, page.names),
            "waiting": [ui.name_of(page.names, s) for s in page.position.get("to_act") or []],
            "state": f"{page.seq}",
        })

    def orders(self, page: Page) -> Panel | None:
        if page.seat is None or page.moderator or page.result.finished:
            return None
        return Panel("game_pages/parties/controls.html", ui.move_pad(page.position, page.seat, page.names))

    def announce(self, record: Mapping[str, Any]) -> bool:
        return record.get("type") in ANNOUNCED

    def narrate(self, record: Mapping[str, Any], names: Mapping[int, str]) -> str:
        return narrate(record, names)

    def forum_post(
        self, *, game_name: str, title: str, position: dict[str, Any], records: Sequence[Mapping[str, Any]],
        deadline: str | None, image_url: str, names: Mapping[int, str], result: Result,
        waiting_for: Sequence[int] = (),
    ) -> str:
        return forum_post(game_name=game_name, title=title, position=position, records=records,
                          image_url=image_url, names=names, result=result)


PAGES = PartiesPages()
