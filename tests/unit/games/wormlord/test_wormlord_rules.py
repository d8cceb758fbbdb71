"""The contract around the rules: settings, maps, scheduling, results, views and secrets."""

from __future__ import annotations

import json

import pytest
from wormlord_helpers import make_referee, set_up

from games.base import (
    MODERATOR_VIEW,
    PUBLIC,
    REFEREE,
    Actor,
    RuleViolation,
    SeatInfo,
    TurnMode,
    Viewer,
)
from games.dice import NoDice
from games.wormlord import RULESET, RULESET_V1
from games.wormlord.commands import Pass, Say, StartRound
from games.wormlord.events import TeamSpoke
from games.wormlord.maps import ALTERNATE, STANDARD, MapError, all_maps, find, load, parse_map
from games.wormlord.notation import parse
from tests.fakes import FakeClock

TEAMS = "...2.../.#.b.#./.*.b.*./#..*..#/.*.a.*./.#.a.#./...1... a1+2:13:d3:6000:1,b3+4:13:-:9000:0 map=standard-2"


def test_wormlord_is_a_realtime_game_for_two_to_eight_seats() -> None:
    assert RULESET.mode is TurnMode.REALTIME
    assert (RULESET.min_seats, RULESET.max_seats) == (2, 8)
    assert RULESET.turn_limits.unit == "minutes" and RULESET.turn_limits.default == 180


def test_settings_default_to_the_standard_map_without_variants() -> None:
    settings = RULESET.parse_settings({})
    assert (settings.map, settings.teams, settings.time_limit, settings.round_seconds) == ("", False, False, 180)


def test_the_game_turn_limit_is_written_into_the_round_clock_settings() -> None:
    clocked, limit = RULESET.clock_settings({"map": "duel"}, 120)
    assert (clocked, limit) == ({"map": "duel", "time_limit": True, "round_seconds": 120}, 120)
    settings = RULESET.parse_settings(clocked)
    assert (settings.time_limit, settings.round_seconds) == (True, 120)


def test_a_round_length_in_the_settings_is_read_as_the_turn_limit() -> None:
    assert RULESET.clock_settings({"round_seconds": 90}, None)[1] == 90
    assert RULESET.clock_settings({"map": "duel"}, None) == ({"map": "duel"}, None)
    assert RULESET.clock_settings({"round_seconds": True}, None)[1] is None


def test_the_round_clock_cannot_be_turned_off_for_a_refereed_game() -> None:
    with pytest.raises(RuleViolation) as info:
        RULESET.clock_settings({"time_limit": False}, 180)
    assert info.value.rule == "§7.2"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"colour": "pink"}, "unknown field(s) colour"),
        ({"knot_interval_ms": -1}, "knot_interval_ms must be between 0 and 60000"),
        ({"break_ms": 10**9}, "break_ms must be between"),
        ({"teams": "yes"}, "expected true or false"),
        ({"round_seconds": 7200}, "between 1 and 60 minutes"),
    ],
)
def test_bad_settings_are_refused_in_plain_words(raw: dict, message: str) -> None:
    with pytest.raises(RuleViolation) as info:
        RULESET.parse_settings(raw)
    assert message in info.value.message


def test_every_map_loads_for_its_printed_player_count() -> None:
    printed = {"duel": 2, "crossfire": 2, "mountain-king": 3, "bermuda-triangle": 3,
               "into-the-woods": 4, "musical-chairs": 4}
    assert {m: load(m).players for m in ALTERNATE} == printed
    assert {n: load(m).players for n, m in STANDARD.items()} == {2: 2, 3: 3, 4: 4}
    assert len(all_maps()) == 9
    assert find("Bermuda Triangle") == load("bermuda-triangle") and find("nowhere") is None


def test_every_alternate_map_has_impassable_tiles_as_section_8_describes_them() -> None:
    bare = [m for m in ALTERNATE if not any("#" in row for row in load(m).grid)]
    assert bare == []


def test_a_version_1_game_on_musical_chairs_is_set_up_and_shown_as_it_was_drawn_then() -> None:
    seats = [SeatInfo(n, f"p{n}") for n in (1, 2, 3, 4)]
    settings = RULESET.parse_settings({"map": "Musical Chairs"})
    (old,) = RULESET_V1.setup(settings, seats, NoDice())
    (new,) = RULESET.setup(settings, seats, NoDice())
    assert not any("#" in row for row in old.grid) and old.grid != new.grid
    shown = RULESET_V1.view(RULESET_V1.fold(RULESET_V1.initial_state(), (old,)), Viewer.for_seat(1))
    assert shown["map"]["about"] == load("musical-chairs", "musical-chairs-1").about


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: X\nplayers: 2\nabout: y\n", "no '---' line"),
        ("name X\n---\n", "header line 1"),
        ("name: X\nplayers: two\nabout: y\n---\n", "players must be a number"),
        ("name: X\nplayers: 2\nabout: y\n---\n" + "...2...\n" * 6, "6 rows, not 7"),
        ("name: X\nplayers: 2\nabout: y\n---\n" + "\n".join(["...2...", *["..*...."] * 5, "...1..."]) + "\n", ""),
        ("name: X\nplayers: 2\nabout: y\n---\n" + "\n".join(["...2...", *["......."] * 5, "...1..."]), "fewer than 3 Objective"),
        ("name: X\nplayers: 2\nabout: y\n---\n" + "\n".join(["..#2#..", "...#...", *["..*...."] * 4, "...1..."]), "has no space next to it"),
        ("name: X\nplayers: 2\nabout: y\n---\n" + "\n".join(["...2...", *["..*..?."] * 5, "...1..."]), "unknown terrain '?'"),
    ],
)
def test_map_files_are_checked(text: str, message: str) -> None:
    if not message:
        assert parse_map("x", text).players == 2
        return
    with pytest.raises(MapError) as info:
        parse_map("x", text)
    assert message in str(info.value)


