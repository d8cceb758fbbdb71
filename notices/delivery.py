"""Sending what is due: claim a delivery (a lease, in a short transaction), send it outside
any transaction, then book the answer. A send that crashes mid-way is sent again when its
lease ends, with the same delivery id (``webhook-id``), so a receiver drops the duplicate.

Retries back off exponentially with jitter, for about a day (``NOTICES_MAX_ATTEMPTS``);
then the delivery is given up, the endpoint switched off and its owner told, once."""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable

from django.conf import settings
from django.db import transaction

from notices import render, send
from notices.models import Channel, Delivery
from referee import clock, metrics
from referee.models import save_by_key

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 30
LONGEST_WAIT_SECONDS = 4 * 3600


def max_attempts() -> int:
    return int(getattr(settings, "NOTICES_MAX_ATTEMPTS", 14))


def lease() -> dt.timedelta:
    """How long a claimed delivery is someone's: longer than any one send may take."""
    return dt.timedelta(seconds=send.timeout() * 4 + 30)


def backoff(attempt: int, rand: Callable[[], float] = random.random) -> dt.timedelta:
    """The wait after failed attempt ``attempt`` (1, 2, ...): 30 s doubling up to 4 h, each
    within 20% either way so endpoints that failed together are not retried together."""
    base = min(FIRST_RETRY_SECONDS * 2 ** (attempt - 1), LONGEST_WAIT_SECONDS)
    return dt.timedelta(seconds=base * (0.8 + 0.4 * rand()))


def record_delivery_failure(channel: str) -> None:
    """A delivery attempt to a ``channel`` kind failed: counted for the operator's metrics."""
    log.info("a notice delivery failed (channel kind: %s)", channel)
    metrics.notice_delivery_failed(channel)


def _claim(now: dt.datetime, only: str | None) -> Delivery | None:
    with transaction.atomic():
        due = Delivery.objects.select_for_update(skip_locked=True).filter(
            status=Delivery.Status.PENDING, next_attempt_at__lte=now)
        if only is not None:
            due = due.filter(pk=only)
        row = due.order_by("next_attempt_at").first()
        if row is None:
            return None
        row.attempts += 1
        row.next_attempt_at = now + lease()
        save_by_key(row, "attempts", "next_attempt_at", key="channel_id")
        return row


def send_due(*, now: dt.datetime | None = None, limit: int = 200, only: str | None = None) -> int:
    """Send deliveries that are due, one at a time, until none is or ``limit`` have been
    tried. Several workers share the work. Returns how many were tried."""
    tried = 0
    while tried < limit:
        at = now or clock.now()
        row = _claim(at, only)
        if row is None:
            break
        tried += 1
        try:
            attempt = _attempt(row, at)
        except Exception as exc:  # a bug in rendering must not stop the others; it is this delivery's error
            log.exception("notice %s could not be built", row.pk)
            attempt = send.Attempt(False, error=f"the notice could not be built: {type(exc).__name__}")
        _book(row, attempt, now or clock.now())
    return tried


def _attempt(row: Delivery, now: dt.datetime) -> send.Attempt:
    channel = Channel.objects.select_related("owner").get(pk=row.channel_id)
    if not channel.enabled:
        return send.Attempt(False, error="the channel is switched off")
    notice = render.render(notice=row.notice, game_id=str(row.game_id) if row.game_id else None, seat=row.seat,
                           markup=channel.markup)
    if channel.kind == Channel.Kind.WEBHOOK:
        return send.to_webhook(channel.url, channel.secret, delivery_id=f"msg_{row.pk.hex}", notice=row.notice,
                               data=notice.data, now=now)
    if channel.kind == Channel.Kind.APPRISE:
        return send.to_apprise(channel.url, notice, channel.markup)
    return send.to_email(channel.owner.email, notice)


def _book(row: Delivery, attempt: send.Attempt, now: dt.datetime) -> None:
    with transaction.atomic():
        channel = Channel.objects.select_for_update().get(pk=row.channel_id)
        row.answer = attempt.answer[:200]
        if attempt.ok:
            row.status, row.sent_at, row.last_error = Delivery.Status.SENT, now, ""
            save_by_key(row, "status", "sent_at", "answer", "last_error", key="channel_id")
            return
        record_delivery_failure(channel.kind)
        row.last_error = attempt.error[:300]
        channel.last_error, channel.last_error_at = row.last_error, now
        if row.attempts >= max_attempts() or not channel.enabled:
            row.status = Delivery.Status.FAILED
            if channel.enabled:
                _switch_off(channel, now)
        else:
            row.next_attempt_at = now + backoff(row.attempts)
        save_by_key(row, "status", "answer", "last_error", "next_attempt_at", key="channel_id")
        channel.save(update_fields=["last_error", "last_error_at", "enabled", "disabled_reason"])


def _switch_off(channel: Channel, now: dt.datetime) -> None:
    """An endpoint that has failed for a day is switched off, and its owner told once (by
    e-mail: the channel itself is what does not work)."""
    channel.enabled = False
    channel.disabled_reason = f"switched off at {now:%Y-%m-%d %H:%M} UTC after a day of failed deliveries"
    if channel.kind != Channel.Kind.EMAIL and channel.owner.email:
        transaction.on_commit(lambda: send.to_email(channel.owner.email, render.Notice(
            "A notice channel was switched off",
            f"The referee could not deliver to your {channel.get_kind_display()} channel "
            f"{channel.label or ''} for a day and has switched it off. Last error: {channel.last_error}\n"
            "Turn it on again in your settings once it works.", {})))
