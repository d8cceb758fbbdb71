"""What the game master used to post or PM about the clock: your turn started, your
deadline is near. E-mail through Django's mail settings (the console backend embedded)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.core.mail import send_mail

from referee.models import Game, Seat


def _game_url(game: Game) -> str:
    return f"{getattr(settings, 'REFEREE_BASE_URL', 'http://127.0.0.1:8000').rstrip('/')}/games/{game.pk}/"


def _recipients(seats: Iterable[Seat]) -> list[Seat]:
    return [s for s in seats if s.reminders and s.user is not None and s.user.email]


def turn_started(*, game: Game, seats: Iterable[Seat]) -> int:
    sent = 0
    for seat in _recipients(seats):
        sent += send_mail(
            f"[{game.name}] Your turn",
            f"{seat.name}, it is your turn in {game.name}. You have {game.turn_limit_hours} hours.\n"
            f"{_game_url(game)}\n\nTo stop these e-mails, turn reminders off on the game page.",
            None, [seat.user.email], fail_silently=True,
        )
    return sent


def deadline_near(*, game: Game, seats: Iterable[Seat], due_at: dt.datetime) -> int:
    sent = 0
    for seat in _recipients(seats):
        sent += send_mail(
            f"[{game.name}] Your turn ends soon",
            f"{seat.name}, your turn in {game.name} ends at {due_at:%Y-%m-%d %H:%M} UTC; after that the "
            f"referee takes it ({game.deadline_policy}).\n{_game_url(game)}",
            None, [seat.user.email], fail_silently=True,
        )
    return sent
