"""Worms: Evolved v2.1 — the flagship ruleset, a pure engine (no Django, clock or I/O).

Modules by topic (imports go one way, down this list; tests/unit/referee/test_layering.py):

* ``board`` squares, directions; ``pieces`` the small parts of a position; ``blast_specs``
  what a blast is (specs, rings, the blasts that are no weapon's); ``items`` one entry per
  weapon and utility of §5/§6/§9 (price, reach, delivery, blast); ``state`` the position;
  ``inventory`` stock arithmetic; ``commands`` / ``events`` (gathering ``events_setup``,
  ``events_pieces``, ``events_secret``); ``evolve`` (never checks; with ``evolve_objects``);
  ``outcome`` the working copy ``decide`` emits into.
* ``physics`` (§8 falls, push paths, bounces, parachute drift), ``water`` (drowning,
  rising water), ``crates`` (§9 crates and cards, crate shower and spy), ``blast`` (the one
  module that resolves blasts: explosions, pushes, landings, mines, booby traps, deaths).
* ``turn`` (who acts, ending, winning), ``movement`` (§7), ``utilities`` (§5 rope, fast
  walk, teleport, bubble, invisibility), ``deliveries`` (aimed, thrown, from the air,
  placed), ``walkers`` (one walk for kamikaze, sheep, mad cow, old woman),
  ``weapons_special`` (prod, fire punch, super weapons), ``weapons`` (firing), ``stuck``
  (§7 stuck, §10 stalemate), ``environment`` (turn start: water, sudden death, poison,
  crates, wind, stalemate), ``signup`` (§4, §6), ``mapgen`` (§4, §13 ruling), ``rules`` the
  ``Ruleset`` (``decide`` dispatch).
* ``invisibility`` (§11: which events become private, applied by ``Outcome.emit``).
* ``notation`` (positions as text, docs/notation.md: ``notation_write``, ``notation_read``,
  ``notation_check``), ``orders`` (orders as text), ``views`` (secrets removed per viewer),
  ``bot`` / ``bot_shots`` (the ``bot`` deadline policy).
"""

from games.worms import notation, orders
from games.worms.commands import (
    EndTurn,
    Fire,
    ModeratorCorrection,
    MoveWorm,
    SkipTurn,
    StartGame,
    StartTurn,
    SubmitShoppingList,
    SubmitTurn,
    Surrender,
    UseUtility,
)
from games.worms.notation import NotationError, format_position, validate
from games.worms.notation import parse as parse_position
from games.worms.orders import OrderError, parse_order
from games.worms.rules import RULESET, RULESET_V2_1, WormsRuleset

__all__ = [
    "RULESET", "RULESET_V2_1", "WormsRuleset",
    # orders (JSON bodies through the API; the referee adds actor and at_ms)
    "EndTurn", "Fire", "ModeratorCorrection", "MoveWorm", "SkipTurn", "StartGame", "StartTurn",
    "SubmitShoppingList", "SubmitTurn", "Surrender", "UseUtility",
    # positions and orders as text (docs/notation.md)
    "NotationError", "OrderError", "format_position", "notation", "orders", "parse_order", "parse_position",
    "validate",
]
