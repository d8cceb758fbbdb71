"""``manage.py tournament``: N Parties bots as separate processes over HTTP, one game to
its end, the log verified, the ranking printed with trophies (game_pages/parties/tournament.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from clients.referee_client import RefereeAPIError
from game_pages.parties import tournament
from games.base import RuleViolation
from games.parties.settings import parse_settings


class Command(BaseCommand):
    help = ("Run N Parties bots (separate processes, HTTP) in one game until it ends, verify the log as a "
            "moderator and print the ranking with 1st/2nd/3rd trophies. Without --url a server and a Celery "
            "worker are started on a free loopback port and stopped afterwards.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", help="a running server on loopback (default: start one)")
        parser.add_argument("--broker", help="Celery broker for the worker it starts (default: CELERY_BROKER_URL)")
        parser.add_argument("--bots", type=int, default=8, help="2 to 8 bots (default 8)")
        parser.add_argument("--width", type=int, default=10)
        parser.add_argument("--height", type=int, default=10)
        parser.add_argument("--obstacle-percent", type=int, default=10)
        parser.add_argument("--map", default="", help="a named map of games/parties/maps.py instead")
        parser.add_argument("--tick-seconds", type=int, default=2)
        parser.add_argument("--max-ticks", type=int, default=100, help="the game ends at this tick at the latest")
        parser.add_argument("--policies", default="", help="ally policies, comma-separated, dealt round the bots")
        parser.add_argument("--timeout", type=float, default=600.0, help="seconds before the bots are stopped")
        parser.add_argument("--seed", type=int, default=1, help="seeds the bots' own random choices")
        parser.add_argument("--moderator-token", help="verify as this moderator (default: create one)")
        parser.add_argument("--json", action="store_true", help="also print the outcome as one JSON line")

    def handle(self, *args: Any, **opts: Any) -> None:
        if not 2 <= opts["bots"] <= 8:
            raise CommandError("Parties is played by 2 to 8 bots.")
        raw: dict[str, Any] = {"tick_seconds": opts["tick_seconds"], "max_ticks": opts["max_ticks"]}
        if opts["map"]:
            raw["map"] = opts["map"]
        else:
            raw.update(width=opts["width"], height=opts["height"], obstacle_percent=opts["obstacle_percent"])
        try:
            parse_settings(raw)
        except RuleViolation as exc:
            raise CommandError(exc.message) from None
        policies = tuple(p for p in opts["policies"].split(",") if p)
        options = tournament.Options(bots=opts["bots"], settings=raw, policies=policies, timeout=opts["timeout"],
                                     seed=opts["seed"])
        root = Path(settings.BASE_DIR)

        def say(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        with tournament.workspace() as tmp:
            workdir = Path(tmp)
            try:
                if opts["url"]:
                    tournament.check_loopback(opts["url"])
                    outcome = tournament.play(opts["url"].rstrip("/"), options, root=root, workdir=workdir, say=say,
                                              mod_token=opts["moderator_token"])
                else:
                    with tournament.own_server(root, workdir, opts["broker"]) as url:
                        say(f"server on {url} with a Celery worker")
                        outcome = tournament.play(url, options, root=root, workdir=workdir, say=say,
                                                  mod_token=opts["moderator_token"])
            except (ValueError, RuntimeError, RefereeAPIError, OSError) as exc:
                self._dump(workdir, say)
                raise CommandError(str(exc)) from None
            if outcome.status != "finished":
                self._dump(workdir, say)
        for line in tournament.report_lines(outcome):
            say(line)
        if opts["json"]:
            say(json.dumps(outcome.as_json(), ensure_ascii=False))
        if outcome.status != "finished" or outcome.verified is False:
            raise CommandError("the tournament did not end cleanly (see above)")

    @staticmethod
    def _dump(workdir: Path, say: Any) -> None:
        """The tails of the server's, worker's and bots' logs (the directory is temporary)."""
        for log in sorted(workdir.glob("*.log")):
            say(f"--- {log.name}\n{log.read_text(errors='replace')[-2000:]}")
