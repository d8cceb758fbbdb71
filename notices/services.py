"""Writes: a player's channels and preferences, a bot's webhook (its secret shown once), a
game's or a league's channel, a test notice. Every URL is checked when saved (and again at each send)."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from notices import guard, record, send
from notices.models import NOTICES, Channel, Delivery
from referee import clock
from referee.errors import GameNotFound, InvalidSetting, SeatError
from referee.models import Game, League

MAX_CHANNELS = 10
GAME_NOTICES = ("turn", "over", "correction")


def _wants(raw: Sequence[str], allowed: Sequence[str] = NOTICES) -> list[str]:
    unknown = [w for w in raw if w not in allowed]
    if unknown:
        raise InvalidSetting(f"Unknown notice {unknown[0]!r}: choose from {', '.join(allowed)}.")
    return [w for w in allowed if w in raw]


def _checked(url: str) -> str:
    try:
        send.apprise_plugin(url)
    except guard.Refused as exc:
        raise InvalidSetting(str(exc), field="url") from exc
    return url.strip()


@transaction.atomic
def player_notices_set(*, user: AbstractBaseUser, email: Sequence[str], channels: Sequence[dict[str, Any]]) -> None:
    """The player's e-mail notices and their chat channels, as a whole: channels kept by
    URL (with their delivery log), new ones added, the others removed. Webhooks are kept."""
    email_wants = _wants(email)
    if len(channels) > MAX_CHANNELS:
        raise InvalidSetting(f"At most {MAX_CHANNELS} channels.")
    wanted = {_checked(c["url"]): (_wants(c.get("wants", ["turn", "remind"])), c.get("label", "")[:60])
              for c in channels}
    mine = Channel.objects.select_for_update().filter(owner=user, scope=Channel.Scope.PLAYER)
    Channel.objects.update_or_create(owner=user, scope=Channel.Scope.PLAYER, kind=Channel.Kind.EMAIL,
                                     defaults={"wants": email_wants})
    kept = set()
    for channel in mine.filter(kind=Channel.Kind.APPRISE):
        if channel.url in wanted:
            channel.wants, channel.label = wanted[channel.url]
            channel.save(update_fields=["wants", "label"])
            kept.add(channel.url)
        else:
            channel.delete()
    for url, (wants, label) in wanted.items():
        if url not in kept:
            Channel.objects.create(owner=user, kind=Channel.Kind.APPRISE, url=url, wants=wants,
                                   label=label or send.service_name(url))


@transaction.atomic
def webhook_create(*, user: AbstractBaseUser, url: str, wants: Sequence[str], label: str = "") -> tuple[Channel, str]:
    """A bot's endpoint. Returns it with its signing secret: the only time it is shown."""
    try:
        guard.http_url_check(url)
    except guard.Refused as exc:
        raise InvalidSetting(str(exc), field="url") from exc
    if Channel.objects.filter(owner=user, scope=Channel.Scope.PLAYER).count() >= MAX_CHANNELS + 1:
        raise InvalidSetting(f"At most {MAX_CHANNELS} channels.")
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    channel = Channel.objects.create(owner=user, kind=Channel.Kind.WEBHOOK, url=url.strip(), secret=secret,
                                     wants=_wants(wants), label=label[:60] or "webhook")
    return channel, secret


def _own(user: AbstractBaseUser, channel_id: str) -> Channel:
    channel = Channel.objects.filter(pk=channel_id if _is_uuid(channel_id) else None, owner=user).first()
    if channel is None:
        raise GameNotFound("You have no such channel.")
    return channel


def _is_uuid(text: str) -> bool:
    import uuid

    try:
        uuid.UUID(str(text))
    except ValueError:
        return False
    return True


@transaction.atomic
def channel_delete(*, user: AbstractBaseUser, channel_id: str) -> None:
    _own(user, channel_id).delete()


