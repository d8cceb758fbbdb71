"""A game's record as one file (``games.record`` describes the format), for a viewer.

Whoever sees the whole log (moderators; everyone once a finished game's log is public, as
``Referee._effective`` decides for every read path) gets every record with every hashed
field, so the file verifies offline. Anyone else gets the log exactly as the referee's feed
shows it to them (``Referee.feed``: the same filter, redaction and numbering as the API
and the pages), and no hashes: a hash covers what they may not see.
"""

from __future__ import annotations

from typing import Any

from games.base import Viewer, ViewerKind
from games.dice import __doc__ as DICE_PROCEDURE
from games.dice import seed_commitment
from games.record import FORMAT, FORMAT_VERSION
from referee.core import Referee
from referee.store.base import StoredRecord


def record_entry(r: StoredRecord) -> dict[str, Any]:
    """One record of a whole file: every field its hash covers, its predecessor's hash, its own."""
    body = r.hash_body()
    del body["game"]  # the file's header names the game once
    return {**body, "record_version": r.record_version, "prev_hash": r.prev_hash, "hash": r.hash}


def record_file(referee: Referee, game_id: str, viewer: Viewer, *, name: str = "") -> dict[str, Any]:
    """The record of ``game_id`` as ``viewer`` may have it."""
    info = referee.store.get_game(game_id)
    effective = referee._effective(info, viewer)
    whole = effective.kind is ViewerKind.MODERATOR
    if whole:
        records = [record_entry(r) for r in referee.store.read(game_id)]
        view: dict[str, Any] = {"whole": True}
    else:
        records = referee.feed(game_id, viewer)
        view = {"whole": False, "kind": str(viewer.kind), "seat": viewer.seat}
    finished = info.status == "finished"
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {"id": info.id, "name": name, "ruleset": info.ruleset, "ruleset_version": info.ruleset_version,
                 "status": info.status, "private_log": info.private_log},
        "dice": {"seed_commitment": seed_commitment(info.seed), "seed": info.seed if finished else None,
                 "procedure": (DICE_PROCEDURE or "").strip()},
        "view": view,
        "records": records,
    }
