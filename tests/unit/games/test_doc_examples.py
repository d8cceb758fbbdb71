"""Every example in the documents loads: each ``position`` block of docs/notation*.md parses,
prints back exactly and could happen in play (``position invalid``: parses, and ``validate``
says why it could not); each ``orders`` block's lines parse as orders; and every position
(before and after) and every order of the case catalogues in docs/cases/ does the same."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games import lggwg, parties, wormlord, worms  # noqa: F401  (the states' reprs)
from games.lggwg import notation as lggwg_notation
from games.lggwg.orders import parse_orders
from games.parties import notation as parties_notation
from games.parties.orders import parse_order as parties_order
from games.wormlord import notation as wormlord_notation
from games.wormlord.orders import expand as expand_orders
from games.wormlord.orders import parse_order as wormlord_order
from games.worms import notation as worms_notation
from games.worms.orders import parse_order as worms_order
from tests.unit.games.lggwg import lggwg_casebook
from tests.unit.games.parties import parties_casebook
from tests.unit.games.worms import worms_casebook

DOCS = Path(__file__).resolve().parents[3] / "docs"
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```$", re.M | re.S)
#: in an ``orders`` block, a ``(...)`` after two spaces ends a line as a comment
COMMENT = re.compile(r"\s{2,}\(.*\)$")


@dataclass(frozen=True)
class Notation:
    parse: Callable[[str], Any]
    format: Callable[[Any], str]
    validate: Callable[[Any], list[str]]
    #: an order line of the notation document (None: it has no order text of its own)
    order: Callable[[str], Any] | None
    #: an order line of the case catalogue, given the case's position before it
    case_order: Callable[[Any, str], Any]


NOTATIONS = {
    "worms": Notation(worms_notation.parse, worms_notation.format_position, worms_notation.validate,
                      worms_order, worms_casebook._command),
    "lggwg": Notation(lggwg_notation.parse, lggwg_notation.format_position, lggwg_notation.validate,
                      parse_orders, lggwg_casebook.command),
    "wormlord": Notation(wormlord_notation.parse, wormlord_notation.format_position, wormlord_notation.validate,
                         wormlord_order, lambda _state, text: [wormlord_order(o) for o in expand_orders([text])]),
    "parties": Notation(parties_notation.parse, parties_notation.format_position, parties_notation.validate,
                        None, lambda state, text: parties_order(text, state)),
}
NOTATION_DOCS = {"notation.md": "worms", "notation-lggwg.md": "lggwg", "notation-wormlord.md": "wormlord",
                 "notation-parties.md": "parties"}


def blocks(doc: Path) -> list[tuple[str, str]]:
    return [(info.strip(), body) for info, body in FENCE.findall(doc.read_text(encoding="utf-8"))]


def check_position(notation: Notation, text: str, *, invalid: bool = False) -> Any:
    state = notation.parse(text)
    assert notation.format(state) == text, f"does not print back as written: {text}"
    problems = notation.validate(state)
    if invalid:
        assert problems, f"marked invalid, but validate finds nothing wrong: {text}"
    else:
        assert problems == [], f"{problems}: {text}"
    return state


def test_the_notation_documents_are_all_known_and_every_code_block_says_what_it_is() -> None:
    assert {p.name for p in DOCS.glob("notation*.md")} == set(NOTATION_DOCS)
    for name in NOTATION_DOCS:
        untagged = [body[:40] for info, body in blocks(DOCS / name) if not info]
        assert untagged == [], f"{name}: a code block without a kind (position, orders, text ...)"


@pytest.mark.parametrize("doc", sorted(NOTATION_DOCS))
def test_every_example_position_and_order_in_a_notation_document_loads(doc: str) -> None:
    notation = NOTATIONS[NOTATION_DOCS[doc]]
    found = blocks(DOCS / doc)
    positions = [(info, body) for info, body in found if info.startswith("position")]
    assert positions, f"{doc} has no example position"
    for info, body in positions:
        for line in body.splitlines():
            check_position(notation, line, invalid=info == "position invalid")
    for info, body in found:
        if info == "orders":
            assert notation.order is not None, f"{doc}: this ruleset has no order text"
            for line in body.splitlines():
                notation.order(COMMENT.sub("", line))


def test_the_lggwg_example_gives_orders_only_for_a_team_that_has_sent_them() -> None:
    (_, body), = [b for b in blocks(DOCS / "notation-lggwg.md") if b[0] == "position"]
    state = lggwg_notation.parse(body.strip())
    assert [t.colour for t in state.teams if t.orders] == [t.colour for t in state.teams if t.submitted] == ["R"]


CASE = re.compile(r"^### (\S+) — .*?(?=^### |\Z)", re.M | re.S)
BLOCK = re.compile(r"^(Position(?: after)?):\n\n```\n(.*?)\n```$", re.M | re.S)
ORDERS = re.compile(r"^Orders: (.*)$", re.M)


def _set_up(ruleset: str, case_id: str) -> Any:
    """The position of a case that starts from a game just set up (no position written)."""
    if ruleset == "worms":
        (case,) = [c for c in worms_casebook.load_cases() if c.id == case_id]
        return worms_casebook.initial(case)
    if ruleset == "parties":
        (case,) = [c for c in parties_casebook.load_cases() if c.id == case_id]
        return parties_casebook.run(
            parties_casebook.Case(**{**case.__dict__, "orders": (), "expect": (), "reject": ""})
        ).state
    return None


@pytest.mark.parametrize("ruleset", sorted(NOTATIONS))
def test_every_position_and_order_in_a_case_catalogue_loads(ruleset: str) -> None:
    notation = NOTATIONS[ruleset]
    text = (DOCS / "cases" / f"{ruleset}.md").read_text(encoding="utf-8")
    cases = 0
    for section in CASE.finditer(text):
        cases += 1
        case_id, body = section.group(1), section.group(0)
        before = None
        for kind, position in BLOCK.findall(body):
            state = check_position(notation, position)
            if kind == "Position":
                before = state
        if before is None:
            before = _set_up(ruleset, case_id)
        for line in ORDERS.findall(body):
            for order in re.findall(r"`([^`]*)`", line):
                try:
                    notation.case_order(before, order)
                except Exception as exc:  # noqa: BLE001  (the message names the case)
                    raise AssertionError(f"{ruleset} {case_id}: order {order!r} does not parse: {exc}") from exc
    assert cases > 20, f"only {cases} cases found in docs/cases/{ruleset}.md"