@transaction.atomic
def channel_enable(*, user: AbstractBaseUser, channel_id: str) -> Channel:
    """On again after it was switched off (the owner says it works now)."""
    channel = _own(user, channel_id)
    channel.enabled, channel.disabled_reason = True, ""
    channel.save(update_fields=["enabled", "disabled_reason"])
    return channel


@transaction.atomic
def test_notice_send(*, user: AbstractBaseUser, channel_id: str) -> Delivery:
    """A test notice to one of the player's channels, sent by the notices worker (the
    delivery shows in the channel's log)."""
    channel = _own(user, channel_id)
    now = clock.now()
    row = Delivery.objects.create(channel=channel, notice="test", key=f"test@{now.isoformat()}",
                                  next_attempt_at=now, created_at=now)
    _send_soon(str(row.pk))
    return row


def _send_soon(delivery_id: str) -> None:
    from celery import current_app as celery_app  # the project's (config.celery)

    if celery_app.conf.task_always_eager:
        from notices import delivery

        transaction.on_commit(lambda: delivery.send_due(only=delivery_id))
    else:
        record.nudge_after_commit()


def _game_for(game_id: str, user: AbstractBaseUser) -> Game:
    game = Game.objects.filter(pk=game_id if _is_uuid(game_id) else None).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    if not (user.is_staff or game.created_by_id == user.pk):  # type: ignore[attr-defined]
        raise SeatError("Only the game's creator or a moderator sets its channel.")
    return game


def _league_for(league_id: int, user: AbstractBaseUser) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise GameNotFound("There is no such league.")
    # Only moderators create leagues: a league's creator is a moderator.
    if not user.is_staff:  # type: ignore[attr-defined]
        raise SeatError("Only a moderator sets a league's channel.")
    return league


def _public_channel_replace(*, user: AbstractBaseUser, url: str, markup: str, wants: Sequence[str],
                            place: dict[str, Any]) -> Channel:
    """The one public channel of a game or a league (``place``: its scope and the game or
    the league), in place of the one before (and its log)."""
    if markup not in ("markdown", "bbcode"):
        raise InvalidSetting("markup is markdown (Discord, Slack) or bbcode (a forum).", field="markup")
    url = _checked(url)
    Channel.objects.filter(**place).delete()
    return Channel.objects.create(owner=user, kind=Channel.Kind.APPRISE, url=url, markup=markup,
                                  wants=_wants(wants, GAME_NOTICES), label=send.service_name(url), **place)


@transaction.atomic
def game_channel_set(*, game_id: str, user: AbstractBaseUser, url: str, markup: str = "markdown",
                     wants: Sequence[str] = GAME_NOTICES) -> Channel:
    """The game's one public channel (a Discord or Slack channel, a forum bridge): the turn
    summary, the board's link, the result. Replaces the one before."""
    place = {"scope": Channel.Scope.GAME, "game": _game_for(game_id, user)}
    return _public_channel_replace(user=user, url=url, markup=markup, wants=wants, place=place)


@transaction.atomic
def game_channel_clear(*, game_id: str, user: AbstractBaseUser) -> None:
    Channel.objects.filter(scope=Channel.Scope.GAME, game=_game_for(game_id, user)).delete()


@transaction.atomic
def league_channel_set(*, league_id: int, user: AbstractBaseUser, url: str, markup: str = "markdown",
                       wants: Sequence[str] = GAME_NOTICES) -> Channel:
    """The league's public channel: what a game's channel gets, for every game the league
    makes from now on. Replaces the one before (and its log)."""
    place = {"scope": Channel.Scope.LEAGUE, "league": _league_for(league_id, user)}
    return _public_channel_replace(user=user, url=url, markup=markup, wants=wants, place=place)


@transaction.atomic
def league_channel_clear(*, league_id: int, user: AbstractBaseUser) -> None:
    Channel.objects.filter(scope=Channel.Scope.LEAGUE, league=_league_for(league_id, user)).delete()
