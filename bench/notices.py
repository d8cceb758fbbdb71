"""Deadlines beside slow webhooks: games whose every deadline job records a notice for a
webhook that answers after 10 s expire as fast as games without one.

Each round makes a batch of games without webhooks and a batch whose players each have a
webhook, then expires their deadlines interleaved job by job (which kind goes first
alternates), so a change of load falls on both alike. Throughout, the notices worker's
loop (``notices.delivery.send_due`` on threads of a process of its own, as the ``notices``
queue's worker is in production) sends to the slow receiver, so deadlines and a notices
worker held up by it share the machine and the database. The figure: the hooked games'
deadlines per second over the plain games', min / median / max over the rounds (1.0: as
fast). Also printed: the statements of one deadline job of each kind (the same), how many
turn notices the jobs recorded and how many the receiver answered meanwhile. See
bench/README.md.

    scripts/with_servers.sh .venv/bin/python bench/notices.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-a-secret")
os.environ.setdefault("LOG_LEVEL", "WARNING")

GAMES = int(os.environ.get("BENCH_NOTICE_GAMES", "300"))  # games per batch (two batches a round)
ROUNDS = max(3, int(os.environ.get("BENCH_NOTICE_ROUNDS", "3")))
SENDERS = int(os.environ.get("BENCH_NOTICE_SENDERS", "8"))  # the notices worker's concurrent sends
ANSWER_SECONDS = 10.0  # how long the webhook takes to answer


def make_games(n: int, hooked: bool, url: str, tag: str) -> list[tuple[str, str, object]]:
    """``n`` started two-seat Pig games, each seat its own player; with ``hooked`` each
    game's first player has a webhook. Returns (game id, deadline key, deadline due at)."""
    from django.contrib.auth import get_user_model

    from notices import services as notices_services
    from referee import services
    from referee.models import DueWork

    users = get_user_model().objects
    out = []
    for i in range(n):
        game = services.game_create(name=f"bench {tag} {i}", ruleset="pig")
        for seat in (1, 2):
            user = users.create_user(username=f"bench-{tag}-{i}-{seat}")  # no e-mail: only the webhook
            if hooked:
                notices_services.webhook_create(user=user, url=url, wants=["turn", "remind", "over"])
            services.seat_add(game=game, user=user, name=f"P{seat}")
        services.game_start(game=game)
        services.game_run_pending(game_id=str(game.pk))
        row = DueWork.objects.get(game_id=game.pk, kind="deadline", status="pending")
        out.append((str(game.pk), row.key, row.due_at))
    return out


def expire(game: tuple[str, str, object], statements: list[int]) -> float:
    """Runs one game's deadline job, as a worker would once it is due: seconds taken."""
    import datetime as dt

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from referee import scheduling

    game_id, key, due_at = game
    connection.queries_log.clear()  # the log keeps 9,000: counted per job from empty
    t0 = time.perf_counter()
    with CaptureQueriesContext(connection) as seen:
        result = scheduling.due_work_run(game_id=game_id, key=key, kind="deadline",
                                         now=due_at + dt.timedelta(minutes=1))  # type: ignore[operator]
    seconds = time.perf_counter() - t0
    if not result.startswith("referee played"):
        raise AssertionError(f"game {game_id}: {result}")
    statements.append(len(seen.captured_queries))
    return seconds


def send_loop() -> None:
    """The notices worker, in a process of its own as in production: ``SENDERS`` threads
    sending what is due until this process is ended."""
    setup()
    from notices import delivery

    def loop() -> None:
        while True:
            if not delivery.send_due(limit=1):
                time.sleep(0.2)

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(SENDERS)]
    for t in threads:
        t.start()
    print("ready", flush=True)
    sys.stdin.read()  # until the bench closes its end


class Senders:
    """The notices worker's process, started once for the run (as the worker is always
    there) and ended after it."""

    def __enter__(self) -> Senders:
        self.process = subprocess.Popen([sys.executable, __file__, "--send"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the notices loop did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(60)


def setup() -> None:
    import django
    from django.conf import settings

    django.setup()
    settings.NOTICES_TIMEOUT_SECONDS = ANSWER_SECONDS + 5  # the receiver answers, late


def main() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("bench/notices.py needs PostgreSQL: scripts/with_servers.sh .venv/bin/python bench/notices.py")
    from django.core.management import call_command

    setup()
    call_command("migrate", interactive=False, verbosity=0)
    from bench import results
    from notices.models import Delivery
    from tests.notice_receiver import Receiver

    receiver = Receiver(delay=ANSWER_SECONDS).start()
    load_at_start = os.getloadavg()
    print(f"bench/notices.py: {GAMES} games per batch, {ROUNDS} rounds, a webhook answering after "
          f"{ANSWER_SECONDS:.0f} s, {SENDERS} concurrent sends; load {load_at_start[0]:.1f}", flush=True)
    ratios: list[float] = []
    rates: dict[str, list[float]] = {"plain": [], "hooked": []}
    statements: dict[str, list[int]] = {"plain": [], "hooked": []}
    answered = 0
    senders = Senders().__enter__()
    for r in range(ROUNDS):
        plain = make_games(GAMES, False, receiver.url, f"{r}p")
        hooked = make_games(GAMES, True, receiver.url, f"{r}h")
        Delivery.objects.filter(status=Delivery.Status.PENDING).update(status=Delivery.Status.SENT)  # setup's turns
        # Interleaved job by job (which kind goes first alternates), so a change of load
        # falls on both kinds alike.
        seconds = {"plain": 0.0, "hooked": 0.0}
        before = len(receiver.received)
        for i, (p, h) in enumerate(zip(plain, hooked, strict=True)):
            pair = [("plain", p), ("hooked", h)]
            for kind, game in pair if (i + r) % 2 == 0 else reversed(pair):
                seconds[kind] += expire(game, statements[kind])
        answered += len(receiver.received) - before
        for kind in seconds:
            rates[kind].append(GAMES / seconds[kind])
        ratios.append(rates["hooked"][-1] / rates["plain"][-1])
        print(f"  round {r + 1}: {rates['plain'][-1]:.0f} deadlines/s plain, {rates['hooked'][-1]:.0f} hooked "
              f"(ratio {ratios[-1]:.2f}), load {os.getloadavg()[0]:.1f}", flush=True)
    senders.__exit__()
    recorded = Delivery.objects.filter(notice="turn").count() - ROUNDS * GAMES  # less the setups' first turns
    spread = results.spread
    print(f"load average {load_at_start[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
          f"{ROUNDS} rounds, min / median / max")
    print(f"  deadlines/s without webhooks   {spread(rates['plain'], '{:.0f}')}")
    print(f"  deadlines/s with a slow one    {spread(rates['hooked'], '{:.0f}')}")
    print(f"  hooked / plain                 {spread(ratios)}   (goal: about 1.0)")
    print(f"  statements per deadline job    plain {statistics.mode(statements['plain'])}, "
          f"hooked {statistics.mode(statements['hooked'])}")
    print(f"  turn notices the deadline jobs recorded: {recorded}; answered by the slow webhook while "
          f"they ran: {answered} (the notices loop's sends, {ANSWER_SECONDS:.0f} s each)")
    results.record("notices.hooked_deadline_ratio", ratios, games=GAMES, answer_seconds=ANSWER_SECONDS)
    receiver.delay = 0.0
    receiver.stop()


if __name__ == "__main__":
    send_loop() if sys.argv[1:] == ["--send"] else main()
