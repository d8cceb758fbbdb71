"""The Wormlord case catalogue (in the manner of the DATC): load ``cases/*.toml``, run
each case, check its expectations, render the catalogue as Markdown.

Regenerate the document with ``python tests/unit/games/wormlord/wormlord_casebook.py``.

Each case: ``id`` (WL3.2-1), ``name`` (reads as a rule), ``section`` (the rulebook section,
numbered as in docs/rulings/wormlord.md), ``clause`` (quoted), either ``position``
(docs/notation-wormlord.md) or ``seats`` (+ ``settings``: a game just set up), ``version``
(the ruleset version it is played under, if not the latest), ``orders``
(games/wormlord/orders.py: ``seat 1 at 7000: conquer d2``; ``15 × (order; order)`` gives the
orders in brackets 15 times over, for the bounds on repeated orders), and either ``reject`` (the rule
of the refusal of the last order, or of the set-up) with ``reason`` (parts of the message,
joined by `` | ``), or ``expect`` (checks, below) and/or ``after`` (the position after).

Checks: ``knot pink at d2`` (``by seat 2`` may follow), ``no knot at d2``, ``supply pink 14``,
``hq pink at d3``, ``hq pink off``, ``next pink 10000``, ``wins pink 1``, ``base pink at d1``,
``phase break``, ``round 2``, ``start 4000``, ``end 183000``, ``end -``, ``map duel``,
``sides pink=1+2,blue=3+4``, ``impassable d1,a4`` (every impassable square, row 1 first;
``-`` none), ``score pink 4``, ``winners 1``, ``to act 1,2``,
``work round:2:start at 60000``, ``work round:1:start now``, ``no work``,
``event RoundWon``, ``no event GameWon``, ``seat 3 told TeamSpoke``, ``seat 3 not told TeamSpoke``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[4]
if str(ROOT) not in sys.path:  # running this file as a script
    sys.path.insert(0, str(ROOT))

from games.base import Event, RuleViolation, SeatInfo, Viewer, work_key_text  # noqa: E402
from games.dice import NoDice  # noqa: E402
from games.wormlord import RULESET, WormlordRuleset  # noqa: E402
from games.wormlord.board import SQUARES, Colour  # noqa: E402
from games.wormlord.notation import format_position, parse, validate  # noqa: E402
from games.wormlord.orders import expand, parse_order  # noqa: E402
from games.wormlord.rounds import scores  # noqa: E402
from games.wormlord.state import WormlordState  # noqa: E402
from tests.unit.games import catalogue  # noqa: E402

CASES_DIR = Path(__file__).parent / "cases"
DOC = ROOT / "docs" / "cases" / "wormlord.md"


@dataclass(frozen=True)
class Case(catalogue.VersionedCase):
    ruleset = "wormlord"
    seats: int = 0
    settings: dict[str, Any] = field(default_factory=dict)


def load_cases() -> list[Case]:
    return catalogue.load_toml_cases(CASES_DIR, Case, tuples=("orders", "expect"))


def run(case: Case) -> catalogue.Played[WormlordState]:
    rules: WormlordRuleset = case.rules
    if case.seats:
        seats = [SeatInfo(n, f"player {n}") for n in range(1, case.seats + 1)]
        try:
            events = rules.setup(rules.parse_settings(case.settings), seats, NoDice())
        except RuleViolation as exc:
            return catalogue.Played(rules.initial_state(), rejection=exc)
        start = catalogue.Played(rules.fold(rules.initial_state(), events), list(events))
    else:
        start = catalogue.Played(parse(case.position))
    return catalogue.play(start, expand(case.orders), lambda _state, text: parse_order(text),
                          lambda state, order: rules.decide(state, order, NoDice()), rules.fold)


def holds(state: WormlordState, events: list[Event], text: str) -> str | None:
    """None if ``text`` holds; else what is wrong."""
    names = [type(e).__name__ for e in events]
    m = re.fullmatch(r"knot (\w+) at ([a-g][1-7])(?: by seat (\d+))?", text)
    if m:
        knot = state.knot_at(m.group(2))
        ok = knot is not None and knot.colour is Colour(m.group(1))
        if ok and m.group(3):
            ok = knot is not None and knot.seat == int(m.group(3))
        return None if ok else f"{m.group(2)} holds {knot}"
    m = re.fullmatch(r"no knot at ([a-g][1-7])", text)
    if m:
        knot = state.knot_at(m.group(1))
        return None if knot is None else f"{m.group(1)} holds {knot}"
    m = re.fullmatch(r"(supply|next|wins) (\w+) (-?\d+)", text)
    if m:
        side = state.side(Colour(m.group(2)))
        actual = {"supply": side.supply, "next": side.next_at_ms, "wins": side.wins}[m.group(1)]
        return None if actual == int(m.group(3)) else f"{m.group(1)} of {side.colour} is {actual}"
    m = re.fullmatch(r"(hq|base) (\w+) (?:at )?(\w+)", text)
    if m:
        side = state.side(Colour(m.group(2)))
        actual = (side.hq or "off") if m.group(1) == "hq" else side.base
        return None if actual == m.group(3) else f"{m.group(1)} of {side.colour} is {actual}"
    m = re.fullmatch(r"impassable (\S+)", text)
    if m:
        actual = ",".join(sq for sq in SQUARES if state.terrain(sq) == "#") or "-"
        return None if actual == m.group(1) else f"impassable: {actual}"
    m = re.fullmatch(r"score (\w+) (\d+)", text)
    if m:
        actual = dict(scores(state))[Colour(m.group(1))]
        return None if actual == int(m.group(2)) else f"score of {m.group(1)} is {actual}"
    simple = {
        "phase": lambda: state.phase.value, "round": lambda: str(state.round),
        "start": lambda: str(state.starts_at_ms), "end": lambda: str(state.ends_at_ms or "-"),
        "map": lambda: state.map_id,
        "sides": lambda: ",".join(f"{s.colour}={'+'.join(map(str, s.seats))}" for s in state.sides),
        "winners": lambda: ",".join(map(str, RULESET.result(state).winners)) or "-",
        "to act": lambda: ",".join(map(str, sorted(RULESET.to_act(state)))) or "-",
    }
    m = re.fullmatch(r"(phase|round|start|end|map|sides|winners|to act) (\S+)", text)
    if m:
        actual = simple[m.group(1)]()
        return None if actual == m.group(2) else f"{m.group(1)} is {actual}"
    works = {work_key_text(w.key): w for w in RULESET.scheduled_work(state)}
    if text == "no work":
        return None if not works else f"work: {sorted(works)}"
    m = re.fullmatch(r"work (\S+) (now|at (\d+))", text)
    if m:
        work = works.get(m.group(1))
        if work is None:
            return f"work: {sorted(works)}"
        ok = work.when == "now" if m.group(2) == "now" else work.when == "at" and work.at_ms == int(m.group(3))
        return None if ok else f"{m.group(1)} is {work.when} {work.at_ms}"
    m = re.fullmatch(r"(no )?event (\w+)", text)
    if m:
        present = m.group(2) in names
        return None if present == (m.group(1) is None) else f"events were {names}"
    m = re.fullmatch(r"seat (\d+) (told|not told) (\w+)", text)
    if m:
        viewer = Viewer.for_seat(int(m.group(1)))
        told = any(type(e).__name__ == m.group(3) and RULESET.view_event(e, viewer) is not None for e in events)
        return None if told == (m.group(2) == "told") else f"seat {m.group(1)} told: {told}"
    raise AssertionError(f"unknown check {text!r}")


def verify(case: Case) -> None:
    """Run the case and raise AssertionError (with the position) if it does not hold."""
    if case.position:
        catalogue.check_start(case, parse, format_position, validate)
    catalogue.check(case, run(case), holds, format_position, validate)


HEADER = (
    "# Wormlord — rules case catalogue",
    "",
    "Generated from `tests/unit/games/wormlord/cases/*.toml` by",
    "`python tests/unit/games/wormlord/wormlord_casebook.py`; each case is a test named after",
    "its id (`tests/unit/games/wormlord/test_wormlord_cases.py`). Positions are in the notation",
    "of [docs/notation-wormlord.md](../notation-wormlord.md); rulings (and the numbering of",
    "the rulebook's sections) are in [docs/rulings/wormlord.md](../rulings/wormlord.md).",
    "Times are the orders' arrival times in ms.",
)


def _body(case: Case) -> list[str]:
    if case.seats:
        settings = ", ".join(f"{k}={v!r}" for k, v in case.settings.items()) or "defaults"
        lines = [f"Position: a game just set up with {case.seats} seats (settings: {settings}).", ""]
    else:
        lines = ["Position:", "", "```", case.position, "```", ""]
    if case.version:
        lines += [f"Ruleset version: {case.version} (a game begun under it, replayed as it was played)", ""]
    if case.orders:
        lines += ["Orders: " + "; ".join(f"`{o}`" for o in case.orders), ""]
    lines += catalogue.refusal_line(case) if case.reject else ["Result: " + "; ".join(case.expect) + ".", ""]
    if case.after:
        lines += ["Position after:", "", "```", case.after, "```", ""]
    return lines


def render_markdown(cases: Sequence[Case]) -> str:
    return catalogue.render_catalogue(cases, HEADER, _body)


if __name__ == "__main__":
    catalogue.write_doc(DOC, render_markdown(load_cases()))
