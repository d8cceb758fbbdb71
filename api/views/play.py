from __future__ import annotations

import contextlib
import time
import uuid

from django.http import HttpRequest
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotency_key, idempotent
from api.views.common import game_for, int_param, viewer
from api.views.live import LiveApiView
from games.base import RuleViolation, Viewer
from referee import live, metrics, selectors, services
from referee.errors import SeatError
from referee.models import Game

MAX_WAIT_SECONDS = 25


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["command", "event", "rejection", "notice"])
    type = serializers.CharField()
    payload = serializers.DictField()
    audience = serializers.CharField()
    actor = serializers.DictField()
    cause_seq = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField()
    draws = serializers.ListField(child=serializers.DictField(), required=False)
    redacted = serializers.BooleanField(required=False, help_text="another seat's order: you see that it was given, not what it said")


class StateOutput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the position is the one after this record")
    position = serializers.DictField(help_text="the ruleset's view, with what you may not know removed")
    clock = serializers.DictField()


class GameStateApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("at", int, description="the position after this seq (default: now)"),
            OpenApiParameter("as", str, enum=["moderator"], description="moderators: see everything"),
        ],
        responses=StateOutput,
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        if game.status == Game.Status.OPEN:
            return Response({"seq": 0, "position": {}, "clock": selectors.game_clock_get(game_id=str(game.pk))})
        at = int_param(request, "at", None, low=1)
        return Response(selectors.game_state_get(game_id=str(game.pk), viewer=viewer(request, game), seq=at))


class GameEventsApi(LiveApiView):
    """The log as you may see it, numbered in your own sequence and paginated; with ``wait``
    the answer waits (long-polls) until there is something after ``after`` or the time is up."""

    class OutputSerializer(serializers.Serializer):
        events = EventSerializer(many=True)
        next_after = serializers.IntegerField(help_text="pass as ?after= to get what comes next")
        more = serializers.BooleanField()

    @staticmethod
    def long_poll_params(request: HttpRequest) -> tuple[int, int, int] | None:
        """``(after, limit, wait)`` of a long-poll whose answer is the plain JSON page (so the
        shared read may give it), or None for anything else (the view answers that)."""
        query = request.GET
        if not set(query) <= {"after", "limit", "wait", "as"} or request.META.get("HTTP_ACCEPT", "") not in (
                "", "*/*", "application/json"):
            return None
        try:
            after, limit, wait = (int(query.get(name) or default) for name, default in
                                  (("after", 0), ("limit", 100), ("wait", 0)))
        except ValueError:
            return None
        if 0 <= after <= 10**9 and 1 <= limit <= 500 and 1 <= wait <= MAX_WAIT_SECONDS:
            return after, limit, wait
        return None

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="only records after this seq"),
            OpenApiParameter("limit", int, description="at most this many (1-500, default 100)"),
            OpenApiParameter("wait", int, description=f"long-poll: wait up to this many seconds (0-{MAX_WAIT_SECONDS}) "
                                                      "for something new"),
            OpenApiParameter("as", str, enum=["moderator"]),
        ],
        responses=OutputSerializer,
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        after = int_param(request, "after", 0)
        limit = int_param(request, "limit", 100, low=1, high=500)
        wait = int_param(request, "wait", 0, high=MAX_WAIT_SECONDS)
        who = viewer(request, game)
        pk = str(game.pk)
        events = selectors.game_events_list(game_id=pk, viewer=who, after=after)
        # Under ASGI the async entry waits for the next append without a thread, and answers
        # these credentials' next long-polls from the process's shared read for a moment.
        in_async_entry = bool(wait) and getattr(request, "live_no_wait", False)
        if in_async_entry and not events:
            response = Response({"events": [], "next_after": after, "more": False})
            response.live_wait = (wait, pk, who, after, limit)  # type: ignore[attr-defined]
        else:
            deadline = time.monotonic() + wait
            with metrics.reading(metrics.LONG_POLL) if not events and wait else contextlib.nullcontext():
                while not events and time.monotonic() < deadline:  # WSGI: this thread waits
                    live.wait_blocking(pk, min(1.0, deadline - time.monotonic()))
                    events = selectors.game_events_list(game_id=pk, viewer=who, after=after)
            page = events[:limit]
            response = Response({
                "events": page,
                "next_after": page[-1]["seq"] if page else after,
                "more": len(events) > limit,
            })
        if in_async_entry:
            user = request.user.pk if request.user.is_authenticated else None
            response.live_grant = (pk, who, user)  # type: ignore[attr-defined]
        return response


class OrderOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    replayed = serializers.BooleanField(help_text="true when this answers a retried Idempotency-Key")
    events = EventSerializer(many=True)


