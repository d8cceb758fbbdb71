"""Everything one viewer can read of a game through the referee core, as one text: the
feed, the feed resumed after each of the viewer's records (what a long-poll or a stream
resuming from ``Last-Event-ID`` is sent), what the live fan-out sends of the log read on
from each order (``Referee.feed_of``), the position at each of the viewer's records,
the replay index and every replay step, and the inbox. Leak tests compare it for two
games that differ only in a secret: every read path the API and the pages build on."""

from __future__ import annotations

import json

from games.base import Viewer, ViewerKind
from referee.core import Referee
from referee.replay import inbox, replay_index, replay_step
from referee.store.base import RecordKind


def every_read(referee: Referee, game_id: str, viewer: Viewer) -> dict[str, str]:
    """Each read path's answer as canonical JSON, by path."""
    feed = referee.feed(game_id, viewer)
    count = len(feed)
    index = replay_index(referee, game_id, viewer)
    info = referee.store.get_game(game_id)
    # an order's records are appended together: a stretch read for the readers starts at one
    starts = [r.seq - 1 for r in referee.store.read(game_id) if r.kind is not RecordKind.EVENT]
    paths = {
        "feed": feed,
        "resumed": [referee.feed(game_id, viewer, after=k) for k in range(count)],
        "live": [referee.feed_of(game_id, viewer, referee.store.read(game_id, after=s), info)[0] for s in starts],
        "states": [referee.view(game_id, viewer, seq) for seq in range(1, count + 1)],
        "now": referee.view(game_id, viewer),
        "replay": index,
        "steps": [replay_step(referee, game_id, viewer, step["seq"]) for step in index],
        "inbox": inbox(referee, game_id, viewer.seat) if viewer.kind is ViewerKind.SEAT and viewer.seat else None,
    }
    return {path: json.dumps(answer, sort_keys=True) for path, answer in paths.items()}


def differing(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """The read paths whose answers differ, each with where they part: a short message
    where a plain comparison of the whole texts would have pytest diff megabytes."""
    out = []
    for path in sorted(set(a) | set(b)):
        x, y = a.get(path, ""), b.get(path, "")
        if x != y:
            at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
            out.append(f"{path}: ...{x[max(0, at - 120):at + 60]}... | ...{y[max(0, at - 120):at + 60]}...")
    return out
