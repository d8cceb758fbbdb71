"""The demo game the embedded default starts with, so there is something to look at."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from referee import services
from referee.instance import referee_get
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
    ruleset = settings.REFEREE_DEMO_RULESET
    game = services.game_create(name=DEMO_NAME, ruleset=ruleset, created_by=accounts[2])
    for user in accounts[:2]:
        services.seat_add(game=game, user=user, name=user.username.title())
    services.game_start(game=game)
    # The ruleset's own demo orders (Worms: the sign-up), so the demo opens on a game in play.
    referee = referee_get()
    rules = referee.ruleset_for(referee.store.get_game(str(game.pk)))
    for number, user in enumerate(accounts[:2], start=1):
        state, _ = referee.current(str(game.pk))
        for command in rules.demo_orders(state, number):
            services.command_handle(game_id=str(game.pk), user=user, command_type=type(command).__name__,
                                    payload=rules.command_to_data(command))
    return game
