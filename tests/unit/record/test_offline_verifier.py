"""The offline verifier (``python -m games.record verify FILE``) checks a whole game's
record with nothing but ``games/``: it passes an honest game of every ruleset and names the
first disagreement, with its step, in a forged one."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.base import MODERATOR_VIEW, PUBLIC
from games.record.hashing import GENESIS, record_hash
from games.record.verify import PartialRecord, record_body, verify_record
from games.registry import default_registry
from referee.core import Referee
from referee.records import record_file
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock
from tests.record_games import GAMES, play_out, start

ROOT = Path(__file__).resolve().parents[3]


def finished_record(ruleset: str) -> dict:
    clock = FakeClock()
    referee = Referee(InMemoryEventStore(), default_registry(), clock, backoff=lambda attempt: None)
    game = start(referee, ruleset, f"{ruleset}-whole")
    play_out(referee, game, clock)
    assert referee.verify(game).ok
    return record_file(referee, game, PUBLIC)


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    return {name: finished_record(name) for name in GAMES}


def rehash(data: dict) -> dict:
    """Re-chain every hash after an edit, as a forger holding the file can (no secret is
    needed): only the dice and re-adjudication can catch what they changed."""
    prev = GENESIS
    for entry in data["records"]:
        entry["prev_hash"] = prev
        entry["hash"] = prev = record_hash(prev, record_body(data["game"]["id"], entry))
    return data


def first_with(data: dict, kind: str, *, draws: bool = False) -> dict:
    return next(r for r in data["records"] if r["kind"] == kind and (r["draws"] or not draws) and r["seq"] > 1)


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_record_of_a_whole_game_verifies_offline(records, ruleset):
    data = records[ruleset]
    assert data["view"] == {"whole": True} and data["game"]["status"] == "finished"
    report = verify_record(json.loads(json.dumps(data)))
    assert report.ok, report.problem
    assert report.orders > 2 and report.records == len(data["records"])
    assert report.draws == sum(len(r["draws"]) for r in data["records"])  # Wormlord rolls none


def test_a_forged_draw_is_caught_at_its_order_even_with_the_chain_redone(records):
    data = copy.deepcopy(records["worms"])
    order = first_with(data, "command", draws=True)
    draw = order["draws"][0]
    draw["value"] = draw["low"] if draw["value"] != draw["low"] else draw["high"]
    report = verify_record(rehash(data))
    assert report.problem is not None
    assert (report.problem.step, report.problem.check) == (order["seq"], "dice")


def test_an_edited_event_is_caught_by_its_hash(records):
    data = copy.deepcopy(records["lggwg"])
    event = first_with(data, "event")
    event["payload"] = {**event["payload"], "edited": True}
    report = verify_record(data)
    assert (report.problem.step, report.problem.check) == (event["seq"], "hash")


def test_an_edited_event_with_the_chain_redone_is_caught_by_re_deciding_its_order(records):
    data = copy.deepcopy(records["worms"])
    event = next(r for r in data["records"] if r["kind"] == "event" and r["type"] == "WormMoved")
    event["payload"] = {**event["payload"], "x": event["payload"]["x"] + 1}
    report = verify_record(rehash(data))
    assert (report.problem.step, report.problem.check) == (event["seq"], "readjudication")


def test_a_reordered_record_is_caught_at_its_place(records):
    data = copy.deepcopy(records["wormlord"])
    rs = data["records"]
    rs[4], rs[5] = rs[5], rs[4]
    report = verify_record(data)
    assert (report.problem.step, report.problem.check) == (5, "sequence")


def test_a_reordered_and_renumbered_log_is_caught_by_its_chain(records):
    data = copy.deepcopy(records["wormlord"])
    rs = data["records"]
    rs[4], rs[5] = rs[5], rs[4]
    rs[4]["seq"], rs[5]["seq"] = 5, 6
    report = verify_record(data)
    assert (report.problem.step, report.problem.check) == (5, "chain")


def test_a_seed_that_is_not_the_committed_one_is_refused(records):
    data = copy.deepcopy(records["parties"])
    data["dice"]["seed"] = "00" * 32
    assert verify_record(data).problem.check == "dice"


def test_one_viewers_record_is_not_passed_as_verified():
    clock = FakeClock()
    referee = Referee(InMemoryEventStore(), default_registry(), clock, backoff=lambda attempt: None)
    game = start(referee, "lggwg", "lggwg-running")
    data = record_file(referee, game, PUBLIC)
    assert data["view"]["whole"] is False and data["dice"]["seed"] is None
    assert all("hash" not in r and "prev_hash" not in r for r in data["records"])
    with pytest.raises(PartialRecord):
        verify_record(data)
    whole = record_file(referee, game, MODERATOR_VIEW)  # mid-game: replayed, the seed still secret
    report = verify_record(whole)
    assert report.ok and report.draws == 0 and report.notes


def test_the_command_line_needs_only_games_and_exits_non_zero_on_a_forgery(records, tmp_path):
    honest, forged = tmp_path / "honest.json", tmp_path / "forged.json"
    honest.write_text(json.dumps(records["lggwg"]))
    data = copy.deepcopy(records["lggwg"])
    first_with(data, "event")["payload"]["edited"] = True
    forged.write_text(json.dumps(data))
    # No Django settings, and Django itself made unimportable: the verifier must not need it.
    guard = tmp_path / "guard"
    (guard / "django").mkdir(parents=True)
    (guard / "django" / "__init__.py").write_text("raise ImportError('the verifier must not import Django')\n")
    env = {"PYTHONPATH": f"{guard}:{ROOT}", "PATH": "/usr/bin:/bin"}
    ok = subprocess.run([sys.executable, "-m", "games.record", "verify", str(honest)],
                        capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("ok:")
    bad = subprocess.run([sys.executable, "-m", "games.record", "verify", str(forged)],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert bad.returncode == 1
    assert "FAILED at step" in bad.stdout and ": hash:" in bad.stdout
