"""One test per catalogue case, named after its id and the rule it pins
(e.g. ``test_l1_the_worked_example_resolves_in_nine_steps``); at least 60 cases, the
worked example first."""

from __future__ import annotations

from lggwg_casebook import DOC, load_cases, render_markdown, verify

from tests.unit.games.catalogue import install_case_tests

CASES = load_cases()
install_case_tests(globals(), CASES, verify, doc=DOC, render=render_markdown,
                   script="tests/unit/games/lggwg/lggwg_casebook.py", minimum=60)


def test_the_worked_example_is_case_one() -> None:
    assert CASES[0].id == "L1" and "Red: Exec North" in CASES[0].clause


def test_every_ruling_is_pinned_by_cases_that_exist_and_every_cited_ruling_exists() -> None:
    import re

    rulings = (DOC.parents[1] / "rulings" / "lggwg.md").read_text(encoding="utf-8")
    entries = re.findall(r"^### (L-R\d+) .*?^- Pinned by: ([^\n]*)$", rulings, flags=re.M | re.S)
    assert entries and len(entries) == rulings.count("\n### L-R"), "every ruling has a Pinned by line"
    ids = {c.id for c in CASES}
    for ruling, pinned in entries:
        cited = set(re.findall(r"\bL(\d+)\b", pinned.replace("L-R", "")))
        for lo, hi in re.findall(r"\bL(\d+)–L(\d+)\b", pinned):
            cited |= {str(n) for n in range(int(lo), int(hi) + 1)}
        assert all(f"L{n}" in ids for n in cited), f"{ruling} cites a case that does not exist: {pinned}"
    for block in rulings.split("\n### ")[1:]:
        for part in ("- Clause", "- Question: ", "- Ruling: ", "- Pinned by: "):
            assert part in block, f"ruling {block.splitlines()[0]} has no {part.strip(' -:')}"
    defined = {r for r, _ in entries}
    for case in CASES:
        for ruling in re.findall(r"L-R\d+", case.ruling):
            assert ruling in defined, f"{case.id} cites {ruling}, which docs/rulings/lggwg.md does not define"
