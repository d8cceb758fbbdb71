"""The deadline bot plays for a team whose player is away: it must not shoot that team or
walk it onto its own mines (L-R14, ruleset version 2). Games of version 1 keep the bot they
were played with."""

from __future__ import annotations

import pytest
from lggwg_casebook import command
from lggwg_helpers import SEED, bot_command, started

from games.dice import ForcedDice, SeededDice
from games.lggwg import RULESET, RULESET_V1
from games.lggwg import events as ev
from games.lggwg.notation import parse
from games.lggwg.state import LggwgState
from games.registry import default_registry

#: L82's position: Blue's Max has Red's Executive in range, Blue's Puffer stands beside it.
BESIDE = ("custom #12/#.10#/#.10#/#.10#/#.10#/#.10#/#.10#/#12 orders:1/30 noflags R,B R=1:0:0:0:-:n,"
          "B=2:0:0:0:-:n R1=E@b7:15/15,B1=E@k2:15/15,B2=M@f7:14/14,B3=P@c6:8/8 - - - -")


def own_team_hurt(state: LggwgState, events: tuple[ev.Event, ...]) -> list[str]:
    """Damage a team's shot (a bullet, shell, splash or fireball) or its own mine did to that
    same team."""
    team = {u.id: u.team for u in state.units}
    shooter, mine, hurt = None, None, []
    for event in events:
        if isinstance(event, ev.ShotFired):
            shooter, mine = team.get(event.unit), None
        elif isinstance(event, ev.MineExploded):
            shooter, mine = None, event.team
        elif isinstance(event, (ev.OrderResolved, ev.Exploded)):
            shooter, mine = None, None  # a blast is not the shot's doing
        elif isinstance(event, ev.UnitDamaged) and team.get(event.unit) in {shooter, mine} - {None}:
            hurt.append(f"team {team[event.unit]} hurt {event.unit} ({event.cause}, {event.amount})")
    return hurt


@pytest.mark.parametrize(("map_name", "seats"), [("duel", 2), ("flags", 2), ("triangle", 3), ("cross", 4)])
def test_bot_games_never_hurt_the_bots_own_team(map_name: str, seats: int) -> None:
    hurt, enemy_damage = [], 0
    for n in range(4):
        game = f"own-{map_name}-{n}"
        state = started(map_name, seats, game, max_turns=30)
        for seq in range(2, 2000):
            if RULESET.is_finished(state):
                break
            seat = min(RULESET.to_act(state))
            events = RULESET.decide(state, bot_command(state, seat, game, seq), SeededDice(SEED, game, seq))
            hurt += own_team_hurt(state, events)
            team = {u.id: u.team for u in state.units}
            enemy_damage += sum(e.amount for e in events if isinstance(e, ev.UnitDamaged) and team.get(e.unit))
            state = RULESET.fold(state, events)
    assert hurt == []
    assert enemy_damage > 0, "the bot still fights"


def test_version_1s_bot_shells_the_foe_beside_its_own_unit_as_it_always_did() -> None:
    state = parse(BESIDE)
    for text in ("R: R1-", "deadline bot"):
        events = RULESET_V1.decide(state, command(state, text), ForcedDice([2, 0, 2, 0, 2, 0]))
        hurt = own_team_hurt(state, events)
        state = RULESET_V1.fold(state, events)
    assert hurt == ["team 2 hurt B3 (splash, 1)"] * 3
    assert state.unit("B3").hp == 5


def test_new_games_get_the_latest_version_and_old_games_keep_version_1s_bot() -> None:
    registry = default_registry()
    assert registry.get("lggwg") is RULESET
    assert registry.get("lggwg", "1") is RULESET_V1
    assert registry.get("lggwg", "2").bot_orders is RULESET.bot_orders  # the bot of version 2 and later
