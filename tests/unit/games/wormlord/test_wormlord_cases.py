"""One test per catalogue case, named after its id and the rule it pins
(e.g. ``test_wl3_3_1_a_knot_needs_the_knot_interval``)."""

from __future__ import annotations

from collections.abc import Callable

from wormlord_casebook import DOC, Case, load_cases, render_markdown, verify

CASES = load_cases()


def _make(case: Case) -> Callable[[], None]:
    def test() -> None:
        verify(case)

    test.__name__ = case.test_name
    test.__doc__ = f"{case.id} ({case.section}): {case.clause.strip()}"
    return test


for _case in CASES:
    globals()[_case.test_name] = _make(_case)


def test_there_are_at_least_forty_cases_with_unique_ids() -> None:
    assert len(CASES) >= 40
    assert len({c.id for c in CASES}) == len(CASES)
    assert len({c.test_name for c in CASES}) == len(CASES)


def test_catalogue_document_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render_markdown(CASES), (
        "docs/cases/wormlord.md is stale: run python tests/unit/games/wormlord/wormlord_casebook.py"
    )
