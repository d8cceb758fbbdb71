"""One test per catalogue case, named after its id and the rule it pins
(e.g. ``test_wl3_3_1_a_knot_needs_the_knot_interval``)."""

from __future__ import annotations

from wormlord_casebook import DOC, load_cases, render_markdown, verify

from tests.unit.games.catalogue import install_case_tests

CASES = load_cases()
install_case_tests(globals(), CASES, verify, doc=DOC, render=render_markdown,
                   script="tests/unit/games/wormlord/wormlord_casebook.py", minimum=40)
