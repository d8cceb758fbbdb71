"""The rules page's content: the rulebook's parts as the engine cites them (§1-§8, from
docs/rulings/lggwg.md), the unit table straight from ``games.lggwg.units`` and the terrain."""

from __future__ import annotations

import re
from typing import Any

from game_pages.lggwg.board_svg import TERRAIN_NAMES
from games.lggwg.units import UNITS

SECTIONS = (
    ("1", "Winning", "The highest score wins; it need not be the last Executive standing. The game ends after a "
     "resolution when at most one team is in, or when the last turn has been played (L-R25)."),
    ("2", "Orders", "Each team writes a secret list: move (one step, N NE E SE S SW W NW), targeted fire at a "
     "square, opportunity fire (a random visible enemy in range, an Executive first, targets seen only past "
     "mines last; nobody there: the next order goes at once), opportunity move (shoot first if someone is "
     "there, then step), lay a mine (Miners), hold, forfeit (last: every unit dies; penalty damage except in "
     "flag games). A unit moves at most its speed and fires once a turn. A team may send a new list until "
     "the last list is in (L-R1, L-R3, L-R13, L-R15, L-R16, L-R19)."),
    ("3", "Resolution", "When every list is in (or the deadline passes) the turn resolves: sheep step first; then "
     "in the team order shown before orders are due, each team's first order, then each team's second, and "
     "so on. An order that cannot be carried out (a blocked step, a dead unit) becomes a hold. A shot out of "
     "range lands on the last square of the line still in range, and the bullet flies along the line to "
     "that square (L-R1, L-R2, L-R4, L-R10)."),
    ("4", "Units", "The unit table below. Executives and Firebots explode when they die; a dead Executive puts "
     "his team out, and his killer scores the whole team. Miners carry three mines; a mine hurts anyone but "
     "its own Miners. Flags see for their team while they stand; the last team standing scores all flags. "
     "Sheep wander; the team that kills most is the Sheepinator (L-R5, L-R7, L-R9, L-R17, L-R18, L-R22-24)."),
    ("5", "Terrain", "Walls block sight, steps and bullets and give cover (Max's splash goes through). Doors open "
     "when shot; locked doors and nuclear crates give way after 5 damage and are hardened against Firebots. "
     "Windows let sight and bullets through, not walkers. Crates explode when shot; health packs give up to 5 "
     "hit points back and are destroyed when fired on (L-R6, L-R8)."),
    ("6", "Sight and fog", "A team sees what its living units and flags see (king moves within sight, a clear "
     "line), its own units and mines anywhere, and remembers the terrain it has seen. One line rule serves "
     "sight and bullets (L-R11, L-R12)."),
    ("7", "Scoring", "1 point per hit point taken off an enemy unit or any flag, 5 per enemy soldier killed; "
     "damage to your own units and flags is taken off your score (L-R20)."),
    ("8", "Deadlines", "A team whose list is not in at the deadline gets all holds or the plain bot's list "
     "(the game's policy), given by the referee (L-R14)."),
)

_SECTION = re.compile(r"§\s*(\d+)")


def section_of(clause: str) -> str | None:
    m = _SECTION.search(clause or "")
    return m.group(1) if m and any(s[0] == m.group(1) for s in SECTIONS) else None


def unit_table() -> list[dict[str, Any]]:
    rows = []
    for u in UNITS.values():
        rows.append({
            "code": u.code, "name": u.name, "hp": u.hp or "on the flag", "armour": u.armour,
            "speed": u.speed if u.soldier else "—", "range": u.range if u.soldier else "—",
            "damage": f"{u.damage[0]}-{u.damage[1]}" if u.soldier else "—", "sight": u.sight or "—",
            "weapon": u.weapon if u.soldier else "—", "explodes": u.explodes or "—", "mines": u.mines or "—",
        })
    return rows


def terrain_table() -> list[dict[str, str]]:
    return [{"char": c, "name": n} for c, n in TERRAIN_NAMES.items()]
