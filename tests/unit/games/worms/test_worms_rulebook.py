"""The rules page (/rules/worms/) quotes every clause the case catalogue quotes: its
``rulebook.json`` is written with the catalogue, and this keeps the two in step."""

from __future__ import annotations

import json

from worms_casebook import DOC

from game_pages.worms import rulebook


def test_the_rules_page_quotes_every_clause_the_catalogue_quotes() -> None:
    stored = json.loads(rulebook.JSON.read_text(encoding="utf-8"))
    assert stored == rulebook.extract(DOC.read_text(encoding="utf-8")), (
        "run: python tests/unit/games/worms/worms_casebook.py")


def test_a_quote_is_kept_once_under_the_section_it_quotes() -> None:
    catalogue = "\n".join([
        "## §5 Weapons", '> §5: "RNG = 3"', "## §7 Playing", '> §5 BAZOOKA: "RNG = 3"', '> §7: "Go."',
        '> §7: "x"; §9 more', "## §5 Utilities",
    ])
    assert rulebook.extract(catalogue) == [
        {"clause": "§5", "title": "Weapons · Utilities", "quotes": ["RNG = 3"]},
        {"clause": "§7", "title": "Playing", "quotes": ["Go.", '"x"; §9 more']},
    ]
