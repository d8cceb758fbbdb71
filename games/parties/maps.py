"""Named maps (setting ``map``): fixed terrain in the grid notation (docs/notation-parties.md)
instead of drawn obstacles. Bots' start squares and strengths are still drawn (P-R2)."""

from __future__ import annotations

MAPS: dict[str, str] = {
    # open ground: nothing in the way
    "open": "12/12/12/12/12/12/12/12/12/12",
    # four mountain blocks with diagonal gaps to squeeze through at the centre
    "crossroads": (
        "16/16/2MMM6MMM2/2MMM6MMM2/2MMMM4MMMM2/6M2M6/7FF7/7FF7/6M2M6/2MMMM4MMMM2/2MMM6MMM2/16"
    ),
    # forest rows with gaps: long ways round, or squeezes
    "orchard": "14/1F1F1F1F1F1F2/14/2F1F1F1F1F1F1/14/1F1F1F1F1F1F2/14/2F1F1F1F1F1F1/14/14",
}
