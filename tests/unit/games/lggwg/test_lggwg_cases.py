"""One test per catalogue case, named after its id and the rule it pins
(e.g. ``test_l1_the_worked_example_resolves_in_nine_steps``)."""

from __future__ import annotations

from collections.abc import Callable

from lggwg_casebook import DOC, Case, load_cases, render_markdown, verify

CASES = load_cases()


def _make(case: Case) -> Callable[[], None]:
    def test() -> None:
        verify(case)

    test.__name__ = case.test_name
    test.__doc__ = f"{case.id} ({case.section}): {case.clause.strip()}"
    return test


for _case in CASES:
    globals()[_case.test_name] = _make(_case)


def test_case_ids_and_names_are_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)
    assert len({c.test_name for c in CASES}) == len(CASES)


def test_the_catalogue_has_sixty_cases_and_the_worked_example_is_case_one() -> None:
    assert len(CASES) >= 60
    assert CASES[0].id == "L1" and "Red: Exec North" in CASES[0].clause


def test_catalogue_document_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render_markdown(CASES), (
        "docs/cases/lggwg.md is stale: run python tests/unit/games/lggwg/lggwg_casebook.py"
    )
