"""One test per catalogue case, named after its id and the rule it pins
(e.g. ``test_w8_2_fall_of_four_costs_twenty``)."""

from __future__ import annotations

from worms_casebook import DOC, load_cases, render_markdown, verify

from tests.unit.games.catalogue import install_case_tests

CASES = load_cases()
install_case_tests(globals(), CASES, verify, doc=DOC, render=render_markdown,
                   script="tests/unit/games/worms/worms_casebook.py", minimum=0)
