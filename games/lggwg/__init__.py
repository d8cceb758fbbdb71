"""Little Green Guys With Guns (LGGWG): every team writes a secret list of orders; when all
lists are in they resolve one order at a time in team order. A pure engine (no Django,
clock or I/O); rulings in docs/rulings/lggwg.md, cases in docs/cases/lggwg.md, notation
in docs/notation-lggwg.md.

Commands (JSON bodies; the referee adds ``actor`` and ``at_ms``):

* ``SubmitOrders``: ``{"orders": [{"kind": "move", "unit": "R1", "target": "N"}, ...]}``;
  kinds ``move`` (target a direction N NE E SE S SW W NW), ``fire`` (target a square, e.g.
  ``"e7"``), ``opp`` (opportunity fire, no target), ``oppmove`` (target a direction),
  ``mine`` (Miners, no target), ``hold`` (``unit`` may be empty), ``forfeit`` (no unit, last).
  A team may send a new list until the last team's list is in (at most 5 lists a turn
  from version 3, L-R29).
* ``ResolveAtDeadline`` (referee only): ``{"turn": 3, "missed": [2], "policy": "hold"|"bot"}``.

Modules: ``board`` (squares, terrain, the line), ``units`` (the unit table), ``maps`` (map
files), ``state``, ``commands``, ``events``, ``evolve``, ``orders`` (checks, order text), ``bounds`` (lists a turn),
``sight`` (line of sight, fog, memory), ``combat`` (shots), ``damage`` (hits, deaths,
blasts, scores), ``movement`` (steps, mines, health packs), ``resolve``
(§3 resolution), ``scoring`` (§7, the end), ``notation``, ``views``, ``bot``, ``rules``.
"""

from games.lggwg import notation, orders
from games.lggwg.commands import ResolveAtDeadline, SubmitOrders
from games.lggwg.notation import NotationError, format_position, validate
from games.lggwg.notation import parse as parse_position
from games.lggwg.orders import format_order, format_orders, parse_order, parse_orders
from games.lggwg.rules import RULESET, RULESET_V1, RULESET_V2, LggwgRuleset

__all__ = [
    "RULESET", "RULESET_V1", "RULESET_V2", "LggwgRuleset",
    # orders (JSON bodies through the API; the referee adds actor and at_ms)
    "ResolveAtDeadline", "SubmitOrders",
    # positions and order lists as text (docs/notation-lggwg.md)
    "NotationError", "format_order", "format_orders", "format_position", "notation", "orders", "parse_order",
    "parse_orders", "parse_position", "validate",
]
