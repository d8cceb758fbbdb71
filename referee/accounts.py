"""Accounts and API tokens: writes (``account_create``, ``token_issue``) and the one read
the API needs (``account_seats``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from rest_framework.authtoken.models import Token

from referee.errors import InvalidSetting
from referee.models import Seat


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    users = get_user_model()
    if users.objects.filter(username__iexact=username).exists():
        raise InvalidSetting("That name is taken.", field="username")
    try:
        # with the would-be user, so a password like the username or e-mail is refused
        password_validation.validate_password(password, users(username=username, email=email))
    except ValidationError as exc:
        raise InvalidSetting(" ".join(exc.messages), field="password") from None
    return users.objects.create_user(username=username, password=password, email=email)


@transaction.atomic
def token_issue(*, user: AbstractBaseUser) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def account_seats(*, user: AbstractBaseUser) -> list[Seat]:
    return list(Seat.objects.filter(user=user).select_related("game").order_by("-game__created_at"))
