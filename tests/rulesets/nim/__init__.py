"""Nim: the worked example of docs/adding-a-ruleset.md, a whole ruleset in three files.

One pile of stones; the seats take turns removing 1 to ``most`` stones; whoever takes the
last stone wins. The package exports ``RULESET`` (what the registry loads), its orders and
its notation, as every shipped ruleset does.
"""

from tests.rulesets.nim.notation import format_position, parse_position
from tests.rulesets.nim.rules import RULESET, Nim, NimSettings, NimState, PassTurn, Take

__all__ = ["RULESET", "Nim", "NimSettings", "NimState", "PassTurn", "Take", "format_position", "parse_position"]
