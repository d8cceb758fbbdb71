"""Team weapons of §5 (one chosen free at sign-up, or from crates): super sheep, minigun,
holy hand-grenade. Mad cow and old woman walk: see ``weapons_walkers``."""

from __future__ import annotations

from games.worms.aim import target_square
from games.worms.arsenal import weapon
from games.worms.blast import shot_blast
from games.worms.commands import Fire
from games.worms.explosions import Blast, Ring
from games.worms.outcome import Outcome
from games.worms.state import Worm
from games.worms.weapons_standard import gun, thrown

SUPER_SHEEP = Blast(
    "super sheep", (60, 75), center_land=2, center_push=2, center_throw=2,
    rings=(Ring(1, (35, 35), land=1, push=1, throw=1),),
)
#: LND 0: no land damage, nobody thrown up; pushes downhill or across only
MINIGUN = Blast("minigun", (125, 125), center_push=2, downhill_only=True)
#: 25 squares: the centre, the 8 (reached within ±2, the LND there) and the 16 (±1)
HOLY_HAND_GRENADE = Blast(
    "holy hand-grenade", (70, 100), center_land=3, center_push=3, center_throw=3,
    rings=(
        Ring(1, (35, 50), land=2, push=2, throw=2, below=2, above=2),
        Ring(2, (15, 15), land=1, push=1, throw=1, below=1, above=1),
    ),
)


@weapon("super_sheep")
def super_sheep(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG ALL, HGT ALL: any square; the centre's push is random."""
    shot_blast(out, target_square(command.target, "Super Sheep"), SUPER_SHEEP, None)


@weapon("minigun")
def minigun(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 2 straight, HGT ±2: a guaranteed 125, pushed 2 downhill or across flat land."""
    gun(out, worm, command, MINIGUN)


@weapon("holy_hand_grenade")
def holy_hand_grenade(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 4, HGT +4/-ALL: 70-100 / 35-50 / 15 on 1 + 8 + 16 squares."""
    thrown(out, worm, command, HOLY_HAND_GRENADE)
