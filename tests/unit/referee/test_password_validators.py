"""Sign-up refuses weak passwords (Django's validators are configured)
and still takes a reasonable one, through the service, the API and the web page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError

from referee.accounts import account_create
from referee.errors import InvalidSetting


def test_validators_are_configured():
    assert settings.AUTH_PASSWORD_VALIDATORS


@pytest.mark.parametrize("weak", ["password", "12345678", "qwertyuiop", "short1"])
def test_a_weak_password_is_refused(weak):
    with pytest.raises(ValidationError):
        password_validation.validate_password(weak)


@pytest.mark.django_db
def test_the_account_service_refuses_password_with_a_sentence():
    with pytest.raises(InvalidSetting, match="too common"):
        account_create(username="gandalf", password="password")


@pytest.mark.django_db
def test_the_sign_up_page_refuses_a_password_like_the_username():
    from django.test import Client

    page = Client().post("/signup/", {"username": "gandalfthegrey", "password1": "gandalfthegrey1",
                                      "password2": "gandalfthegrey1"})
    assert page.status_code == 200 and b"too similar" in page.content


@pytest.mark.django_db
def test_sign_up_with_password_is_refused_with_a_sentence_and_a_good_one_works():
    from rest_framework.test import APIClient

    client = APIClient()
    refused = client.post("/api/auth/signup/", {"username": "weakling", "password": "password"}, format="json")
    assert refused.status_code == 400
    assert "common" in refused.content.decode()
    made = client.post("/api/auth/signup/", {"username": "strongling", "password": "correct-horse-1"}, format="json")
    assert made.status_code == 201, made.content
    page = client.post("/signup/", {"username": "newbie", "password1": "password", "password2": "password"})
    assert page.status_code == 200 and b"too common" in page.content
