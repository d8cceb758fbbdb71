"""The system of record: games, seats, the append-only event log and disposable snapshots."""

from __future__ import annotations

import uuid

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open for seats"
        ACTIVE = "active", "in play"
        FINISHED = "finished", "finished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=40)
    ruleset_version = models.CharField(max_length=20)
    settings = models.JSONField(default=dict)
    #: Secret until the game ends; ``seed_hash`` is published at creation (verifiable dice).
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    #: Non-empty while the game is frozen because its log failed verification.
    frozen_reason = models.TextField(blank=True, default="")
    max_seats = models.PositiveSmallIntegerField(default=8)
    #: Keep the whole log for moderators after the game ends (otherwise it becomes public).
    private_log = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset} {self.ruleset_version})"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    name = models.CharField(max_length=60)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_user_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} ({self.name})"


class Event(models.Model):
    """One record of a game's log. Append-only: on PostgreSQL a trigger refuses UPDATE,
    DELETE and TRUNCATE (migration 0002). Each row stores its predecessor's hash."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10)
    type = models.CharField(max_length=80)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    audience_kind = models.CharField(max_length=10)
    audience_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    actor_kind = models.CharField(max_length=10)
    actor_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    cause_seq = models.PositiveIntegerField(null=True, blank=True)
    draws = models.JSONField(default=list)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="event_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class Snapshot(models.Model):
    """A cache of the fold at ``seq``; may be dropped at any time."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    ruleset_version = models.CharField(max_length=20)
    state = models.JSONField()
    state_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="snapshot_seq_unique")]