def test_scheduled_work_starts_round_one_now_and_never_sets_a_deadline() -> None:
    state, _ = set_up(2)
    (work,) = RULESET.scheduled_work(state)
    assert (work.key, work.when, work.command) == (("round", 1, "start"), "now", StartRound(actor=work.command.actor, round=1))
    state = RULESET.fold(state, RULESET.decide(state, StartRound(actor=REFEREE, round=1), NoDice()))
    assert RULESET.scheduled_work(state) == ()  # no time limit: nothing to ring, no deadline


def test_the_deadline_command_changes_nothing() -> None:
    state = parse(TEAMS)
    command = RULESET.deadline_command(state, (1,), "none")
    assert isinstance(command, Pass)
    assert RULESET.decide(state, command, NoDice()) == ()
    with pytest.raises(RuleViolation):
        RULESET.decide(state, Pass(actor=Actor.player(1)), NoDice())


def test_every_seat_may_act_while_a_round_runs() -> None:
    assert RULESET.to_act(parse(TEAMS)) == frozenset({1, 2, 3, 4})
    assert RULESET.to_act(parse(TEAMS + " phase=break ended=1")) == frozenset()


def test_result_ranks_colours_by_rounds_won_and_teammates_share_a_place() -> None:
    result = RULESET.result(parse(TEAMS))
    assert not result.finished and result.winners == ()
    assert result.ranking == ((1, 2), (3, 4))
    assert dict(result.scores) == {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}
    over = RULESET.result(parse(TEAMS.replace("6000:1", "6000:2") + " phase=over ended=1"))
    assert over.finished and over.winners == (1, 2) and "Pink" in over.summary


def test_the_view_draws_the_whole_board() -> None:
    view = RULESET.view(parse(TEAMS), Viewer.for_seat(1))
    json.dumps(view)
    squares = {s["square"]: s for s in view["squares"]}
    assert len(squares) == 49
    assert squares["d1"]["terrain"] == "base" and squares["d1"]["base"] == "pink"
    assert squares["d4"]["terrain"] == "objective" and squares["b2"]["terrain"] == "impassable"
    assert squares["d3"]["knot"] == {"colour": "pink", "seat": 1, "at_ms": 0} and squares["d3"]["hq"] == "pink"
    assert view["seats"]["2"] == {"colour": "pink", "next_at_ms": 6000, "teammates": [1]}
    assert view["seats"]["4"]["next_at_ms"] == 9000
    pink = view["sides"][0]
    assert (pink["supply"], pink["on_board"], pink["hq"], pink["rounds_won"]) == (13, 2, "d3", 1)
    assert (view["round"], view["starts_at_ms"], view["to_act"]) == (1, 0, [1, 2, 3, 4])
    assert view["map"]["name"] == "Standard (2 players)" and view["secrets"] == []


def test_the_board_has_no_secret_everyone_sees_the_same_view() -> None:
    state = parse(TEAMS)
    views = [RULESET.view(state, v) for v in (PUBLIC, MODERATOR_VIEW, *map(Viewer.for_seat, range(1, 5)))]
    assert all(json.dumps(v, sort_keys=True) == json.dumps(views[0], sort_keys=True) for v in views)


def test_team_talk_reaches_only_the_team() -> None:
    (event,) = RULESET.decide(parse(TEAMS), Say(actor=Actor.player(2), at_ms=0, text="d4!"), NoDice())
    assert isinstance(event, TeamSpoke) and event.seats == (1, 2)
    assert RULESET.view_event(event, Viewer.for_seat(1)) is not None
    for viewer in (PUBLIC, Viewer.for_seat(3), Viewer.for_seat(4)):
        assert RULESET.view_event(event, viewer) is None


def test_what_a_team_says_leaves_no_trace_for_the_other_team() -> None:
    """Two games that differ only in what team pink said: blue's seats and the public see
    byte-identical feeds and positions."""
    seen = []
    for text in ("attack d4", "hold back"):
        clock = FakeClock()
        referee = make_referee(clock)
        info = referee.create_game(ruleset="wormlord", settings={"teams": True}, game_id="g", seed="ef" * 32)
        referee.start_game(info.id, [SeatInfo(n, f"p{n}") for n in range(1, 5)])
        referee.handle(info.id, command_type="Say", payload={"text": text}, actor=Actor.player(1))
        seen.append([
            json.dumps([referee.feed(info.id, v), referee.view(info.id, v)], sort_keys=True)
            for v in (PUBLIC, Viewer.for_seat(3), Viewer.for_seat(4))
        ])
        assert text in json.dumps(referee.feed(info.id, Viewer.for_seat(2)))
    assert seen[0] == seen[1]


def test_orders_and_events_name_their_rulebook_sections() -> None:
    assert RULESET.clauses("Liberate") == ("§3.2", "§3.3")
    assert RULESET.clauses("RoundWon") == ("§2", "§6", "§7.2")


def test_the_empty_position_has_a_view_and_no_result() -> None:
    state = RULESET.initial_state()
    assert RULESET.view(state, PUBLIC)["phase"] == "new"
    assert RULESET.result(state) == RULESET.result(state).__class__(finished=False)
    with pytest.raises(RuleViolation):
        RULESET.decide(state, StartRound(actor=REFEREE, round=1), NoDice())
