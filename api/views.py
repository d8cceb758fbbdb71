"""Thin DRF views: parse, call a service or selector, answer. The full API is issue 7."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee import selectors, services
from referee.errors import GameNotFound
from referee.models import Game


def _game(game_id: str) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, ValidationError):  # malformed ids are "not found" too
        raise GameNotFound("There is no such game.") from None


class GameListApi(APIView):
    class OutputSerializer(serializers.ModelSerializer):
        class Meta:
            model = Game
            fields = ["id", "name", "ruleset", "ruleset_version", "status", "seed_hash", "created_at"]

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(selectors.game_list(), many=True).data)


class GameStateApi(APIView):
    @extend_schema(responses=dict)
    def get(self, request: Request, game_id: str) -> Response:
        game = _game(game_id)
        viewer = selectors.viewer_for(game_id=str(game.pk), user=request.user, as_moderator="moderator" in request.query_params)
        seq = request.query_params.get("seq")
        return Response(selectors.game_state_get(game_id=str(game.pk), viewer=viewer, seq=int(seq) if seq and seq.isdigit() else None))


class GameEventsApi(APIView):
    @extend_schema(responses=dict)
    def get(self, request: Request, game_id: str) -> Response:
        game = _game(game_id)
        viewer = selectors.viewer_for(game_id=str(game.pk), user=request.user, as_moderator="moderator" in request.query_params)
        after = request.query_params.get("after", "0")
        return Response(selectors.game_events_list(game_id=str(game.pk), viewer=viewer, after=int(after) if after.isdigit() else 0))


class GameCommandApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        type = serializers.CharField(max_length=80)
        payload = serializers.DictField(required=False, default=dict)

    @extend_schema(request=InputSerializer, responses=dict)
    def post(self, request: Request, game_id: str) -> Response:
        game = _game(game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = services.command_handle(
            game_id=str(game.pk), user=request.user, command_type=data.validated_data["type"],
            payload=data.validated_data["payload"], idempotency_key=request.headers.get("Idempotency-Key"),
        )
        viewer = selectors.viewer_for(game_id=str(game.pk), user=request.user)
        return Response({
            "seq": outcome.last_seq,
            "replayed": outcome.replayed,
            "events": selectors.game_events_list(
                game_id=str(game.pk), viewer=viewer, after=outcome.records[0].seq - 1, upto=outcome.records[-1].seq
            ),
        }, status=200 if outcome.replayed else 201)
