"""Moderators' corrections: the referee's answer to a disputed ruling is a new order, never
an edit of history. Only a moderator may give one; the referee records the reason in a
public notice before it (``referee.services.moderator_ruling``).

    set_health    worm, health (>= 1)           a miscounted hit
    move_worm     worm, square                  a worm misplaced by a disputed push
    restore_worm  worm, square, health          a worm wrongly killed
    return_ammo   seat, item, count             ammunition wrongly spent
"""

from __future__ import annotations

from games.base import ActorKind, RuleViolation
from games.worms import events as ev
from games.worms import items
from games.worms.board import SquareError, parse_square
from games.worms.commands import ModeratorCorrection
from games.worms.outcome import Outcome
from games.worms.state import Phase, Stock

RULE = "moderation"


def correct(out: Outcome, command: ModeratorCorrection) -> None:
    if command.actor.kind is not ActorKind.MODERATOR:
        raise RuleViolation(RULE, "Only a moderator can correct the game.")
    if out.state.phase is not Phase.PLAYING:
        raise RuleViolation(RULE, "Corrections apply to a game in play.")
    action = {
        "set_health": _set_health, "move_worm": _move_worm,
        "restore_worm": _restore_worm, "return_ammo": _return_ammo,
    }.get(command.action)
    if action is None:
        raise RuleViolation(RULE, "A correction is one of set_health, move_worm, restore_worm, return_ammo.")
    action(out, command)


def _live_worm(out: Outcome, worm_id: str):
    worm = out.state.worm(worm_id.strip().upper())
    if worm is None:
        raise RuleViolation(RULE, f"There is no living worm {worm_id!r}.")
    return worm


def _free_square(out: Outcome, text: str):
    try:
        square = parse_square(text)
    except SquareError as exc:
        raise RuleViolation(RULE, str(exc)) from None
    if out.state.is_water(square):
        raise RuleViolation(RULE, f"{text} is water.")
    if not out.state.empty(square):
        raise RuleViolation(RULE, f"{text} is not free.")
    return square


def _health(value: int) -> int:
    if not 1 <= value <= 1000:
        raise RuleViolation(RULE, "Health must be between 1 and 1000.")
    return value


def _set_health(out: Outcome, command: ModeratorCorrection) -> None:
    worm = _live_worm(out, command.worm)
    health = _health(command.health)
    if health < worm.health:
        out.emit(ev.WormDamaged(worm.id, worm.health - health, health, "moderator ruling"))
    elif health > worm.health:
        out.emit(ev.WormHealed(worm.id, health - worm.health, health))


def _move_worm(out: Outcome, command: ModeratorCorrection) -> None:
    worm = _live_worm(out, command.worm)
    x, y = _free_square(out, command.square)
    out.emit(ev.WormMoved(worm.id, x, y, cost=0, cause="moderator ruling"))


def _restore_worm(out: Outcome, command: ModeratorCorrection) -> None:
    worm_id = command.worm.strip().upper()
    if out.state.worm(worm_id) is not None:
        raise RuleViolation(RULE, f"{worm_id} is alive.")
    team = out.state.team_of_letter(worm_id[:1]) if worm_id else None
    if team is None or not worm_id[1:].isdigit():
        raise RuleViolation(RULE, f"{command.worm!r} does not name a worm of any team.")
    x, y = _free_square(out, command.square)
    out.emit(ev.WormRestored(worm_id, team.seat, x, y, _health(command.health)))


def _return_ammo(out: Outcome, command: ModeratorCorrection) -> None:
    team = out.state.team(command.seat)
    if team is None:
        raise RuleViolation(RULE, f"There is no team at seat {command.seat}.")
    spec = items.ITEMS.get(command.item)
    if spec is None or spec.free:
        raise RuleViolation(RULE, f"{command.item!r} is not an item that is counted.")
    if not 1 <= command.count <= 20:
        raise RuleViolation(RULE, "Return 1 to 20 units.")
    out.emit(ev.ItemsGained(team.seat, (Stock(command.item, command.count),), "moderator ruling"))
