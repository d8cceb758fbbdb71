"""What a notice says, built through the same selectors as every other read path: a seat's
channel sees what that seat may see, a game's channel the public view (the forum post the
export writes). Nothing is read from raw records here."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from games.base import PUBLIC, Viewer
from referee import selectors
from referee.models import Game

#: Chat services cut long messages (Discord at 2,000 characters): the link says the rest.
CHAT_LIMIT = 1800
#: A webhook's body stays small: a bot reads the position through the API.
JSON_LIMIT = 64 * 1024

WEBHOOK_TYPES = {"turn": "turn.started", "remind": "turn.reminder", "over": "game.over",
                 "correction": "game.corrected", "test": "notice.test"}
TITLES = {"turn": "Your turn", "remind": "Your turn ends soon", "over": "Game over",
          "correction": "A moderator's correction", "test": "Test notice"}


@dataclass(frozen=True)
class Notice:
    title: str
    text: str  # for chat services and e-mail, in the channel's markup
    data: dict[str, Any]  # the webhook's JSON ``data``


def game_url(game_id: str) -> str:
    from frontend_templates.views_export import public_url

    return public_url(f"/games/{game_id}/")


def render(*, notice: str, game_id: str | None, seat: int | None, markup: str = "markdown") -> Notice:
    if game_id is None:
        return Notice(TITLES["test"], "A test notice from the referee: this channel works.", {"test": True})
    game = Game.objects.get(pk=game_id)
    if seat is None:
        return _game_channel(game, notice, markup)
    return _seat_channel(game, notice, seat)


def _seat_channel(game: Game, notice: str, seat: int) -> Notice:
    viewer = Viewer.for_seat(seat)
    names = selectors.seat_names_get(game=game)
    clock = selectors.game_clock_get(game_id=str(game.pk))
    name, url = names.get(seat, f"seat {seat}"), game_url(str(game.pk))
    data: dict[str, Any] = {
        "game": {"id": str(game.pk), "name": game.name, "ruleset": game.ruleset, "url": url},
        "seat": seat, "seat_name": name, "seq": selectors.viewer_log_position(game_id=str(game.pk), viewer=viewer),
        "deadline": clock.get("deadline"), "waiting_for": clock.get("waiting_for") or [],
    }
    if notice == "turn":
        text = f"{name}, it is your turn in {game.name}."
    elif notice == "remind":
        text = f"{name}, your turn in {game.name} ends at {clock.get('deadline') or 'the deadline'}."
    elif notice == "over":
        data["result"] = selectors.game_result_get(game_id=str(game.pk))
        text = f"{game.name} is over. {(data['result'] or {}).get('summary', '')}".strip()
    else:  # a correction: the moderator's public notice, as this seat's log shows it
        rulings = [r for r in selectors.game_events_list(game_id=str(game.pk), viewer=viewer)
                   if r.get("type") == "ModeratorRuling"]
        reason = (rulings[-1].get("payload") or {}).get("reason", "") if rulings else ""
        data["reason"] = reason
        text = f"A moderator corrected {game.name}: {reason}"
    return Notice(f"[{game.name}] {TITLES.get(notice, notice)}", _cut(f"{text}\n{url}"), _bounded(data))


def _game_channel(game: Game, notice: str, markup: str) -> Notice:
    from frontend_templates.views_export import bbcode_text, frozen_image_url

    image = frozen_image_url(game)
    post = bbcode_text(game, image) or ""
    result = selectors.game_result_get(game_id=str(game.pk)) if notice == "over" else None
    text = post if markup == "bbcode" else bbcode_to_markdown(post)
    if result:
        text = f"{text}\n\n{result.get('summary', '')}".strip()
    data = {"game": {"id": str(game.pk), "name": game.name, "ruleset": game.ruleset, "url": game_url(str(game.pk))},
            "board_image": image, "post": post, "result": result,
            "seq": selectors.viewer_log_position(game_id=str(game.pk), viewer=PUBLIC)}
    return Notice(f"[{game.name}] {TITLES.get(notice, notice)}", _cut(text), _bounded(data))


def _cut(text: str) -> str:
    return text if len(text) <= CHAT_LIMIT else text[: CHAT_LIMIT - 1].rstrip() + "…"


def _bounded(data: dict[str, Any]) -> dict[str, Any]:
    """The post is what grows; past the limit it goes, and the link stays."""
    if len(json.dumps(data)) > JSON_LIMIT and "post" in data:
        data = {**data, "post": None, "truncated": True}
    return data


_BB = [
    (re.compile(r"\[b\](.*?)\[/b\]", re.S | re.I), r"**\1**"),
    (re.compile(r"\[i\](.*?)\[/i\]", re.S | re.I), r"_\1_"),
    (re.compile(r"\[u\](.*?)\[/u\]", re.S | re.I), r"__\1__"),
    (re.compile(r"\[s\](.*?)\[/s\]", re.S | re.I), r"~~\1~~"),
    (re.compile(r"\[url=([^\]]+)\](.*?)\[/url\]", re.S | re.I), r"[\2](\1)"),
    (re.compile(r"\[url\](.*?)\[/url\]", re.S | re.I), r"\1"),
    (re.compile(r"\[img\](.*?)\[/img\]", re.S | re.I), r"\1"),
    (re.compile(r"\[code\](.*?)\[/code\]", re.S | re.I), r"```\n\1\n```"),
    (re.compile(r"\[quote(?:=[^\]]*)?\](.*?)\[/quote\]", re.S | re.I), lambda m: "\n".join(
        "> " + line for line in m.group(1).strip().splitlines())),
    (re.compile(r"\[\*\]\s*", re.I), "- "),
    (re.compile(r"\[/?(?:list|size|color|center|font)(?:=[^\]]*)?\]", re.I), ""),
]


def bbcode_to_markdown(text: str) -> str:
    """The export's forum post in the Markdown Discord and Slack read."""
    for pattern, replacement in _BB:
        text = pattern.sub(replacement, text)  # type: ignore[arg-type]
    return text.strip()
