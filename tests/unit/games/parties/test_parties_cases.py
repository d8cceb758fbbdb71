"""One test per catalogue case, named after its id and the rule it pins
(e.g. ``test_p5_3_a_solo_squeezing_between_two_mountains_loses_a_tenth``)."""

from __future__ import annotations

from parties_casebook import DOC, load_cases, render_markdown, verify

from tests.unit.games.catalogue import install_case_tests

CASES = load_cases()
install_case_tests(globals(), CASES, verify, doc=DOC, render=render_markdown,
                   script="tests/unit/games/parties/parties_casebook.py", minimum=40)
