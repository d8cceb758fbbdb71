"""The Parties case catalogue (in the manner of the DATC): load the cases from
``cases/*.toml``, run one, check its expectations, render the catalogue as Markdown.

Regenerate the document with ``python tests/unit/games/parties/parties_casebook.py``.

Each case: ``id`` (P4.3), ``name`` (reads as a rule), ``section``, ``clause`` (quoted),
``position`` (notation, docs/notation-parties.md) or ``seats`` + ``settings`` (a game set
up with those seats and settings, JSON), ``orders``, ``dice`` (forced draws, all must be
used), and either ``reject`` (the rule of the refusal of the last order) with ``reason``
(a part of the message), or ``expect`` (checks) and/or ``after`` (the whole position).

Orders: ``1 NE`` (seat 1 moves NE), ``1 stay``, ``1 N tick 4`` (naming the tick),
``1 ally never`` (ally policy), ``resolve`` (the scheduler closes the tick at its
deadline), ``start`` (the scheduler starts tick 1), ``seat 2: resolve`` (as a bot);
``at 12345`` at the end sets the order's time (moves default to 1000 ms into the tick).

Checks: ``1 at c4``, ``1 strength 0.9``, ``1 score 2``, ``1 solo``, ``party 1>3>2``,
``no party``, ``tick 3``, ``tick starts 1000``, ``deadline 11000``, ``to act 1,3``,
``to act none``, ``pending 1:N``, ``no pending``, ``ended united``, ``ended cap``,
``not ended``, ``ranking 1/2,3``, ``winners 1``, ``work tick 3 at 21000``, ``work start``,
``bouts 1:12-7,2:3-9``, ``event BattleFought``, ``no event BattleFought``,
``events TickClosed,BotMoved`` (the whole sequence), ``seat 2 sees pending 1``,
``seat 3 does not see pending 1``, ``seat 2 told MoveChosen``, ``seat 3 not told MoveChosen``,
``square c4 M`` (terrain).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
if str(ROOT) not in sys.path:  # running this file as a script
    sys.path.insert(0, str(ROOT))

from games.base import Event, SeatInfo, Viewer  # noqa: E402
from games.dice import ForcedDice  # noqa: E402
from games.parties import RULESET  # noqa: E402
from games.parties.board import name, parse_square  # noqa: E402
from games.parties.events import BattleFought  # noqa: E402
from games.parties.notation import format_position, parse, validate  # noqa: E402
from games.parties.orders import parse_order  # noqa: E402
from games.parties.state import PartiesState, tenths  # noqa: E402
from tests.unit.games import catalogue  # noqa: E402

CASES_DIR = Path(__file__).parent / "cases"
DOC = ROOT / "docs" / "cases" / "parties.md"


@dataclass(frozen=True)
class Case(catalogue.CatalogueCase):
    seats: int = 0
    settings: str = ""



def load_cases() -> list[Case]:
    return catalogue.load_toml_cases(CASES_DIR, Case)


def run(case: Case) -> catalogue.Played[PartiesState]:
    dice = ForcedDice(case.dice)
    if case.seats:
        settings = RULESET.parse_settings(json.loads(case.settings or "{}"))
        seats = [SeatInfo(n, f"bot {n}") for n in range(1, case.seats + 1)]
        events = list(RULESET.setup(settings, seats, dice))
        start = catalogue.Played(RULESET.fold(RULESET.initial_state(), events), events)
    else:
        start = catalogue.Played(parse(case.position))
    played = catalogue.play(start, case.orders, lambda state, text: parse_order(text, state),
                            lambda state, order: RULESET.decide(state, order, dice), RULESET.fold)
    played.unused_dice = len(dice.values)
    return played


def _seats(text: str) -> list[int]:
    return [] if text == "none" else sorted(int(s) for s in text.split(","))


def holds(state: PartiesState, events: list[Event], text: str) -> str | None:
    """None if ``text`` holds; else what is wrong."""
    names = [type(e).__name__ for e in events]
    m = re.match(r"(\d+) (at|strength|score) (\S+)$", text)
    if m:
        bot = state.bot(int(m.group(1)))
        actual = {"at": name(bot.square), "strength": tenths(bot.strength), "score": str(bot.score)}[m.group(2)]
        return None if actual == m.group(3) else f"bot {bot.seat} {m.group(2)} is {actual}"
    m = re.match(r"(\d+) solo$", text)
    if m:
        group = state.group_of(int(m.group(1)))
        return None if len(group) == 1 else f"bot {m.group(1)} is in party {group}"
    m = re.match(r"party (\S+)$", text)
    if m:
        want = tuple(int(s) for s in m.group(1).split(">"))
        return None if want in state.parties else f"parties are {state.parties}"
    if text == "no party":
        return None if not state.parties else f"parties are {state.parties}"
    simple = {
        "tick": lambda: str(state.tick),
        "tick starts": lambda: str(state.tick_start_ms),
        "deadline": lambda: str(state.deadline_ms),
        "ended": lambda: {"": "-", "tick cap": "cap"}.get(state.ended, state.ended),
        "winners": lambda: ",".join(map(str, RULESET.result(state).winners)) or "none",
        "ranking": lambda: "/".join(",".join(map(str, p)) for p in RULESET.result(state).ranking),
    }
    m = re.match(r"(tick starts|tick|deadline|ended|winners|ranking) (\S+)$", text)
    if m:
        actual = simple[m.group(1)]()
        return None if actual == m.group(2) else f"{m.group(1)} is {actual}"
    if text == "not ended":
        return None if not state.ended else f"ended: {state.ended}"
    m = re.match(r"to act (\S+)$", text)
    if m:
        actual = sorted(RULESET.to_act(state))
        return None if actual == _seats(m.group(1)) else f"to act: {actual}"
    m = re.match(r"pending (\d+):(\w+)$", text)
    if m:
        actual = state.pending_move(int(m.group(1)))
        return None if actual == m.group(2) else f"pending of {m.group(1)} is {actual}"
    if text == "no pending":
        return None if not state.pending else f"pending: {state.pending}"
    m = re.match(r"work (start|tick (\d+) at (\d+))$", text)
    if m:
        work = RULESET.scheduled_work(state)
        want = [("start",)] if m.group(1) == "start" else [("tick", int(m.group(2)))]
        ok = [w.key for w in work] == want and (m.group(1) == "start" or work[0].at_ms == int(m.group(3)))
        return None if ok else f"work is {work}"
    m = re.match(r"bouts (\S+)$", text)
    if m:
        battles = [e for e in events if isinstance(e, BattleFought)]
        actual = ";".join(",".join(f"{b.number}:{b.rolls[0]}-{b.rolls[1]}" for b in e.bouts) for e in battles)
        return None if actual == m.group(1) else f"bouts were {actual}"
    m = re.match(r"square ([a-z]\d+) (\S)$", text)
    if m:
        actual = state.terrain.at(parse_square(m.group(1)))
        return None if actual == m.group(2) else f"{m.group(1)} is {actual!r}"
    m = re.match(r"(no )?event (\w+)$", text)
    if m:
        present = m.group(2) in names
        return None if present == (m.group(1) is None) else f"events were {names}"
    m = re.match(r"events (\S+)$", text)
    if m:
        return None if ",".join(names) == m.group(1) else f"events were {','.join(names)}"
    m = re.match(r"seat (\d+) (sees|does not see) pending (\d+)$", text)
    if m:
        shown = RULESET.view(state, Viewer.for_seat(int(m.group(1))))["pending"]
        sees = m.group(3) in shown
        return None if sees == (m.group(2) == "sees") else f"seat {m.group(1)} is shown pending {shown}"
    m = re.match(r"seat (\d+) (told|not told) (\w+)$", text)
    if m:
        viewer = Viewer.for_seat(int(m.group(1)))
        told = any(type(e).__name__ == m.group(3) and RULESET.view_event(e, viewer) is not None for e in events)
        return None if told == (m.group(2) == "told") else f"seat {m.group(1)} told: {told}"
    raise AssertionError(f"unknown check {text!r}")


def verify(case: Case) -> None:
    """Run the case and raise AssertionError (with the position) if it does not hold."""
    if not case.seats:
        catalogue.check_start(case, parse, format_position, validate)
    catalogue.check(case, run(case), holds, format_position, validate)


HEADER = (
    "# Parties — rules case catalogue",
    "",
    "Generated from `tests/unit/games/parties/cases/*.toml` by",
    "`python tests/unit/games/parties/parties_casebook.py`; each case is a test named after its id",
    "(`tests/unit/games/parties/test_parties_cases.py`). Positions are in the notation of",
    "[docs/notation-parties.md](../notation-parties.md); rulings are in",
    "[docs/rulings/parties.md](../rulings/parties.md). Orders: `1 NE` is bot 1 choosing NE;",
    "`resolve` is the scheduler closing the tick at its deadline; dice are the forced draws",
    "in order (battles: for each bout the lower leader seat's D20, then the other's).",
)


def _body(case: Case) -> list[str]:
    if case.seats:
        lines = [f"Position: a game set up with {case.seats} seats, settings `{case.settings or '{}'}`.", ""]
    else:
        lines = ["Position:", "", "```", case.position, "```", ""]
    lines += ["Orders: " + ("; ".join(f"`{o}`" for o in case.orders) or "none")]
    if case.dice:
        lines += ["", "Dice: " + ", ".join(str(d) for d in case.dice)]
    lines += [""]
    if case.reject:
        return lines + catalogue.refusal_line(case)
    result = "; ".join(case.expect)
    if case.after:
        result = (result + "; " if result else "") + "position after:"
    lines += ["Result: " + result + ("." if not case.after else ""), ""]
    if case.after:
        lines += ["```", case.after, "```", ""]
    return lines


def render_markdown(cases: Sequence[Case]) -> str:
    return catalogue.render_catalogue(cases, HEADER, _body)


if __name__ == "__main__":
    catalogue.write_doc(DOC, render_markdown(load_cases()))
