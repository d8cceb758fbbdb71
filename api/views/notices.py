"""Notices: a player's channels (``/api/me/notifications/``), a bot's webhooks (the secret
in the answer to the POST only), a game's channel and a league's. Thin: services and selectors in
``notices/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotent
from api.views.common import game_for
from notices import selectors, services
from notices.models import NOTICES
from referee.errors import SeatError

_WANTS = serializers.ListField(child=serializers.CharField(max_length=12, help_text=", ".join(NOTICES)),
                               max_length=len(NOTICES))


class DeliverySerializer(serializers.Serializer):
    id = serializers.CharField()
    notice = serializers.CharField()
    game = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="pending, sent or failed (given up)")
    attempts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    sent_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    answer = serializers.CharField(help_text="The receiver's status line, e.g. 'HTTP 200 OK'.")
    error = serializers.CharField()


class ChannelSerializer(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.CharField(help_text="apprise, webhook or email")
    label = serializers.CharField()
    url = serializers.CharField(help_text="Masked: tokens and passwords are not shown again.")
    wants = serializers.ListField(child=serializers.CharField())
    markup = serializers.CharField()
    enabled = serializers.BooleanField()
    disabled_reason = serializers.CharField()
    last_error = serializers.CharField()
    last_error_at = serializers.DateTimeField(allow_null=True)
    deliveries = DeliverySerializer(many=True)


class NotificationsSerializer(serializers.Serializer):
    email = serializers.ListField(child=serializers.CharField())
    email_log = DeliverySerializer(many=True)
    channels = ChannelSerializer(many=True)
    webhooks = ChannelSerializer(many=True)


class MeNotificationsApi(APIView):
    permission_classes = [IsAuthenticated]

    class ChannelInput(serializers.Serializer):
        url = serializers.CharField(max_length=2000, help_text="One apprise URL: discord://, slack://, tgram://, "
                                    "matrixs://, ntfys:// (https://discord.com/api/webhooks/... works too).")
        wants = _WANTS
        label = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)

    class InputSerializer(serializers.Serializer):
        email = _WANTS
        channels = serializers.ListField(child=serializers.DictField(), max_length=10, required=False, default=list)

    @extend_schema(responses=NotificationsSerializer)
    def get(self, request: Request) -> Response:
        return Response(NotificationsSerializer(selectors.player_notices_get(user=request.user)).data)

    @extend_schema(request=InputSerializer, responses=NotificationsSerializer)
    @idempotent
    def put(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        channels = [self.ChannelInput(data=c) for c in data.validated_data["channels"]]
        for channel in channels:
            channel.is_valid(raise_exception=True)
        services.player_notices_set(user=request.user, email=data.validated_data["email"],
                                    channels=[c.validated_data for c in channels])
        return Response(NotificationsSerializer(selectors.player_notices_get(user=request.user)).data)


class MeWebhooksApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        url = serializers.URLField(max_length=2000)
        wants = _WANTS
        label = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)

    class OutputSerializer(serializers.Serializer):
        id = serializers.CharField()
        url = serializers.CharField()
        secret = serializers.CharField(help_text="The signing secret (Standard Webhooks): shown this once only.")

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        channel, secret = services.webhook_create(user=request.user, **data.validated_data)
        return Response({"id": str(channel.pk), "url": channel.url, "secret": secret}, status=status.HTTP_201_CREATED)


class MeChannelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None})
    def delete(self, request: Request, channel_id: str) -> Response:
        services.channel_delete(user=request.user, channel_id=channel_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeChannelTestApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={202: DeliverySerializer})
    def post(self, request: Request, channel_id: str) -> Response:
        row = services.test_notice_send(user=request.user, channel_id=channel_id)
        row.refresh_from_db()
        return Response(DeliverySerializer(selectors.delivery_row(row)).data, status=status.HTTP_202_ACCEPTED)


class MeChannelEnableApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: None})
    def post(self, request: Request, channel_id: str) -> Response:
        services.channel_enable(user=request.user, channel_id=channel_id)
        return Response({"enabled": True})


class GameChannelApi(APIView):
    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        url = serializers.CharField(max_length=2000)
        markup = serializers.ChoiceField(choices=["markdown", "bbcode"], default="markdown")
        wants = serializers.ListField(child=serializers.CharField(max_length=12, help_text=", ".join(services.GAME_NOTICES)),
                                      default=list(services.GAME_NOTICES))

    def _may_see(self, request: Request, game_id: str) -> str:
        game = game_for(request, game_id)
        if not (request.user.is_staff or game.created_by_id == request.user.pk):
            raise SeatError("Only the game's creator or a moderator sees its channel.")
        return str(game.pk)

    @extend_schema(responses=ChannelSerializer)
    def get(self, request: Request, game_id: str) -> Response:
        channel = selectors.game_channel_get(game_id=self._may_see(request, game_id))
        return Response(ChannelSerializer(channel).data if channel else None)

    @extend_schema(request=InputSerializer, responses=ChannelSerializer)
    @idempotent
    def put(self, request: Request, game_id: str) -> Response:
        game_id = self._may_see(request, game_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.game_channel_set(game_id=game_id, user=request.user, **data.validated_data)
        return Response(ChannelSerializer(selectors.game_channel_get(game_id=game_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, game_id: str) -> Response:
        services.game_channel_clear(game_id=self._may_see(request, game_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueChannelApi(APIView):
    """The league's channel: every game the league makes posts its turns and result there."""

    permission_classes = [IsAuthenticated]

    def _may_see(self, request: Request, league_id: int) -> int:
        if not request.user.is_staff:
            raise SeatError("Only a moderator sees a league's channel.")
        return league_id

    @extend_schema(responses=ChannelSerializer)
    def get(self, request: Request, league_id: int) -> Response:
        channel = selectors.league_channel_get(league_id=self._may_see(request, league_id))
        return Response(ChannelSerializer(channel).data if channel else None)

    @extend_schema(request=GameChannelApi.InputSerializer, responses=ChannelSerializer)
    @idempotent
    def put(self, request: Request, league_id: int) -> Response:
        data = GameChannelApi.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.league_channel_set(league_id=league_id, user=request.user, **data.validated_data)
        return Response(ChannelSerializer(selectors.league_channel_get(league_id=league_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, league_id: int) -> Response:
        services.league_channel_clear(league_id=league_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
