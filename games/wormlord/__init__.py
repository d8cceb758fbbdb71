"""Wormlord: a real-time game of knotting strings on a 7x7 board (pure engine).

Everyone acts at once; the referee applies orders in arrival order (``at_ms``). Orders,
as JSON bodies (the referee adds ``actor`` and ``at_ms``; squares are ``a1``..``g7``,
``a1`` bottom left; colours are ``pink``, ``blue``, ``yellow``, ``brown``)::

    Conquer            {"square": "d2"}                   # an empty adjacent space
    Liberate           {"square": "d3", "owner": "blue"}  # the enemy colour you saw there
    PlaceHeadquarters  {"square": "d2"}                   # place or move your HQ
    LiftHeadquarters   {}
    Say                {"text": "take d4"}                # team variant: heard by your team
    StartRound         {"round": 1}                       # scheduler only
    EndRound           {"round": 1}                       # scheduler only (time limit)
    Pass               {}                                 # referee only; changes nothing

Events: GameSetUp, RoundStarted(round, starts_at_ms, ends_at_ms, first_knot_at_ms),
KnotLiberated(square, owner, by_seat, by), KnotPlaced(square, colour, seat, at_ms,
next_at_ms), HeadquartersPlaced(colour, seat, square, from_square),
HeadquartersLifted(colour, seat, square), RoundWon(round, colour, reason, at_ms, scores),
RoundTied(round, colours, at_ms, scores), GameWon(colour, seats), TeamSpoke(colour, seat,
text, seats) (team only).

Settings: map, teams, time_limit, round_seconds, knot_interval_ms, untie_ms,
countdown_ms, break_ms (``games.wormlord.state.Settings``).

Modules: ``board`` squares and colours; ``maps`` (and ``maps/*.txt``); ``state``;
``commands`` / ``events``; ``evolve``; ``checks`` / ``actions`` (§3, §5, §7.1);
``rounds`` (§3.1, §6, §7.2 and the scheduled work); ``bounds`` (version 2: at most 30
headquarters moves a colour and 100 ``Say`` a seat in a round, WL-R18); ``signup`` (settings, set-up);
``notation`` (docs/notation-wormlord.md); ``orders`` (orders as text); ``views``; ``bot``.
Rulings: docs/rulings/wormlord.md; cases: docs/cases/wormlord.md.
"""

from games.wormlord import notation, orders
from games.wormlord.commands import (
    Conquer,
    EndRound,
    Liberate,
    LiftHeadquarters,
    Pass,
    PlaceHeadquarters,
    Say,
    StartRound,
)
from games.wormlord.notation import NotationError, format_position, validate
from games.wormlord.notation import parse as parse_position
from games.wormlord.orders import OrderError, format_order, parse_order
from games.wormlord.rules import RULESET, RULESET_V1, WormlordRuleset

__all__ = [
    "RULESET", "RULESET_V1", "WormlordRuleset",
    # orders (JSON bodies through the API; the referee adds actor and at_ms)
    "Conquer", "EndRound", "Liberate", "LiftHeadquarters", "Pass", "PlaceHeadquarters", "Say", "StartRound",
    # positions and orders as text (docs/notation-wormlord.md)
    "NotationError", "OrderError", "format_order", "format_position", "notation", "orders", "parse_order",
    "parse_position", "validate",
]
