"""What every ruleset's case catalogue shares (in the manner of the DATC): cases read from
``cases/*.toml``, one test per case named after its id and rule, the outcome checks every
case makes, and the Markdown document under docs/cases/ that a test keeps current.

Each ruleset's ``<name>_casebook.py`` keeps what is its own: the ``Case`` fields, how a
case is run and what its ``expect`` lines mean."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from games.base import Command, Event, RuleViolation
from games.registry import default_registry


class CaseLike(Protocol):
    id: str
    name: str
    section: str
    clause: str
    ruling: str
    note: str
    reject: str
    reason: str
    expect: tuple[str, ...]

    @property
    def test_name(self) -> str: ...


C = TypeVar("C", bound=CaseLike)
S = TypeVar("S")


@dataclass(frozen=True)
class CatalogueCase:
    """The fields every catalogue's cases have: ``id`` (W8.2, L1 ...), ``name`` (reads as a
    rule), ``section``, ``clause`` (quoted), ``position`` (in the ruleset's notation),
    ``orders``, forced ``dice``, ``expect`` lines or ``reject`` (the rule) with ``reason``,
    the position ``after`` (optional), and the ``ruling`` and ``note`` it cites. A
    ruleset's catalogue subclasses it to add its own (a seat count to set up, settings)."""

    id: str
    name: str
    section: str
    clause: str
    position: str = ""
    orders: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    expect: tuple[str, ...] = ()
    after: str = ""
    reject: str = ""
    reason: str = ""
    ruling: str = ""
    note: str = ""

    @property
    def test_name(self) -> str:
        return test_name_of(self.id, self.name)


@dataclass(frozen=True)
class VersionedCase(CatalogueCase):
    """A case of a ruleset that keeps older versions registered: ``version`` is the one it
    is played under ("": the latest); an older version's case pins what games begun under
    it still do when they are verified. ``ruleset`` is the registry's name for it."""

    ruleset: ClassVar[str]
    version: str = ""

    @property
    def rules(self) -> Any:
        return default_registry().get(self.ruleset, self.version or None)


@dataclass
class Played(Generic[S]):
    """A case played: the position after it, the events, the refusal of its last order (if
    it was refused) and how many forced dice were left over."""

    state: S
    events: list[Event] = field(default_factory=list)
    rejection: RuleViolation | None = None
    unused_dice: int = 0


def play(played: Played[S], orders: Sequence[str], command: Callable[[S, str], Command],
         decide: Callable[[S, Command], Sequence[Event]], fold: Callable[[S, Sequence[Event]], S]) -> Played[S]:
    """Give the case's orders one by one from ``played``'s position. Only the last may be
    refused: its refusal is kept and the position stays as it was before it; an earlier
    refusal is the case's own mistake."""
    for i, text in enumerate(orders):
        order = command(played.state, text)
        try:
            events = decide(played.state, order)
        except RuleViolation as exc:
            if i != len(orders) - 1:
                raise AssertionError(f"order {i + 1} ({text!r}) was refused: {exc}") from exc
            played.rejection = exc
            break
        played.events.extend(events)
        played.state = fold(played.state, events)
    return played


def check_start(case: CatalogueCase, parse: Callable[[str], S], show: Callable[[S], str],
                validate: Callable[[S], list[str]] | None = None) -> None:
    """The case's position reads back as written and (given ``validate``) is a legal one."""
    start = parse(case.position)
    assert show(start) == case.position, f"{case.id}: the position does not round-trip: {show(start)}"
    if validate is not None:
        assert not validate(start), f"{case.id}: invalid position: {validate(start)}"


def check(case: CatalogueCase, played: Played[S], holds: Callable[[S, list[Event], str], str | None],
          show: Callable[[S], str], validate: Callable[[S], list[str]] | None = None) -> None:
    """The one check of a played case, every catalogue's: the outcome (``assert_outcome``),
    every ``expect`` line (``holds`` says what is wrong with one, or None), the position
    after legal (given ``validate``; a case refused before any position exists has none)
    and, where the case gives it, the whole position after."""
    where = f"\n  position after: {show(played.state)}\n  events: {[type(e).__name__ for e in played.events]}"
    problems = [f"{text}: {p}" for text in case.expect if (p := holds(played.state, played.events, text))]
    assert_outcome(case, played.rejection, problems, where, played.unused_dice)
    if validate is not None and not (played.rejection and not played.events and not case.position):
        assert not validate(played.state), f"{case.id}: the position after is invalid: {validate(played.state)}{where}"
    if case.after:
        assert show(played.state) == case.after, f"{case.id}: position differs{where}"


def case_order(case: CaseLike) -> list[int]:
    """Catalogue order: by the numbers in the id (W8.19 after W8.2, L12 after L9)."""
    return [int(p) for p in re.findall(r"\d+", case.id)]


def test_name_of(case_id: str, name: str) -> str:
    return "test_" + re.sub(r"[^a-z0-9]+", "_", f"{case_id} {name}".lower()).strip("_")


def load_toml_cases(cases_dir: Path, make: Callable[..., C], tuples: Iterable[str] = ("orders", "dice", "expect")
                    ) -> list[C]:
    cases: list[C] = []
    for path in sorted(cases_dir.glob("*.toml")):
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for raw in data.get("case", []):
            for key in tuples:
                raw[key] = tuple(raw.get(key, ()))
            cases.append(make(**raw))
    return sorted(cases, key=case_order)


def assert_outcome(case: CaseLike, rejection: Exception | None, problems: Sequence[str], where: str,
                   unused_dice: int = 0) -> None:
    """The checks every case makes: refused under the expected rule with the expected
    reason (each part of ``reason`` split on " | "), or not refused; every forced die used;
    every ``expect`` line holds (``problems`` are the ones that did not)."""
    if case.reject:
        assert rejection is not None, f"{case.id}: expected a refusal under {case.reject}{where}"
        rule, message = getattr(rejection, "rule", ""), getattr(rejection, "message", str(rejection))
        assert rule == case.reject, f"{case.id}: refused under {rule}: {message}"
        for part in case.reason.split(" | "):
            assert part.lower() in message.lower(), (
                f"{case.id}: reason was {message!r}, expected it to mention {part!r}"
            )
    else:
        assert rejection is None, f"{case.id}: refused: {rejection}{where}"
    assert unused_dice == 0, f"{case.id}: {unused_dice} forced dice were not used{where}"
    assert not problems, f"{case.id}: " + "; ".join(problems) + where


def render_catalogue(cases: Sequence[C], header: Sequence[str], body: Callable[[C], list[str]],
                     title: Callable[[C], str] = lambda c: c.name) -> str:
    """The document: ``header``, then per section each case's id, name, test, quoted
    clause, ruling and note, followed by what ``body`` says (position, orders, result)."""
    lines = [*header, ""]
    section = None
    for case in cases:
        if case.section != section:
            section = case.section
            lines += [f"## {section}", ""]
        lines += [f"### {case.id} — {title(case)}", "", f"Test: `{case.test_name}`", ""]
        lines += [f"> {case.clause.strip()}", ""]
        if case.ruling:
            lines += [f"Ruling: {case.ruling}", ""]
        if case.note:
            lines += [case.note.strip(), ""]
        lines += body(case)
    return "\n".join(lines).rstrip() + "\n"


def refusal_line(case: CaseLike) -> list[str]:
    return [f"Result: refused under {case.reject} (“{case.reason}”), nothing changes.", ""]


def install_case_tests(namespace: dict[str, Any], cases: Sequence[C], verify: Callable[[C], None], *,
                       doc: Path, render: Callable[[Sequence[C]], str], script: str, minimum: int = 0) -> None:
    """Define, in the calling test module, one test per case plus the catalogue's own checks
    (unique ids and test names, at least ``minimum`` cases, the document current)."""

    def make(case: C) -> Callable[[], None]:
        def test() -> None:
            verify(case)

        test.__name__ = case.test_name
        test.__doc__ = f"{case.id} ({case.section}): {case.clause.strip()}"
        return test

    for case in cases:
        namespace[case.test_name] = make(case)

    def test_case_ids_and_names_are_unique() -> None:
        assert len({c.id for c in cases}) == len(cases)
        assert len({c.test_name for c in cases}) == len(cases)

    def test_the_catalogue_has_enough_cases() -> None:
        assert len(cases) >= minimum, f"{len(cases)} cases; the catalogue promises at least {minimum}"

    def test_catalogue_document_is_up_to_date() -> None:
        assert doc.read_text(encoding="utf-8") == render(cases), f"{doc.name} is stale: run python {script}"

    namespace["test_case_ids_and_names_are_unique"] = test_case_ids_and_names_are_unique
    namespace["test_the_catalogue_has_enough_cases"] = test_the_catalogue_has_enough_cases
    namespace["test_catalogue_document_is_up_to_date"] = test_catalogue_document_is_up_to_date


def write_doc(doc: Path, text: str) -> None:
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text, encoding="utf-8")
    print(f"wrote {doc}")
