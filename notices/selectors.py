"""Reads: a player's channels with their delivery logs. URLs carry tokens (a Discord
webhook's, a bot's password): they are shown masked, and a webhook's secret never."""

from __future__ import annotations

from typing import Any

import apprise
from django.contrib.auth.models import AbstractBaseUser

from notices.models import Channel, Delivery

LOG_LENGTH = 10
DEFAULT_EMAIL = ["turn", "remind"]  # what e-mail said before a player chose


def masked_url(channel: Channel) -> str:
    if channel.kind == Channel.Kind.WEBHOOK:
        return channel.url  # the bot's own address; the secret is what authenticates
    plugin = apprise.Apprise.instantiate(channel.url, suppress_exceptions=True)
    return plugin.url(privacy=True) if plugin is not None else ""


def delivery_row(d: Delivery) -> dict[str, Any]:
    return {"id": str(d.pk), "notice": d.notice, "game": str(d.game_id) if d.game_id else None, "status": d.status,
            "attempts": d.attempts, "created_at": d.created_at, "sent_at": d.sent_at,
            "next_attempt_at": d.next_attempt_at if d.status == Delivery.Status.PENDING else None,
            "answer": d.answer, "error": d.last_error}


def channel_row(channel: Channel, log: list[Delivery]) -> dict[str, Any]:
    return {"id": str(channel.pk), "kind": channel.kind, "label": channel.label, "url": masked_url(channel),
            "wants": channel.wants, "markup": channel.markup, "enabled": channel.enabled,
            "disabled_reason": channel.disabled_reason, "last_error": channel.last_error,
            "last_error_at": channel.last_error_at, "deliveries": [delivery_row(d) for d in log]}


def _logs(channels: list[Channel]) -> dict[Any, list[Delivery]]:
    logs: dict[Any, list[Delivery]] = {c.pk: [] for c in channels}
    for channel in channels:  # a few channels a player: a short query each, on the settings page only
        logs[channel.pk] = list(Delivery.objects.filter(channel=channel).order_by("-created_at")[:LOG_LENGTH])
    return logs


def player_notices_get(*, user: AbstractBaseUser) -> dict[str, Any]:
    channels = list(Channel.objects.filter(owner=user, scope=Channel.Scope.PLAYER).order_by("created_at"))
    email = next((c for c in channels if c.kind == Channel.Kind.EMAIL), None)
    others = [c for c in channels if c.kind != Channel.Kind.EMAIL]
    logs = _logs(channels)
    return {
        "email": email.wants if email is not None else DEFAULT_EMAIL,
        "email_log": [delivery_row(d) for d in logs[email.pk]] if email is not None else [],
        "channels": [channel_row(c, logs[c.pk]) for c in others if c.kind == Channel.Kind.APPRISE],
        "webhooks": [channel_row(c, logs[c.pk]) for c in others if c.kind == Channel.Kind.WEBHOOK],
    }


def game_channel_get(*, game_id: str) -> dict[str, Any] | None:
    channel = Channel.objects.filter(scope=Channel.Scope.GAME, game_id=game_id).first()
    if channel is None:
        return None
    return channel_row(channel, _logs([channel])[channel.pk])


def league_channel_get(*, league_id: int) -> dict[str, Any] | None:
    channel = Channel.objects.filter(scope=Channel.Scope.LEAGUE, league_id=league_id).first()
    if channel is None:
        return None
    return channel_row(channel, _logs([channel])[channel.pk])
