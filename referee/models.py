"""The system of record: games, seats, the append-only event log and disposable snapshots."""

from __future__ import annotations

import uuid

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Case, F, Q, Value, When

from referee.durations import duration_text


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
    #: Only its players, its creator and moderators know a private game exists.
    is_private = models.BooleanField(default=False)
    #: Chosen at creation: a rated game's end changes its players' ratings (referee/ratings.py).
    rated = models.BooleanField(default=False)
    #: Hours each turn may take before the referee takes it (the rulebook's 24-48).
    #: Seconds a seat has for its turn, within the ruleset's ``turn_limits``.
    turn_limit_seconds = models.PositiveIntegerField(default=36 * 3600)

    @property
    def turn_limit_text(self) -> str:
        return duration_text(self.turn_limit_seconds)
    #: What the referee plays for a seat that missed its deadline (a ruleset's policy name).
    deadline_policy = models.CharField(max_length=20, default="skip")
    #: What a vacation does: "pause" the clock, or let the "referee" play the seat's turns.
    vacation_policy = models.CharField(max_length=10, default="pause")
    #: Set while a moderator has paused the game: no deadline runs out meanwhile.
    paused_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.ruleset} {self.ruleset_version})"


class Seat(models.Model):
    # No index of its own: the unique (game, number) leads with it.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    name = models.CharField(max_length=60)
    joined_at = models.DateTimeField(auto_now_add=True)
    #: The player wants e-mail when their turn starts and before its deadline.
    reminders = models.BooleanField(default=True)
    #: An order given when joining (a private purchase list), placed for the seat at the start.
    signup_order = models.JSONField(null=True, blank=True)

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
    # No index of its own: the unique (game, seq) leads with it, and a one-column index on a
    # never-analysed table is what the planner picked for the append, then scanned the game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10)
    type = models.CharField(max_length=80)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    audience_kind = models.CharField(max_length=10)
    audience_seat = models.PositiveSmallIntegerField(null=True, blank=True)  # record version 1
    #: Record version 2 (null: version 1, written before audiences were sets of seats).
    audience_seats = models.JSONField(null=True, blank=True)
    record_version = models.PositiveSmallIntegerField(null=True, blank=True)
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
            # A key is unique per game and scope: a player's seat, or the one scope the
            # referee, the scheduler and moderators share (``store.base.key_scope``; the
            # same expression is ``store.sql.KEY_SCOPE``).
            models.UniqueConstraint(
                F("game"), F("idempotency_key"),
                Case(When(actor_kind="player", actor_seat__isnull=False, then=F("actor_seat")),
                     default=Value(-1), output_field=models.IntegerField()),
                condition=Q(idempotency_key__isnull=False),
                name="event_idempotency_key_per_scope",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class Snapshot(models.Model):
    """A cache of the fold at ``seq``; may be dropped at any time."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False)  # (game, seq)
    seq = models.PositiveIntegerField()
    ruleset_version = models.CharField(max_length=20)
    state = models.JSONField()
    state_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="snapshot_seq_unique")]


class DueWork(models.Model):
    """What is due, and when: the database (not the broker) is the source of truth.

    Rows are derived from the game's position after every append (``scheduling.due_work_sync``):
    a turn-start phase due now, a timer due at a moment, a deadline, and the referee's own
    notifications around a deadline. The sweeper claims due rows with
    ``SELECT ... FOR UPDATE SKIP LOCKED``; a row is done exactly once.
    """

    class Kind(models.TextChoices):
        NOW = "now", "phase due now"
        AT = "at", "timer"
        DEADLINE = "deadline", "deadline"
        NOTIFY = "notify", "turn-start notice"
        REMIND = "remind", "deadline reminder"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        DONE = "done", "done"
        CANCELLED = "cancelled", "cancelled"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="due_work", db_index=False)  # (game, key, kind)
    key = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seats = models.JSONField(default=list)
    #: None while the clock is stopped (game paused); ``remaining`` then holds what was left.
    due_at = models.DateTimeField(null=True, blank=True)
    remaining = models.DurationField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    result = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        # One work key makes several rows (a deadline, its reminder, its turn-start notice).
        constraints = [models.UniqueConstraint(fields=["game", "key", "kind"], name="due_work_key_kind_unique")]
        # Partial: done and cancelled rows pile up as history, and neither the sweeper's claim
        # nor an order's sync ever reads them.
        indexes = [
            models.Index(fields=["due_at", "id"], condition=Q(status="pending"), name="due_work_due_idx"),
            models.Index(fields=["game"], condition=Q(status="pending"), name="due_work_game_pending_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.key} ({self.status})"


class Vacation(models.Model):
    """A declared absence. During it the seat's deadlines either wait (policy "pause") or
    the referee plays its turns at once (policy "referee"), as the game's settings say."""

    # The game is in every key of a game's rows (a seat's is (id, game_id)): on PostgreSQL
    # the seat's foreign key is (game_id, seat_id), made by migration 0014, not by Django.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="vacations", db_constraint=False)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    reason = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["starts_at"]


class SchedulerHeartbeat(models.Model):
    """When the sweeper last ran: a gap longer than the threshold is an outage of ours, and
    deadlines that fell in it are extended rather than auto-played."""

    name = models.CharField(max_length=40, primary_key=True)
    last_run_at = models.DateTimeField()


class IdempotentRequest(models.Model):
    """The first answer to a write sent with an ``Idempotency-Key``: a retry gets it again."""

    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=120)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotent_request_unique")]


