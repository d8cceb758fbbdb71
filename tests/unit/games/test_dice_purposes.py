"""Every purpose a ruleset's engine gives a draw is listed, with its range, in the ruleset's
notation document (its "## Dice" table), and the table lists nothing the engine no longer
draws: someone checking a disputed roll after the seed is revealed can tell from the
documents alone what each draw was for."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from dice_purposes import PLACEHOLDER, Purpose, _Source, engine_purposes

DOCS = Path(__file__).resolve().parents[3] / "docs"
NOTATION = {"worms": "notation.md", "lggwg": "notation-lggwg.md", "wormlord": "notation-wormlord.md",
            "parties": "notation-parties.md"}
ROW = re.compile(r"^\| `([^`]+)` \| (roll|choice|chance|shuffle) \| ([^|]+) \| ([^|]+) \|$", re.M)


def documented(ruleset: str) -> dict[str, str]:
    """The documented purposes, by shape, and the draw each is documented as."""
    text = (DOCS / NOTATION[ruleset]).read_text(encoding="utf-8")
    assert "\n## Dice\n" in text, f"{NOTATION[ruleset]} has no Dice section"
    section = text.split("\n## Dice\n", 1)[1].split("\n## ", 1)[0]
    return {PLACEHOLDER.sub("{}", purpose): draw for purpose, draw, _range, _what in ROW.findall(section)}


@pytest.mark.parametrize("ruleset", sorted(NOTATION))
def test_every_purpose_the_engine_draws_is_documented_with_its_range(ruleset: str) -> None:
    listed = documented(ruleset)
    engine = engine_purposes(ruleset)
    assert engine, f"no draws found in games/{ruleset}/"
    missing = sorted({f"{p.text!r} ({p.where})" for p in engine if p.shape not in listed})
    assert not missing, f"draws not listed in docs/{NOTATION[ruleset]}: {missing}"
    wrong = sorted({f"{p.text!r}: {p.method}, listed as {listed[p.shape]}" for p in engine
                    if listed[p.shape] != p.method})
    assert not wrong, wrong


@pytest.mark.parametrize("ruleset", sorted(NOTATION))
def test_the_documents_list_no_purpose_the_engine_no_longer_draws(ruleset: str) -> None:
    stale = set(documented(ruleset)) - {p.shape for p in engine_purposes(ruleset)}
    assert not stale, f"docs/{NOTATION[ruleset]} lists purposes nothing draws: {sorted(stale)}"


def test_a_purpose_is_read_through_helpers_and_local_names_to_where_it_is_written() -> None:
    worms = {p.text for p in engine_purposes("worms")}
    # dice.choice(purpose, ...) inside mapgen's take(); draw_units(..., purpose) from a local
    assert {"square of worm {team.letter}{n}", "donor card of {dying.id}: which ammo unit"} <= worms
    # the Outcome.roll method of LGGWG hands its purpose on to the dice
    assert "mine at {name(unit.square)} damage" in {p.text for p in engine_purposes("lggwg")}


def test_a_purpose_that_cannot_be_read_is_reported_not_skipped() -> None:
    source = _Source("wormlord")
    call = ast.parse("dice.roll(PURPOSES[0], 1, 6)").body[0].value  # type: ignore[attr-defined]
    source.file[call.args[0]] = source.file[next(iter(source.file))]
    with pytest.raises(AssertionError, match="cannot be read"):
        source.texts(call.args[0])
    assert Purpose("a {x} b", "roll", "").shape == "a {} b"


def _draws(data: object) -> set[str]:
    if isinstance(data, dict):
        found = {str(data["purpose"])} if {"purpose", "low", "high", "value"} <= set(data) else set()
        return found.union(*(_draws(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_draws(v) for v in data))
    return set()


def test_every_draw_of_a_recorded_game_is_read_by_a_documented_purpose() -> None:
    recorded = _draws(json.loads((DOCS.parent / "tests" / "fixtures" / "worms_game_v1.json").read_text("utf-8")))
    patterns = [
        re.compile("".join(".+" if PLACEHOLDER.fullmatch(piece) else re.escape(piece)
                           for piece in re.split(f"({PLACEHOLDER.pattern})", shape.replace("{}", "{x}"))))
        for shape in documented("worms")
    ]
    assert len(recorded) > 50
    unread = sorted(p for p in recorded if not any(r.fullmatch(p) for r in patterns))
    assert not unread, f"recorded purposes no documented one reads: {unread}"
