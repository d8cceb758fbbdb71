"""Where notices go (``Channel``) and each notice owed to one channel (``Delivery``).

A delivery row is due work like a deadline: written in the transaction that causes it,
claimed by the notices worker with ``SKIP LOCKED``, and its log is the row itself (status,
attempts, the answer's status line, the last error)."""

from __future__ import annotations

import uuid

from django.conf import settings as django_settings
from django.db import models

#: What a player may ask to be told of (a game channel gets a summary of each).
NOTICES = ("turn", "remind", "over", "correction")


class Channel(models.Model):
    class Kind(models.TextChoices):
        EMAIL = "email", "e-mail to the owner's address"
        APPRISE = "apprise", "a chat service through apprise (Discord, Slack, Telegram, Matrix, ntfy)"
        WEBHOOK = "webhook", "signed JSON to a bot's server (Standard Webhooks)"

    class Scope(models.TextChoices):
        PLAYER = "player", "the owner's seats in every game"
        GAME = "game", "one game's public channel"
        LEAGUE = "league", "the public channel of every game a league makes"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=10, choices=Scope.choices, default=Scope.PLAYER)
    # No constraint in the database: channels are a reference table (on every node when
    # distributed), which may not point into a table distributed by game.
    game = models.ForeignKey("referee.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             db_constraint=False)
    league = models.ForeignKey("referee.League", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    url = models.TextField(blank=True, default="")
    #: The Standard Webhooks signing secret (``whsec_...``); shown to its owner once.
    secret = models.CharField(max_length=80, blank=True, default="")
    wants = models.JSONField(default=list)
    #: A game channel's post: "markdown" (Discord, Slack) or "bbcode" (a forum bridge).
    markup = models.CharField(max_length=10, default="markdown")
    label = models.CharField(max_length=60, blank=True, default="")
    enabled = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")
    last_error = models.CharField(max_length=300, blank=True, default="")
    last_error_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "scope"], name="notices_channel_owner"),
            models.Index(fields=["game"], name="notices_channel_game", condition=models.Q(game__isnull=False)),
            models.Index(fields=["league"], name="notices_channel_league", condition=models.Q(league__isnull=False)),
        ]


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        FAILED = "failed", "given up"

    #: The delivery id: the ``webhook-id`` a receiver drops duplicates by; the same on every retry.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, related_name="deliveries")
    notice = models.CharField(max_length=12)
    game_id = models.UUIDField(null=True, blank=True)
    #: The seat the notice is for (its own view); None for a game channel (the public view).
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: What caused it (a due row's key, a log position): one delivery per channel, notice and key.
    key = models.CharField(max_length=160)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    answer = models.CharField(max_length=200, blank=True, default="")  # the receiver's status line
    last_error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        constraints = [
            # The game is part of it: a player's (or a league's) channel hears of many games,
            # whose keys ("over", a log position) repeat from game to game.
            models.UniqueConstraint(fields=["channel", "notice", "game_id", "key"], name="notices_delivery_once"),
        ]
        indexes = [
            models.Index(fields=["next_attempt_at"], name="notices_delivery_due",
                         condition=models.Q(status="pending")),
            models.Index(fields=["channel", "-created_at"], name="notices_delivery_log"),
        ]


class LeagueGame(models.Model):
    """A game its league made: where the league's channel finds the games it speaks for
    (written when the league makes the game, in that transaction)."""

    game = models.OneToOneField("referee.Game", primary_key=True, on_delete=models.CASCADE, related_name="+")
    league = models.ForeignKey("referee.League", on_delete=models.CASCADE, related_name="+")