class League(models.Model):
    """A queue of players for successive games of one ruleset (section 4's sign-up rules)."""

    name = models.CharField(max_length=120, unique=True)
    ruleset = models.CharField(max_length=40)
    seats_per_game = models.PositiveSmallIntegerField(default=4)
    game_settings = models.JSONField(default=dict)
    #: Seconds a seat has for its turn, within the ruleset's ``turn_limits``.
    turn_limit_seconds = models.PositiveIntegerField(default=36 * 3600)

    @property
    def turn_limit_text(self) -> str:
        return duration_text(self.turn_limit_seconds)
    # No constraint in the database: a league is a reference table (on every node, when
    # distributed), and a reference table may not point into a table distributed by game.
    last_game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                  db_constraint=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Seating(models.TextChoices):
        #: Section 4's order: those who sat out the last game and its winners, then first come.
        QUEUE = "queue", "first come"
        #: The first in that order, with the players whose ratings are closest together.
        RATING = "rating", "by rating"

    seating = models.CharField(max_length=10, choices=Seating.choices, default=Seating.QUEUE)

    def __str__(self) -> str:
        return self.name


class LeagueEntry(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    signup_order = models.JSONField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="league_entry_unique")]


class Invitation(models.Model):
    """A user asked to a private game by its creator or a moderator: the invited user sees
    the game and may take a seat in it, as the creator may."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="invitation_unique")]


class Rating(models.Model):
    """A player's skill on one ladder of one ruleset (a projection of rated results, rebuilt
    by ``manage.py ratings --rebuild``): the Weng-Lin (openskill) mean and deviation."""

    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(max_length=40)
    ladder = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "ruleset", "ladder"], name="rating_unique")]
        indexes = [models.Index(fields=["ruleset", "ladder"], name="rating_ladder_idx")]


class RatedGame(models.Model):
    """A rated game that ended by the rules, in the order its end was counted (``id``: taken
    under the lock of its players' rating rows, so two games sharing a player are numbered in
    the order they were applied). ``standing`` is who finished where, from ``Ruleset.result``:
    places best first, each a list of user ids. A voided game stays listed, with its reason,
    and counts for nothing."""

    id = models.BigAutoField(primary_key=True)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated_result")
    ruleset = models.CharField(max_length=40)
    ladder = models.CharField(max_length=20)
    standing = models.JSONField()
    ended_at = models.DateTimeField()
    voided_reason = models.TextField(blank=True, default="")


class RatingChange(models.Model):
    """What one rated game did to one player's rating (before and after)."""

    # The game is in every key of a game's rows: the foreign key to the rated game is
    # (game_id, rated_game_id) on PostgreSQL (migration 0014), not made by Django.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes", db_constraint=False)
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["rated_game_id", "user_id"]
        constraints = [models.UniqueConstraint(fields=["game", "rated_game", "user"], name="rating_change_unique")]
        indexes = [models.Index(fields=["user", "rated_game"], name="rating_change_user_idx")]


def save_by_key(row: models.Model, *fields: str, key: str = "game_id") -> None:
    """``row.save(update_fields=fields)`` with the row's distribution column (its game, or
    a delivery's channel: ``key``) in the WHERE beside its id, as the table's primary key
    has it: the statement then reads one partition, or one Citus shard, not all of them."""
    type(row)._default_manager.filter(pk=row.pk, **{key: getattr(row, key)}).update(
        **{field: getattr(row, field) for field in fields})
