"""Parties: a bot arena on a grid (pure engine: no Django, clock or I/O).

Orders (JSON bodies; the referee adds ``actor`` and ``at_ms``):

* ``Move``: ``{"direction": "N"}`` — one of N, NE, E, SE, S, SW, W, NW, "stay"; optional
  ``"tick": 7`` refuses the order unless tick 7 is in play. Solos and party leaders send
  one per tick and may change it until the tick resolves (at most 3 choices a tick from
  version 2, P-R19); a missing move is "stay".
* ``SetAllyPolicy``: ``{"policy": "always"}`` — "always", "never", "lead" or "follow": the
  bot's standing answer when another solo meets it. Default "always". At most 3 a tick
  from version 2 (P-R19).
* ``StartTick`` / ``ResolveTick`` (``{"tick": n}``): the scheduler's, never a bot's.

A bot's view (``RULESET.view(state, Viewer.for_seat(n))``)::

    {"you": 3, "width": 16, "height": 12, "terrain": ["....M...", ...],   # "." open, M, F
     "tick": 7, "tick_start_ms": ..., "tick_deadline_ms": ..., "max_ticks": 600,
     "bots": [{"seat": 1, "x": 2, "y": 3, "square": "c4", "strength": 1.2,
               "strength_tenths": 12, "score": 0, "role": "solo"|"leader"|"follower",
               "party": <leader seat or null>, "moved": false, "ally_policy": ...(own only)}],
     "parties": [{"leader": 1, "members": [1, 5, 2]}], "to_act": [1, 3],
     "pending": {"1": "NE"},   # moves chosen this tick: your own party's only
     "scores": {"1": 0, ...}, "finished": false, "end_reason": null, "ranking": [[1], [2, 3]]}

x grows to the east, y to the south (north is up); ``c4`` is x=2, y=3.

Modules: ``board`` (squares, directions, squeeze), ``settings``, ``state``, ``commands``,
``events``, ``evolve``, ``mapgen`` (setup draws), ``movement`` (§4, §5), ``encounters``
(§1-§3), ``ticks`` (closing a tick, the end), ``views``, ``notation``, ``rules`` (the
Ruleset), ``bot`` (an example policy for HTTP bots).
"""

from games.parties import notation, orders
from games.parties.commands import Move, ResolveTick, SetAllyPolicy, StartTick
from games.parties.notation import NotationError, format_position, validate
from games.parties.notation import parse as parse_position
from games.parties.orders import OrderError, format_order, parse_order, parse_orders
from games.parties.rules import RULESET, RULESET_V1, PartiesRuleset

__all__ = [
    "RULESET", "RULESET_V1", "PartiesRuleset",
    # orders (JSON bodies through the API; the referee adds actor and at_ms)
    "Move", "ResolveTick", "SetAllyPolicy", "StartTick",
    # positions and orders as text (docs/notation-parties.md)
    "NotationError", "OrderError", "format_order", "format_position", "notation", "orders", "parse_order",
    "parse_orders", "parse_position", "validate",
]
