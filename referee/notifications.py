"""What the game master used to post or PM about the clock: your turn started, your
deadline is near. E-mail through Django's mail settings (the console backend embedded)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import send_mail

from referee import noticeboard
from referee.models import Game, Seat
from referee.store import sql as store_sql


def _game_url(game: Game) -> str:
    return f"{getattr(settings, 'REFEREE_BASE_URL', 'http://127.0.0.1:8000').rstrip('/')}/games/{game.pk}/"


@dataclass(frozen=True)
class Recipient:
    name: str  # the seat's name in the game
    email: str


_RECIPIENTS = ("SELECT s.name, u.email FROM referee_seat s JOIN auth_user u ON u.id = s.user_id "
               "WHERE s.game_id = %s::uuid AND s.number = ANY(%s::int4[]) AND s.reminders AND u.email <> '' "
               "ORDER BY s.number")


def recipients_get(*, game_id: str, seats: Iterable[int], due_kind: str = "", key: str = "") -> list[Recipient]:
    """Who of these seats gets the referee's e-mails: reminders on, an address known. With
    the due row's kind and key, the same statement records the turn's (or reminder's)
    notices for the seats' and the game's other channels (whatever is plugged into the
    noticeboard)."""
    numbers = [int(n) for n in seats]
    recorder = noticeboard.plugged()
    if due_kind and recorder is not None:
        return [Recipient(name, email) for name, email in recorder.recipients_recording(
            due_kind=due_kind, game_id=str(game_id), key=key, seats=numbers)]
    if store_sql.enabled():
        return [Recipient(name, email) for name, email in store_sql.run(_RECIPIENTS, (str(game_id), numbers))]
    return [Recipient(s.name, s.user.email) for s in Seat.objects.filter(
        game_id=game_id, number__in=numbers, reminders=True, user__isnull=False).exclude(user__email="")
        .select_related("user").order_by("number")]


def _send(recipients: Iterable[Recipient], subject: str, body: Callable[[Recipient], str]) -> int:
    return sum(send_mail(subject, body(r), None, [r.email], fail_silently=True) for r in recipients)


def turn_started(*, game: Game, recipients: Iterable[Recipient]) -> int:
    return _send(recipients, f"[{game.name}] Your turn", lambda seat: (
        f"{seat.name}, it is your turn in {game.name}. You have {game.turn_limit_text}.\n"
        f"{_game_url(game)}\n\nTo stop these e-mails, turn reminders off in your settings."
    ))


def deadline_near(*, game: Game, recipients: Iterable[Recipient], due_at: dt.datetime) -> int:
    return _send(recipients, f"[{game.name}] Your turn ends soon", lambda seat: (
        f"{seat.name}, your turn in {game.name} ends at {due_at:%Y-%m-%d %H:%M} UTC; after that the "
        f"referee takes it ({game.deadline_policy}).\n{_game_url(game)}"
    ))
