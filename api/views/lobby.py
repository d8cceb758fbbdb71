from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotent
from api.permissions import IsModerator, IsModeratorOrReadOnly
from api.views.common import game_for, game_summary
from referee import lobby, lobby_selectors, selectors, services
from referee.models import Game, League
from referee.rulesets import get_registry


class GameOutput(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    ruleset_version = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    is_private = serializers.BooleanField()
    rated = serializers.BooleanField(help_text="whether the game's end counts for ratings (chosen at creation)")
    max_seats = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.DictField())
    turn_limit_seconds = serializers.IntegerField(help_text="the turn limit, within the ruleset's bounds")
    turn_limit_hours = serializers.FloatField(help_text="the same in hours")
    turn_limit = serializers.CharField(help_text="the same in words")
    deadline_policy = serializers.CharField()
    seed_hash = serializers.CharField(help_text="sha256 of the secret dice seed, published at creation")
    frozen = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class OrderInput(serializers.Serializer):
    type = serializers.CharField(max_length=80)
    payload = serializers.DictField(required=False, default=dict)


class RulesetListApi(APIView):
    class OutputSerializer(serializers.Serializer):
        name = serializers.CharField()
        version = serializers.CharField()
        title = serializers.CharField()
        mode = serializers.CharField()
        min_seats = serializers.IntegerField()
        max_seats = serializers.IntegerField()
        deadline_policies = serializers.ListField(child=serializers.CharField())
        orders = serializers.ListField(
            child=serializers.CharField(),
            help_text="order types for POST /games/{id}/commands/; their fields are in the schema's "
                      "components as <Ruleset>_<Order>")
        whole_turn = serializers.CharField(allow_null=True, help_text="the order POST /games/{id}/turn/ sends")
        turn_limit = serializers.DictField(help_text="minimum, maximum and default in seconds, the unit games use, "
                                                     "and the rule that sets them")

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        registry = get_registry()
        out = []
        # New games are made with a ruleset's latest version; older ones only replay old games.
        latest = {name: version for name, version in registry.names()}  # names() is sorted: the last wins
        for name, version in latest.items():
            r = registry.get(name, version)
            out.append({
                "name": r.name, "version": r.version, "title": r.title or r.name, "mode": str(r.mode),
                "min_seats": r.min_seats, "max_seats": r.max_seats,
                "deadline_policies": list(r.deadline_policies), "orders": [t.__name__ for t in r.command_types],
                "whole_turn": r.whole_turn[0] if r.whole_turn else None,
                "turn_limit": {"minimum": r.turn_limits.minimum, "maximum": r.turn_limits.maximum,
                               "default": r.turn_limits.default, "unit": r.turn_limits.unit,
                               "rule": r.turn_limits.rule},
            })
        return Response(out)


def _limit_seconds(d: dict[str, Any]) -> int | None:
    if d.get("turn_limit_seconds") is not None:
        return int(d["turn_limit_seconds"])
    if d.get("turn_limit_hours") is not None:
        return int(d["turn_limit_hours"]) * 3600
    return None


class GameListApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        ruleset = serializers.CharField(max_length=40)
        version = serializers.CharField(max_length=20, required=False)
        seats = serializers.IntegerField(required=False, min_value=1, max_value=64)
        settings = serializers.DictField(required=False, default=dict)
        turn_limit_seconds = serializers.IntegerField(
            required=False, min_value=1, max_value=366 * 86400,
            help_text="seconds per turn; each ruleset has its own bounds and default "
                      "(GET /api/rulesets/ lists them)")
        turn_limit_hours = serializers.IntegerField(
            required=False, min_value=1, max_value=24 * 366, help_text="the same in whole hours (older clients)")
        deadline_policy = serializers.CharField(required=False, max_length=20)
        vacation_policy = serializers.ChoiceField(choices=["pause", "referee"], required=False, default="pause")
        is_private = serializers.BooleanField(required=False, default=False)
        rated = serializers.BooleanField(
            required=False, default=False,
            help_text="a rated game's end changes its players' ratings (docs/ratings.md); casual by default")
        private_log = serializers.BooleanField(required=False, default=False)

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=[c for c, _ in Game.Status.choices]),
            OpenApiParameter("ruleset", str),
            OpenApiParameter("mine", bool, description="only games you have a seat in"),
        ],
        responses=GameOutput(many=True),
    )
    def get(self, request: Request) -> Response:
        games = lobby_selectors.games_list(
            user=request.user,
            status=request.query_params.get("status") or None,
            ruleset=(request.query_params.get("ruleset") or "")[:40] or None,
            mine=request.query_params.get("mine") in ("1", "true"),
        )
        return Response([game_summary(g) for g in games[:200]])

    @extend_schema(request=InputSerializer, responses={201: GameOutput})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        game = services.game_create(
            name=d["name"], ruleset=d["ruleset"], version=d.get("version"), settings=d["settings"],
            created_by=request.user, turn_limit_seconds=_limit_seconds(d),
            deadline_policy=d.get("deadline_policy"), vacation_policy=d["vacation_policy"],
            is_private=d["is_private"], private_log=d["private_log"], seats=d.get("seats"),
            rated=d["rated"],
        )
        return Response(game_summary(game), status=status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    class OutputSerializer(GameOutput):
        clock = serializers.DictField()
        result = serializers.DictField(
            allow_null=True, help_text="once started: finished, winners, ranking (places, best first; "
                                       "seats that tie share a place), scores, draw, summary")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        return Response({**game_summary(game), "clock": selectors.game_clock_get(game_id=str(game.pk)),
                         "result": selectors.game_result_get(game_id=str(game.pk))})


class GameJoinApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=60, help_text="your team's name")
        signup_order = OrderInput(required=False, help_text="a private order placed for you at the start, "
                                  "e.g. Worms: {type: SubmitShoppingList, payload: {...}}")

    class OutputSerializer(serializers.Serializer):
        game = serializers.UUIDField()
        seat = serializers.IntegerField()
        name = serializers.CharField()
        game_status = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    @idempotent
    def post(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = lobby.game_join(game_id=str(game.pk), user=request.user, name=data.validated_data["name"],
                               signup_order=data.validated_data.get("signup_order"))
        game.refresh_from_db()
        return Response({"game": str(game.pk), "seat": seat.number, "name": seat.name, "game_status": game.status},
                        status=status.HTTP_201_CREATED)


class GameStartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=GameOutput)
    @idempotent
    def post(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        game = lobby.game_begin(game_id=str(game.pk), user=request.user)
        return Response(game_summary(game))


SEATING = ("'queue': those who sat out the last game and its winners first, then first come; 'rating': "
           "the first of that queue with the players whose ratings are closest together (docs/ratings.md)")


class LeagueListApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly, IsModeratorOrReadOnly]

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        ruleset = serializers.CharField(max_length=40)
        seats_per_game = serializers.IntegerField(min_value=1, max_value=64)
        game_settings = serializers.DictField(required=False, default=dict)
        turn_limit_seconds = serializers.IntegerField(required=False, min_value=1, max_value=366 * 86400)
        turn_limit_hours = serializers.IntegerField(required=False, min_value=1, max_value=24 * 366)
        seating = serializers.ChoiceField(choices=League.Seating.values, default=League.Seating.QUEUE, help_text=SEATING)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        ruleset = serializers.CharField()
        seats_per_game = serializers.IntegerField()
        seating = serializers.ChoiceField(choices=League.Seating.values, help_text=SEATING)
        queue = serializers.ListField(child=serializers.CharField(), help_text="usernames, in the order they will be seated")
        last_game = serializers.UUIDField(allow_null=True)

    @staticmethod
    def out(league: League) -> dict:
        return {
            "id": league.pk, "name": league.name, "ruleset": league.ruleset, "seats_per_game": league.seats_per_game,
            "seating": league.seating,
            "queue": [e.user.get_username() for e in lobby_selectors.league_queue_order(league)],
            "last_game": str(league.last_game_id) if league.last_game_id else None,
        }

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response([self.out(x) for x in lobby_selectors.league_list()[:100]])

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = dict(data.validated_data)
        d.pop("turn_limit_hours", None)
        d["turn_limit_seconds"] = _limit_seconds(data.validated_data)
        league = lobby.league_create(moderator=request.user, **d)
        return Response(self.out(league), status=status.HTTP_201_CREATED)


def _league(league_id: int) -> League:
    return lobby_selectors.league_get(league_id=league_id)


class LeagueQueueApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        signup_order = OrderInput(required=False)

    @extend_schema(request=InputSerializer, responses={201: LeagueListApi.OutputSerializer})
    @idempotent
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lobby.league_queue_join(league_id=league.pk, user=request.user,
                                signup_order=data.validated_data.get("signup_order"))
        return Response(LeagueListApi.out(league), status=status.HTTP_201_CREATED)


class LeagueNextGameApi(APIView):
    permission_classes = [IsModerator]

    @extend_schema(request=None, responses={201: GameOutput})
    @idempotent
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(league_id)
        game = lobby.league_next_game(league_id=league.pk, moderator=request.user)
        return Response(game_summary(game), status=status.HTTP_201_CREATED)
