"""Orders as text, the way players wrote them in their PMs (and the case catalogue does):

    A1 move c5 d5          walk worm A1 to c5 then d5
    A1 fire prod E         fire a weapon (target: a direction or a square)
    A1 fire mine e4 p      place a poison mine on e4 (d damage, s shockwave, p poison)
    A1 fire air_strike c5-g5    5 missiles in a row; A1 fire sheep_strike c5 S
    (docs/notation.md lists every weapon's target)
    A1 use ninja_rope      use a utility (A1 use teleport k5: the teleport's square)
    end | surrender        end the turn | give up
    start | skip           the turn-start phase | the deadline passed (referee orders)
    shop mad_cow bazooka3 parachute2    a shopping list (team weapon first)
    turn A1 move c5; A1 fire prod E; end   a whole turn at once (SubmitTurn)
"""

from __future__ import annotations

from games.base import Command
from games.worms.commands import (
    EndTurn,
    Fire,
    MoveWorm,
    SkipTurn,
    StartTurn,
    Step,
    SubmitShoppingList,
    SubmitTurn,
    Surrender,
    UseUtility,
)
from games.worms.notation import NotationError, parse_stock


class OrderError(ValueError):
    """The text is not an order (as opposed to an order the rules refuse)."""


def parse_order(text: str, turn: int = 0) -> Command:
    words = text.split()
    if not words:
        raise OrderError("an empty order")
    head = words[0].lower()
    if head == "turn":
        steps: list[Step] = []
        for part in " ".join(words[1:]).split(";"):
            step = parse_order(part, turn)
            if not isinstance(step, MoveWorm | Fire | UseUtility | EndTurn):
                raise OrderError(f"{part.strip()!r} cannot be a step of a turn")
            steps.append(step)
        return SubmitTurn(steps=tuple(steps))
    if head == "end":
        return EndTurn()
    if head == "surrender":
        return Surrender()
    if head == "start":
        return StartTurn(turn=turn)
    if head == "skip":
        return SkipTurn(turn=turn)
    if head == "shop":
        if len(words) < 2:
            raise OrderError("shop needs a team weapon first")
        try:
            items = tuple(parse_stock(w, "shopping list") for w in words[2:])
        except NotationError as exc:
            raise OrderError(str(exc)) from None
        return SubmitShoppingList(team_weapon=words[1], items=items)
    if len(words) < 2:
        raise OrderError(f"{text!r}: after the worm say move, fire or use")
    worm, verb = words[0].upper(), words[1].lower()
    if verb == "move":
        return MoveWorm(worm=worm, path=tuple(w.lower() for w in words[2:]))
    if verb == "fire":
        if len(words) < 3:
            raise OrderError(f"{text!r}: fire what?")
        target = words[3] if len(words) > 3 else ""
        mine_type = words[4] if len(words) > 4 else ""
        return Fire(worm=worm, weapon=words[2].lower(), target=target, mine_type=mine_type)
    if verb == "use":
        if len(words) < 3:
            raise OrderError(f"{text!r}: use what?")
        target = words[3].lower() if len(words) > 3 else ""
        return UseUtility(worm=worm, utility=words[2].lower(), target=target)
    raise OrderError(f"{text!r}: {verb!r} is not move, fire or use")
