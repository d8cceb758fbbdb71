"""Ratings: a ruleset's ladder, a player's ratings with their history, and a moderator
voiding a game (docs/ratings.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotent
from api.permissions import IsModerator
from api.views.common import game_for, int_param
from referee import ratings_admin, ratings_selectors


class RatingFields(serializers.Serializer):
    rating = serializers.IntegerField(help_text="the conservative estimate shown: 1000 + 20 * (mu - 3 * sigma)")
    provisional = serializers.BooleanField(help_text="shown with '?' until enough rated games narrowed sigma")
    games = serializers.IntegerField(help_text="rated games counted")
    last_played_at = serializers.DateTimeField(allow_null=True)
    mu = serializers.FloatField(help_text="the model's mean (openskill Plackett-Luce)")
    sigma = serializers.FloatField(help_text="the model's deviation")


class LadderEntry(RatingFields):
    rank = serializers.IntegerField()
    username = serializers.CharField()


class RulesetLadderApi(APIView):
    """A ruleset's ladder, best first, a page at a time."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        ruleset = serializers.CharField()
        ladder = serializers.CharField(help_text="'players', or 'bots' for rulesets played by bots")
        page = serializers.IntegerField()
        pages = serializers.IntegerField()
        count = serializers.IntegerField()
        results = LadderEntry(many=True)

    @extend_schema(parameters=[OpenApiParameter("page", int, description="1, 2, ... (50 a page)")],
                   responses=OutputSerializer)
    def get(self, request: Request, name: str) -> Response:
        page = int_param(request, "page", 1, low=1, high=10**6)
        return Response(ratings_selectors.ladder_get(ruleset=name[:40], page=page))


class PlayerRatingsApi(APIView):
    """A player's rating on each ruleset's ladder, with its history game by game."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        ratings = serializers.ListField(
            child=serializers.DictField(),
            help_text="per ruleset and ladder: the rating fields and 'history', a list of "
                      "{game, ended_at, place, rating, change} oldest first")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, username: str) -> Response:
        return Response(ratings_selectors.player_ratings_get(username=username[:150]))


class GameVoidApi(APIView):
    """A moderator voids a finished game: a public notice with the reason goes into its log
    and its result no longer counts (every rating is recomputed without it). Only once."""

    permission_classes = [IsModerator]

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=500, help_text="why, shown to everyone in the game's log")

    class OutputSerializer(serializers.Serializer):
        game = serializers.UUIDField()
        reason = serializers.CharField()
        rated = serializers.BooleanField(help_text="the game had counted: its rating changes were taken back")

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    @idempotent
    def post(self, request: Request, game_id: str) -> Response:
        game = game_for(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rated = ratings_admin.game_void(game_id=str(game.pk), moderator=request.user,
                                        reason=data.validated_data["reason"])
        return Response({"game": str(game.pk), "reason": ratings_selectors.voided_reason(game_id=str(game.pk)),
                         "rated": rated}, status=status.HTTP_201_CREATED)
