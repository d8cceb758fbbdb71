"""Worms: Evolved v2.1 — the flagship ruleset, a pure engine (no Django, clock or I/O).

Modules by topic:

* ``board`` squares, directions; ``items`` the §5/§6/§9 registry; ``state`` the position;
  ``inventory`` stock arithmetic; ``commands`` / ``events``; ``evolve`` (never checks).
* ``rules`` the ``Ruleset`` (``decide`` dispatch on an ``outcome.Outcome`` working copy).
* ``signup`` (§4, §6), ``mapgen`` (§4, §13 ruling), ``environment`` (turn start: water,
  sudden death, poison, crates, wind, stalemate), ``turn`` (who acts, ending, winning),
  ``movement`` (§7), ``weapons`` (handlers by name), ``physics`` (§8 falls, pushes,
  parachutes), ``explosions`` (blasts, mines, drums, dying worms, donor cards), ``crates``,
  ``utilities`` (§5 rope, fast walk, teleport, bubble, invisibility; crate spy and shower),
  ``invisibility`` (§11: which events become private, applied by ``Outcome.emit``).
* ``notation`` (positions as text, docs/notation.md), ``orders`` (orders as text),
  ``views`` (secrets removed per viewer, from positions and from public events), ``bot`` (the ``bot`` deadline policy).
"""

from games.worms.rules import RULESET, WormsRuleset

__all__ = ["RULESET", "WormsRuleset"]
