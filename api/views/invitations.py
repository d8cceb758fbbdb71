"""Invitations to private games: the creator or a moderator invites a
username; the invited user then sees the game and may join it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import idempotent
from referee import lobby, lobby_selectors
from referee.models import Invitation


class InvitationOutput(serializers.Serializer):
    username = serializers.CharField()
    invited_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


def _out(invitation: Invitation) -> dict[str, object]:
    by = invitation.invited_by
    return {
        "username": invitation.user.get_username(),
        "invited_by": by.get_username() if by is not None else None,
        "created_at": invitation.created_at,
    }


class GameInvitationsApi(APIView):
    """GET lists a private game's invitations, POST invites a username, DELETE
    (``?username=``) withdraws one: for the game's creator and moderators."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150, help_text="the user to invite")

    @extend_schema(responses=InvitationOutput(many=True))
    def get(self, request: Request, game_id: str) -> Response:
        invitations = lobby_selectors.invitations_of(game_id=game_id, user=request.user)
        return Response(InvitationOutput([_out(i) for i in invitations], many=True).data)

    @extend_schema(request=InputSerializer, responses={201: InvitationOutput})
    @idempotent
    def post(self, request: Request, game_id: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = lobby.invitation_create(game_id=game_id, user=request.user,
                                             username=data.validated_data["username"])
        return Response(InvitationOutput(_out(invitation)).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[OpenApiParameter("username", str, required=True)], responses={204: None})
    def delete(self, request: Request, game_id: str) -> Response:
        lobby.invitation_withdraw(game_id=game_id, user=request.user,
                                  username=request.query_params.get("username", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)
