"""The Worms case catalogue (in the manner of the DATC): load the cases from
``cases/*.toml``, run one, check its expectations, render the catalogue as Markdown.

Regenerate the document with ``python tests/unit/games/worms/worms_casebook.py``.

Each case: ``id`` (W7.3), ``name`` (reads as a rule), ``section``, ``clause`` (quoted),
``position`` (notation), ``version`` (the ruleset version it is played under, if not the
latest), ``orders`` (order text, see games/worms/orders.py; prefix
``seat N:`` to give it as another seat), ``dice`` (forced draws, all must be used), and
either ``reject`` (the rule of the refusal, for the last order) with ``reason`` (a part of
the message), or ``expect`` (checks, below) and/or ``after`` (the whole position after).

Checks: ``A1 at c5``, ``A1 health 130``, ``A1 poison 2``, ``A1 dead``, ``seat 2 to act``,
``stage starting``, ``turn 5``, ``round 3``, ``water 2``, ``wind E2``, ``wind calm``,
``sudden death``, ``no sudden death``, ``stalemate``, ``mine at c5``, ``no mine at c5``,
``crate at c5``, ``no crate at c5``, ``card at c5 holds mine1+dynamite1``, ``no card at c5``,
``height c5 3``, ``crate at c5 holds w:bazooka3``, ``list of seat 1 holds prod*+...``, ``team A holds bazooka3``, ``team A has no bazooka``, ``team B out``,
``winner 1``, ``draw``, ``event WormDamaged``, ``no event TurnEnded``,
``no event WormDamaged cause=fall`` (an event with a field as given).

Utilities and hidden information (§5, §11): ``A1 invisible 3``, ``A1 visible``,
``bubble at c5``, ``no bubble at c5``, ``progress A1=1+2/3``; what a seat is shown (its
view and the events it may see, through ``RULESET.view`` / ``RULESET.view_event``):
``seat 2 sees A1``, ``seat 2 does not see A1``, ``seat 2 sees bubble at c5``,
``seat 2 does not see bubble at c5``, ``seat 1 sees crate at c5 holds bazooka3``,
``seat 2 sees crate at c5 holds ?`` (contents hidden), ``seat 2 told WormMoved``,
``seat 2 not told WormMoved``, ``seat 2 told Teleported x=None`` (a field as shown).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
if str(ROOT) not in sys.path:  # running this file as a script
    sys.path.insert(0, str(ROOT))

from games.base import SCHEDULER, Actor, Command, Event, SeatInfo  # noqa: E402
from games.dice import ForcedDice  # noqa: E402
from games.worms import RULESET, WormsRuleset  # noqa: E402
from games.worms.board import parse_square  # noqa: E402
from games.worms.commands import SkipTurn, StartTurn  # noqa: E402
from games.worms.notation import format_items, format_position, parse  # noqa: E402
from games.worms.orders import parse_order  # noqa: E402
from games.worms.state import Phase, Settings, WormsState  # noqa: E402
from tests.unit.games import catalogue  # noqa: E402

CASES_DIR = Path(__file__).parent / "cases"
DOC = ROOT / "docs" / "cases" / "worms.md"


@dataclass(frozen=True)
class Case(catalogue.VersionedCase):
    ruleset = "worms"
    seats: int = 0


def load_cases() -> list[Case]:
    return catalogue.load_toml_cases(CASES_DIR, Case)


def _command(state: WormsState, text: str) -> Command:
    seat = state.seat
    match = re.match(r"seat (\d+):\s*(.*)$", text)
    if match:
        seat, text = int(match.group(1)), match.group(2)
    command = parse_order(text, state.turn)
    if isinstance(command, StartTurn | SkipTurn) and not match:
        return replace(command, actor=SCHEDULER)
    return replace(command, actor=Actor.player(seat) if seat is not None else SCHEDULER)


def initial(case: Case) -> WormsState:
    if case.seats:
        seats = [SeatInfo(n, f"player {n}") for n in range(1, case.seats + 1)]
        return RULESET.fold(RULESET.initial_state(), RULESET.setup(Settings(), seats, ForcedDice()))
    return parse(case.position)


def run(case: Case) -> catalogue.Played[WormsState]:
    rules: WormsRuleset = case.rules
    dice = ForcedDice(case.dice)
    played = catalogue.play(catalogue.Played(initial(case)), case.orders, _command,
                            lambda state, order: rules.decide(state, order, dice), rules.fold)
    played.unused_dice = len(dice.values)
    return played


def holds(state: WormsState, events: list[Event], text: str) -> str | None:
    """None if ``text`` holds in ``state``; else what is wrong."""
    words = text.split()
    names = [type(e).__name__ for e in events]

    def worm_field(worm_id: str) -> str:
        worm = state.worm(worm_id)
        return "dead" if worm is None else f"at {_sq(worm.square)}, health {worm.health}, poison {worm.poison}"

    m = re.match(r"([A-H]\d+) (at|health|poison) (\w+)$", text)
    if m:
        worm = state.worm(m.group(1))
        if worm is None:
            return f"{m.group(1)} is dead"
        actual = {"at": _sq(worm.square), "health": str(worm.health), "poison": str(worm.poison)}[m.group(2)]
        return None if actual == m.group(3).lower() else f"{m.group(1)} is {worm_field(m.group(1))}"
    m = re.match(r"([A-H]\d+) (dead|alive)$", text)
    if m:
        alive = state.worm(m.group(1)) is not None
        return None if alive == (m.group(2) == "alive") else f"{m.group(1)} is {worm_field(m.group(1))}"
    m = re.match(r"seat (\d+) to act$", text)
    if m:
        return None if state.seat == int(m.group(1)) else f"seat {state.seat} is to act"
    simple = {
        "stage": lambda: state.stage.value,
        "turn": lambda: str(state.turn),
        "round": lambda: str(state.round),
        "water": lambda: str(state.water),
        "winner": lambda: str(state.winner),
    }
    if len(words) == 2 and words[0] in simple:
        actual = simple[words[0]]()
        return None if actual == words[1] else f"{words[0]} is {actual}"
    if words[0] == "wind":
        wind = "calm" if state.wind.calm else f"{state.wind.direction}{state.wind.strength}"
        return None if wind == words[1] else f"wind is {wind}"
    flags = {
        "sudden death": state.sudden_death,
        "no sudden death": not state.sudden_death,
        "stalemate": state.stalemate,
        "draw": state.phase is Phase.FINISHED and state.winner is None,
    }
    if text in flags:
        return None if flags[text] else f"not {text}"
    m = re.match(r"(no )?(mine|crate|card|drum) at ([a-o]\d+)$", text)
    if m:
        square = parse_square(m.group(3))
        thing = {"mine": state.mine_at, "crate": state.crate_at, "card": state.card_at, "drum": state.drum_at}[
            m.group(2)
        ](square)
        wanted = m.group(1) is None
        return None if (thing is not None) == wanted else f"{m.group(2)} at {m.group(3)}: {thing}"
    m = re.match(r"card at ([a-o]\d+) holds (\S+)$", text)
    if m:
        card = state.card_at(parse_square(m.group(1)))
        held = None if card is None else format_items(card.contents) or "nothing"
        return None if held == m.group(2) else f"card at {m.group(1)}: {held}"
    m = re.match(r"(crate at [a-o]\d+|list of seat \d+) holds (\S*)$", text)
    if m:
        if m.group(1).startswith("crate"):
            crate = state.crate_at(parse_square(m.group(1).split()[-1]))
            held = None if crate is None else f"{crate.kind.value}:{format_items(crate.contents)}"
        else:
            seat = int(m.group(1).split()[-1])
            lists = [s for s in state.shopping if s.seat == seat]
            held = format_items(lists[0].inventory) if lists else None
        return None if held == m.group(2) else f"{m.group(1)}: {held}"
    m = re.match(r"height ([a-o]\d+) (\d+)$", text)
    if m:
        h = state.height(parse_square(m.group(1)))
        return None if h == int(m.group(2)) else f"height of {m.group(1)} is {h}"
    m = re.match(r"team ([A-H]) (holds|has no) (\S+)$", text)
    if m:
        team = state.team_of_letter(m.group(1))
        inv = format_items(team.inventory) if team else ""
        held = inv.split("+")
        if m.group(2) == "holds":
            return None if m.group(3) in held else f"team {m.group(1)} holds {inv}"
        names = [re.sub(r"[*0-9]+$", "", h) for h in held]
        return None if m.group(3) not in names else f"team {m.group(1)} holds {inv}"
    m = re.match(r"team ([A-H]) (out|in)$", text)
    if m:
        team = state.team_of_letter(m.group(1))
        return None if team is not None and team.out == (m.group(2) == "out") else f"team {m.group(1)}: {team}"
    problem = _check_hidden(state, events, text)
    if problem != "unknown":
        return problem
    m = re.match(r"(no )?event (\w+)(?: (\w+)=(\S*))?$", text)
    if m:
        present = any(
            type(e).__name__ == m.group(2) and (m.group(3) is None or str(getattr(e, m.group(3), None)) == m.group(4))
            for e in events
        )
        return None if present == (m.group(1) is None) else f"events were {names}"
    raise AssertionError(f"unknown check {text!r}")


def _check_hidden(state: WormsState, events: list[Event], text: str) -> str | None:
    """The checks of §5 utilities and §11; "unknown" if ``text`` is none of them."""
    from games.base import Viewer
    from games.worms.notation import format_progress

    m = re.match(r"([A-H]\d+) (invisible|visible)(?: (\d+))?$", text)
    if m:
        worm = state.worm(m.group(1))
        if worm is None:
            return f"{m.group(1)} is dead"
        if m.group(2) == "visible":
            return None if worm.visible else f"{worm.id} is invisible ({worm.invisible_rounds})"
        wanted = int(m.group(3)) if m.group(3) else None
        ok = not worm.visible and (wanted is None or worm.invisible_rounds == wanted)
        return None if ok else f"{worm.id} invisible rounds: {worm.invisible_rounds}"
    m = re.match(r"(no )?bubble at ([a-o]\d+)$", text)
    if m:
        present = state.bubble_at(parse_square(m.group(2))) is not None
        return None if present == (m.group(1) is None) else f"bubbles: {state.bubbles}"
    m = re.match(r"progress (\S+)$", text)
    if m:
        actual = format_progress(state.progress)
        return None if actual == m.group(1) else f"progress is {actual}"
    m = re.match(r"seat (\d+) (sees|does not see) (.+)$", text)
    if m:
        data = RULESET.view(state, Viewer.for_seat(int(m.group(1))))
        what, sees = m.group(3), m.group(2) == "sees"
        w = re.match(r"([A-H]\d+)$", what)
        if w:
            shown = any(x["id"] == w.group(1) for x in data["worms"])
            return None if shown == sees else f"seat {m.group(1)} is shown worms {[x['id'] for x in data['worms']]}"
        s = re.match(r"shooter ([A-H]\d+)$", what)
        if s:
            shooter = data["progress"]["shooter"]
            return None if (shooter == s.group(1)) == sees else f"seat {m.group(1)} is shown shooter {shooter}"
        b = re.match(r"bubble at ([a-o]\d+)$", what)
        if b:
            x, y = parse_square(b.group(1))
            shown = any((d["x"], d["y"]) == (x, y) for d in data["bubbles"])
            return None if shown == sees else f"seat {m.group(1)} is shown bubbles {data['bubbles']}"
        c = re.match(r"(crate|card) at ([a-o]\d+) holds (\S+)$", what)
        if c:
            x, y = parse_square(c.group(2))
            found = [d for d in data[c.group(1) + "s"] if (d["x"], d["y"]) == (x, y)]
            if not found:
                return f"seat {m.group(1)} is shown no {c.group(1)} at {c.group(2)}"
            contents = found[0]["contents"]
            held = "?" if contents is None else "+".join(
                f"{s['item']}{'*' if s['count'] is None else s['count']}" for s in contents
            )
            return None if held == c.group(3) else f"seat {m.group(1)} is shown {held}"
        raise AssertionError(f"unknown check {text!r}")
    m = re.match(r"seat (\d+) (told|not told) (\w+)(?: (\w+)=(\S*))?$", text)
    if m:
        viewer = Viewer.for_seat(int(m.group(1)))
        shown = [
            d for e in events
            if type(e).__name__ == m.group(3) and (d := RULESET.view_event(e, viewer)) is not None
        ]
        if m.group(4):
            shown = [d for d in shown if str(d.get(m.group(4))) == m.group(5)]
        told = bool(shown)
        wanted = m.group(2) == "told"
        seen = [type(e).__name__ for e in events if RULESET.view_event(e, viewer) is not None]
        return None if told == wanted else f"seat {m.group(1)} was shown {seen}"
    return "unknown"


def _sq(square: tuple[int, int]) -> str:
    from games.worms.board import name

    return name(square)


def verify(case: Case) -> None:
    """Run the case and raise AssertionError (with the position) if it does not hold."""
    if not case.seats:
        catalogue.check_start(case, parse, format_position)
    catalogue.check(case, run(case), holds, format_position)


HEADER = (
    "# Worms: Evolved v2.1 — rules case catalogue",
    "",
    "Generated from `tests/unit/games/worms/cases/*.toml` by",
    "`python tests/unit/games/worms/worms_casebook.py`; each case is a test named after its id",
    "(`tests/unit/games/worms/test_worms_cases.py`). Positions are in the notation of",
    "[docs/notation.md](../notation.md); rulings are in [docs/rulings.md](../rulings.md).",
)


def _body(case: Case) -> list[str]:
    if case.seats:
        lines = [f"Position: a game just set up with {case.seats} seats (sign-up).", ""]
    else:
        lines = ["Position:", "", "```", case.position, "```", ""]
    if case.version:
        lines += [f"Ruleset version: {case.version} (a game begun under it, replayed as it was played)", ""]
    lines += ["Orders: " + "; ".join(f"`{o}`" for o in case.orders)]
    if case.dice:
        lines += ["", "Dice: " + ", ".join(str(d) for d in case.dice)]
    lines += [""]
    return lines + (catalogue.refusal_line(case) if case.reject else ["Result: " + "; ".join(case.expect) + ".", ""])


def render_markdown(cases: Sequence[Case]) -> str:
    return catalogue.render_catalogue(cases, HEADER, _body, title=lambda c: c.name.replace("_", " "))


if __name__ == "__main__":
    from game_pages.worms import rulebook

    text = render_markdown(load_cases())
    catalogue.write_doc(DOC, text)
    rulebook.write(text)  # the rules page quotes what the catalogue quotes
