"""The LGGWG case catalogue (in the manner of the DATC): load ``cases/*.toml``, run a
case, check its expectations, render docs/cases/lggwg.md.

Regenerate the document with ``python tests/unit/games/lggwg/lggwg_casebook.py``.

Each case: ``id`` (L1, L2 ...), ``name`` (reads as a rule), ``section``, ``clause``
(quoted), ``position`` (docs/notation-lggwg.md), ``orders`` (``R: R1>N,R1*e5`` sends
team R's list; ``deadline hold`` / ``deadline bot`` is the referee at the deadline),
``dice`` (forced draws, all must be used), and ``reject`` (the rule of the refusal of the
last order) with ``reason``, or ``expect`` (checks):

``R1 at c3``, ``R1 hp 12``, ``R1 dead``, ``R1 mines 2``, ``score R 12``, ``kills R 1``,
``sheep R 1``, ``team B out``, ``team B in``, ``terrain e5 _``, ``mine at c4 R``,
``no mine at c4``, ``wear e5 2``, ``turn 2``, ``phase over``, ``end last_team_standing``,
``winner R``, ``draw``, ``order R,B`` (team order), ``submitted R``, ``not submitted R``,
``steps R1>N B2>S Y3- ...`` (every resolved order in order; ``~`` marks one that became a
hold or was skipped), ``path 4 b2 c2 d2`` (the bullet paths of step 4, ``|`` between
shells), ``note 3 out of range`` (part of the note of step 3), ``event UnitDied``,
``no event UnitDied``, ``seat 2 sees R1``, ``seat 2 does not see R1``, ``seat 2 sees
terrain e5 +`` (as shown, ``?`` if unknown), ``seat 1 sees mine at c4``, ``seat 1 does
not see mine at c4``, ``seat 1 sees step 2 details`` (target, note, paths), ``seat 2 told ShotFired``, ``seat 2 not
told ShotFired``, ``public told TeamSubmitted``, ``public not told OrdersSubmitted``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
if str(ROOT) not in sys.path:  # running this file as a script
    sys.path.insert(0, str(ROOT))

from games.base import PUBLIC, REFEREE, Actor, Command, Event, Viewer  # noqa: E402
from games.dice import ForcedDice  # noqa: E402
from games.lggwg import RULESET  # noqa: E402
from games.lggwg import events as ev  # noqa: E402
from games.lggwg.board import parse_square  # noqa: E402
from games.lggwg.commands import ResolveAtDeadline, SubmitOrders  # noqa: E402
from games.lggwg.notation import format_position, parse, validate  # noqa: E402
from games.lggwg.orders import format_order, parse_orders  # noqa: E402
from games.lggwg.state import LggwgState, Order  # noqa: E402
from tests.unit.games import catalogue  # noqa: E402

CASES_DIR = Path(__file__).parent / "cases"
DOC = ROOT / "docs" / "cases" / "lggwg.md"


@dataclass(frozen=True)
class Case(catalogue.CatalogueCase):
    """A case of this catalogue (the fields are CatalogueCase's)."""

    @property
    def number(self) -> int:
        return int(self.id[1:])



def load_cases() -> list[Case]:
    return catalogue.load_toml_cases(CASES_DIR, Case)


def command(state: LggwgState, text: str) -> Command:
    m = re.match(r"deadline (\w+)$", text)
    if m:
        missed = tuple(sorted(RULESET.to_act(state)))
        return ResolveAtDeadline(actor=REFEREE, turn=state.turn, missed=missed, policy=m.group(1))
    colour, _, body = text.partition(":")
    team = state.team_of_colour(colour.strip())
    if team is None:
        raise AssertionError(f"no team {colour!r} in {text!r}")
    return SubmitOrders(actor=Actor.player(team.seat), orders=parse_orders(body))


def run(case: Case) -> catalogue.Played[LggwgState]:
    dice = ForcedDice(case.dice)
    played = catalogue.play(catalogue.Played(parse(case.position)), case.orders, command,
                            lambda state, order: RULESET.decide(state, order, dice), RULESET.fold)
    played.unused_dice = len(dice.values)
    return played


def _step_text(record) -> str:  # noqa: ANN001
    return format_order(Order(record.kind, record.unit, record.target)) + ("" if record.executed else "~")


def holds(state: LggwgState, events: list[Event], text: str) -> str | None:
    """None if ``text`` holds; else what is wrong."""
    words = text.split()
    steps = [e.record for e in events if isinstance(e, ev.OrderResolved)]
    m = re.match(r"([RBYGX]\d+) (at|hp|dead|alive|mines)\s*(\S*)$", text)
    if m:
        unit = state.unit(m.group(1))
        if m.group(2) in ("dead", "alive"):
            return None if (unit is None) == (m.group(2) == "dead") else f"{m.group(1)}: {unit}"
        if unit is None:
            return f"{m.group(1)} is dead"
        actual = {"at": lambda: _name(unit.square), "hp": lambda: str(unit.hp), "mines": lambda: str(unit.mines)}
        got = actual[m.group(2)]()
        return None if got == m.group(3) else f"{m.group(1)} {m.group(2)} is {got}"
    m = re.match(r"(score|kills|sheep) ([RBYG]) (-?\d+)$", text)
    if m:
        team = state.team_of_colour(m.group(2))
        got = getattr(team, m.group(1))
        return None if got == int(m.group(3)) else f"{m.group(1)} of {m.group(2)} is {got}"
    m = re.match(r"team ([RBYG]) (out|in)$", text)
    if m:
        team = state.team_of_colour(m.group(1))
        return None if bool(team.out) == (m.group(2) == "out") else f"team {m.group(1)} out={team.out!r}"
    m = re.match(r"terrain ([a-z]\d+) (\S)$", text)
    if m:
        got = state.at(parse_square(m.group(1))).value
        return None if got == m.group(2) else f"terrain at {m.group(1)} is {got}"
    m = re.match(r"(no )?mine at ([a-z]\d+)(?: ([RBYG]))?$", text)
    if m:
        mine = state.mine_at(parse_square(m.group(2)))
        if m.group(1):
            return None if mine is None else f"a mine of {state.colour(mine.team)} is there"
        if mine is None:
            return "no mine there"
        return None if not m.group(3) or state.colour(mine.team) == m.group(3) else f"mine of {state.colour(mine.team)}"
    m = re.match(r"wear ([a-z]\d+) (\d+)$", text)
    if m:
        got = state.wear_at(parse_square(m.group(1)))
        return None if got == int(m.group(2)) else f"wear is {got}"
    simple = {"turn": lambda: str(state.turn), "phase": lambda: state.phase.value, "end": lambda: state.end,
              "order": lambda: ",".join(state.colour(s) for s in state.team_order)}
    if len(words) == 2 and words[0] in simple:
        got = simple[words[0]]()
        return None if got == words[1] else f"{words[0]} is {got}"
    if words[0] == "winner" or text == "draw":
        result = RULESET.result(state)
        if text == "draw":
            return None if result.draw else f"result {result}"
        want = state.team_of_colour(words[1]).seat
        return None if result.winners == (want,) else f"result {result}"
    m = re.match(r"(not )?submitted ([RBYG])$", text)
    if m:
        sub = state.team_of_colour(m.group(2)).submitted
        return None if sub != bool(m.group(1)) else f"submitted is {sub}"
    if words[0] == "steps":
        got = [_step_text(r) for r in steps]
        return None if got == words[1:] else f"steps were {' '.join(got)}"
    m = re.match(r"path (\d+) (.*)$", text)
    if m:
        record = next((r for r in steps if r.step == int(m.group(1))), None)
        got = " | ".join(" ".join(p) for p in record.paths) if record else None
        return None if got == m.group(2) else f"paths of step {m.group(1)}: {got}"
    m = re.match(r"note (\d+) (.*)$", text)
    if m:
        record = next((r for r in steps if r.step == int(m.group(1))), None)
        return None if record and m.group(2) in record.note else f"note of step {m.group(1)}: {record and record.note!r}"
    m = re.match(r"(no )?event (\w+)$", text)
    if m:
        present = any(type(e).__name__ == m.group(2) for e in events)
        return None if present != bool(m.group(1)) else f"events were {[type(e).__name__ for e in events]}"
    return _check_views(state, events, text)


def _check_views(state: LggwgState, events: list[Event], text: str) -> str | None:
    m = re.match(r"seat (\d+) (sees|does not see) ([RBYGX]\d+)$", text)
    if m:
        data = RULESET.view(state, Viewer.for_seat(int(m.group(1))))
        shown = any(u["id"] == m.group(3) for u in data["units"])
        return None if shown == (m.group(2) == "sees") else f"seat {m.group(1)} is shown {[u['id'] for u in data['units']]}"
    m = re.match(r"seat (\d+) (sees|does not see) mine at ([a-z]\d+)$", text)
    if m:
        data = RULESET.view(state, Viewer.for_seat(int(m.group(1))))
        shown = any(x["square"] == m.group(3) for x in data["mines"])
        return None if shown == (m.group(2) == "sees") else f"seat {m.group(1)} is shown mines {data['mines']}"
    m = re.match(r"seat (\d+) (sees|does not see) step (\d+) details$", text)
    if m:
        data = RULESET.view(state, Viewer.for_seat(int(m.group(1))))
        step = next(x for x in data["last_resolution"] if x["step"] == int(m.group(3)))
        return None if ("target" in step) == (m.group(2) == "sees") else f"seat {m.group(1)} is shown {step}"
    m = re.match(r"seat (\d+) sees terrain ([a-z]\d+) (\S)$", text)
    if m:
        data = RULESET.view(state, Viewer.for_seat(int(m.group(1))))
        x, y = parse_square(m.group(2))
        got = data["squares"][y][x]
        return None if got == m.group(3) else f"seat {m.group(1)} is shown {got!r} at {m.group(2)}"
    m = re.match(r"(seat (\d+)|public) (told|not told) (\w+)$", text)
    if m:
        viewer = PUBLIC if m.group(1) == "public" else Viewer.for_seat(int(m.group(2)))
        told = any(
            type(e).__name__ == m.group(4) and RULESET.view_event(e, viewer) is not None for e in events
        )
        return None if told == (m.group(3) == "told") else f"{m.group(1)} told={told}"
    raise AssertionError(f"unknown check {text!r}")


def _name(square: tuple[int, int]) -> str:
    from games.lggwg.board import name

    return name(square)


def verify(case: Case) -> None:
    catalogue.check_start(case, parse, format_position, validate)
    catalogue.check(case, run(case), holds, format_position, validate)


HEADER = (
    "# Little Green Guys With Guns — rules case catalogue",
    "",
    "Generated from `tests/unit/games/lggwg/cases/*.toml` by",
    "`python tests/unit/games/lggwg/lggwg_casebook.py`; each case is a test named after its id",
    "(`tests/unit/games/lggwg/test_lggwg_cases.py`). Positions are in the notation of",
    "[docs/notation-lggwg.md](../notation-lggwg.md); rulings are in",
    "[docs/rulings/lggwg.md](../rulings/lggwg.md). Orders: `R: <list>` is team R's list",
    "(`R1>N` move, `R1*e5` fire, `R1*` opportunity fire, `R1*>N` opportunity move, `R1+` mine,",
    "`-` hold, `!` forfeit); `deadline hold|bot` is the referee at the deadline. Dice are",
    "forced, in the order the engine asks for them.",
)


def _body(case: Case) -> list[str]:
    lines = ["Position:", "", "```", case.position, "```", ""]
    lines += ["Orders: " + "; ".join(f"`{o}`" for o in case.orders)]
    if case.dice:
        lines += ["", "Dice: " + ", ".join(str(d) for d in case.dice)]
    lines += [""]
    if case.reject:
        return lines + catalogue.refusal_line(case)
    return lines + ["Result: " + "; ".join(f"`{e}`" for e in case.expect) + ".", ""]


def render_markdown(cases: Sequence[Case]) -> str:
    return catalogue.render_catalogue(cases, HEADER, _body)


if __name__ == "__main__":
    catalogue.write_doc(DOC, render_markdown(load_cases()))
