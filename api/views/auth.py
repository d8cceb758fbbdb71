from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.throttling import AnonRateThrottle
from referee import accounts
from referee.errors import InvalidSetting


class TokenOutput(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()
    is_moderator = serializers.BooleanField()


def _token(user) -> dict:
    return {"username": user.get_username(), "token": accounts.token_issue(user=user), "is_moderator": user.is_staff}


class SignupApi(APIView):
    """Create a player account and get an API token for scripts and bots."""

    permission_classes = [AllowAny]
    throttle_classes = [AnonRateThrottle]

    class InputSerializer(serializers.Serializer):
        username = serializers.RegexField(r"^[A-Za-z0-9_.-]{3,30}$", help_text="3-30 letters, digits, _ . -")
        password = serializers.CharField(min_length=8, max_length=128, write_only=True)
        email = serializers.EmailField(required=False, allow_blank=True)

    @extend_schema(request=InputSerializer, responses={201: TokenOutput}, auth=[])
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = accounts.account_create(
                username=data.validated_data["username"], password=data.validated_data["password"],
                email=data.validated_data.get("email", ""),
            )
        except InvalidSetting as exc:
            raise ValidationError({str(exc.detail.get("field", "non_field_errors")): [exc.message]}) from None
        return Response(_token(user), status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    """Exchange a username and password for the account's API token."""

    permission_classes = [AllowAny]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, write_only=True)

    @extend_schema(request=InputSerializer, responses={200: TokenOutput}, auth=[])
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, username=data.validated_data["username"], password=data.validated_data["password"])
        if user is None:
            raise AuthenticationFailed("Wrong username or password.")
        return Response(_token(user))


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        is_moderator = serializers.BooleanField()
        seats = serializers.ListField(child=serializers.DictField())

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        seats = accounts.account_seats(user=request.user)
        return Response({
            "username": request.user.get_username(),
            "is_moderator": request.user.is_staff,
            "seats": [{"game": str(s.game_id), "game_name": s.game.name, "seat": s.number, "name": s.name,
                       "status": s.game.status} for s in seats],
        })
