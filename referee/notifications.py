"""What the game master used to post or PM about the clock: your turn started, your
deadline is near. E-mail through Django's mail settings (the console backend embedded)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.mail import send_mail

from referee.models import Game, Seat


def _game_url(game: Game) -> str:
    return f"{getattr(settings, 'REFEREE_BASE_URL', 'http://127.0.0.1:8000').rstrip('/')}/games/{game.pk}/"


def _recipients(seats: Iterable[Seat]) -> list[Seat]:
    return [s for s in seats if s.reminders and s.user is not None and s.user.email]


def _send(seats: Iterable[Seat], subject: str, body: Callable[[Seat], str]) -> int:
    return sum(
        send_mail(subject, body(seat), None, [seat.user.email], fail_silently=True) for seat in _recipients(seats)
    )


def turn_started(*, game: Game, seats: Iterable[Seat]) -> int:
    return _send(seats, f"[{game.name}] Your turn", lambda seat: (
        f"{seat.name}, it is your turn in {game.name}. You have {game.turn_limit_text}.\n"
        f"{_game_url(game)}\n\nTo stop these e-mails, turn reminders off in your settings."
    ))


def deadline_near(*, game: Game, seats: Iterable[Seat], due_at: dt.datetime) -> int:
    return _send(seats, f"[{game.name}] Your turn ends soon", lambda seat: (
        f"{seat.name}, your turn in {game.name} ends at {due_at:%Y-%m-%d %H:%M} UTC; after that the "
        f"referee takes it ({game.deadline_policy}).\n{_game_url(game)}"
    ))