def _order(request: Request, game_id: str, command_type: str, payload: dict, expected_seq: int | None = None) -> Response:
    try:
        game_id = str(uuid.UUID(game_id))  # one spelling of the id for the caches keyed by it
    except ValueError:
        game_for(request, game_id)  # "not found", as for any id that names no game
        raise
    try:
        outcome = services.command_handle(
            game_id=game_id, user=request.user, command_type=command_type, payload=payload,
            idempotency_key=idempotency_key(request), expected_seq=expected_seq,
        )
    except Exception:
        # An order needs a seat, and a seat lets its player see the game: only a refused
        # order asks whether the game may be seen at all, so a game the user may not know
        # of is "not found" (404) whatever was wrong with the order.
        game_for(request, game_id)
        raise
    order = outcome.records[0] if outcome.records else None
    # The seat the order was placed for is on its record: no second look-up of the seat.
    who = (Viewer.for_seat(order.actor_seat) if order is not None and order.actor_kind == "player"
           and order.actor_seat is not None else selectors.viewer_for(game_id=game_id, user=request.user))
    events, seen = selectors.order_answer_get(game_id=game_id, viewer=who, records=outcome.records, game=outcome.game,
                                                  position=outcome.position)
    return Response(
        {"seq": seen, "replayed": outcome.replayed, "events": events},
        status=status.HTTP_200_OK if outcome.replayed else status.HTTP_201_CREATED,
    )


class GameCommandApi(APIView):
    """Any order of the game's ruleset (see /api/rulesets/ for the names)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        type = serializers.CharField(max_length=80)
        payload = serializers.DictField(required=False, default=dict)
        expected_seq = serializers.IntegerField(
            required=False, min_value=0,
            help_text="the last seq you saw; if the log has moved on you get 409 and nothing happens",
        )

    @extend_schema(request=InputSerializer, responses={201: OrderOutput, 200: OrderOutput})
    def post(self, request: Request, game_id: str) -> Response:
        order = plain_order(request.data)
        if order is None:  # anything else, the serializer reads (and words what is wrong)
            data = self.InputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            d = data.validated_data
            order = d["type"], d["payload"], d.get("expected_seq")
        return _order(request, game_id, *order)


def plain_order(data: object) -> tuple[str, dict, int | None] | None:
    """What ``GameCommandApi.InputSerializer`` gives for a body it takes as it is (a JSON
    object whose type is a trimmed ASCII string of 1 to 80 characters without NUL, whose payload, if any, is an
    object, and whose expected_seq, if any, is a whole number from 0), read without building
    the serializer: its fields are deep-copied for every instance, a tenth of an order's own
    time in Python. None for any other body."""
    if data.__class__ is not dict:
        return None
    kind, payload, expected = data.get("type"), data.get("payload", {}), data.get("expected_seq")
    kind_plain = (kind.__class__ is str and 0 < len(kind) <= 80 and kind == kind.strip() and kind.isascii()
                  and "\x00" not in kind)
    expected_plain = "expected_seq" not in data or (expected.__class__ is int and expected >= 0)
    if not (kind_plain and payload.__class__ is dict and expected_plain):
        return None
    return kind, dict(payload), expected


class GameTurnApi(APIView):
    """A whole turn at once (a forum post), in the ruleset's whole-turn order (see
    ``whole_turn`` in /api/rulesets/): checked step by step and applied atomically, or
    refused as a whole with the first invalid step's reason."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        steps = serializers.ListField(
            child=serializers.DictField(), max_length=50,
            help_text="the steps of the turn, in order: each the fields of one of the ruleset's step orders, "
                      "without a type (Worms: {\"worm\": \"A1\", \"path\": [\"c5\"]} moves, "
                      "{\"worm\": \"A1\", \"weapon\": \"bazooka\", \"target\": \"E\"} fires, {} ends the turn)")

    @extend_schema(request=InputSerializer, responses={201: OrderOutput, 200: OrderOutput})
    def post(self, request: Request, game_id: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_for(request, game_id)
        whole = selectors.ruleset_get(game_id=str(game.pk)).whole_turn
        if whole is None:
            raise RuleViolation("order", f"{game.ruleset} has no whole-turn order; send orders one at a time "
                                         "to /commands/.")
        command_type, field = whole
        return _order(request, game_id, command_type, {field: data.validated_data["steps"]})


class GameInboxApi(APIView):
    """Your private messages: what the game master used to PM you."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=EventSerializer(many=True))
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        seat = selectors.seat_get(game_id=str(game.pk), user=request.user)
        if seat is None:
            raise SeatError("You have no seat in this game, so no inbox.")
        return Response(selectors.seat_inbox_get(game_id=str(game.pk), seat=seat.number))


class GameRemindersApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        enabled = serializers.BooleanField()

    @extend_schema(request=InputSerializer, responses=InputSerializer)
    @idempotent
    def put(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = services.reminders_set(game_id=str(game.pk), user=request.user, enabled=data.validated_data["enabled"])
        return Response({"enabled": seat.reminders})


class GameVacationApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        starts_at = serializers.DateTimeField()
        ends_at = serializers.DateTimeField()
        reason = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)

    @extend_schema(request=InputSerializer, responses={201: InputSerializer})
    @idempotent
    def post(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = services.vacation_declare(game_id=str(game.pk), user=request.user, **data.validated_data)
        return Response({"starts_at": v.starts_at, "ends_at": v.ends_at, "reason": v.reason},
                        status=status.HTTP_201_CREATED)
