"""A game's record in one self-describing file, as PGN is for chess, and its offline check.

The file is JSON (``FORMAT``, ``FORMAT_VERSION``)::

    {"format": "referee-record", "format_version": 1,
     "game": {"id", "name", "ruleset", "ruleset_version", "status", "private_log"},
     "dice": {"seed_commitment": sha256(seed), "seed": the seed once the game is over, else null,
              "procedure": how every draw follows from the seed},
     "view": {"whole": true} or {"whole": false, "kind": "seat"/"public", "seat": n},
     "records": [...]}

A *whole* record (moderators; everyone once a finished game's log is public) lists every
record of the log with every field its hash covers (``hashing.hash_body``), its
``prev_hash`` and its ``hash``: anyone can re-hash the chain, recompute each draw from the
revealed seed and re-decide every order (``python -m games.record verify FILE``).

A *viewer's* record (a player while the game runs) lists the log as that viewer sees it,
numbered in their own sequence, and carries no hashes. The hash of a record covers what
the viewer may not see, and so does every later hash: handing a player hashes would let
them test guesses of a hidden record (a hidden worm's square has few possible values), and
counting hidden records' hashes would tell them how many there are. Their chain is checked
on the whole record, which every player can fetch once the game is over.

Needs nothing but ``games/``: no Django, no database.
"""

from __future__ import annotations

FORMAT = "referee-record"
FORMAT_VERSION = 1
SETUP = "Setup"  # the referee's first order: settings and seats

__all__ = ["FORMAT", "FORMAT_VERSION", "SETUP"]
