"""The demo game the embedded default starts with, so there is something to look at."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from referee import services
from referee.models import Game

DEMO_NAME = "Demo game"


@transaction.atomic
def demo_game_ensure() -> Game:
    users = get_user_model()
    accounts = []
    for name, staff in (("alice", False), ("bob", False), ("moderator", True)):
        user, created = users.objects.get_or_create(username=name, defaults={"is_staff": staff, "is_superuser": staff})
        if created:
            user.set_password("demo")
            user.save()
        accounts.append(user)
    existing = Game.objects.filter(name=DEMO_NAME).first()
    if existing is not None:
        return existing
    ruleset = getattr(settings, "REFEREE_DEMO_RULESET", "worms")
    game = services.game_create(name=DEMO_NAME, ruleset=ruleset, created_by=accounts[2])
    for user in accounts[:2]:
        services.seat_add(game=game, user=user, name=user.username.title())
    services.game_start(game=game)
    if ruleset == "worms":
        # Sign-up done for them, so the demo opens on a board with a turn running.
        shopping = [
            ("mad_cow", [{"item": "bazooka", "count": 3}, {"item": "grenade", "count": 3},
                         {"item": "mine", "count": 2}, {"item": "dynamite", "count": 1}]),
            ("minigun", [{"item": "shotgun", "count": 3}, {"item": "longbow", "count": 2},
                         {"item": "dynamite", "count": 2}, {"item": "mine", "count": 2}]),
        ]
        for user, (team_weapon, items) in zip(accounts[:2], shopping, strict=True):
            services.command_handle(game_id=str(game.pk), user=user, command_type="SubmitShoppingList",
                                    payload={"team_weapon": team_weapon, "items": items})
    return game
