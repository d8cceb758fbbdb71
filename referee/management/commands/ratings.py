"""``manage.py ratings --rebuild``: recompute every rating from the logs of the rated games,
in the order of their ends; ``--check`` says whether that changes anything."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from referee import ratings, ratings_admin


class Command(BaseCommand):
    help = "Recompute every rating from the rated games' logs (docs/ratings.md)."

    def add_arguments(self, parser):
        parser.add_argument("--rebuild", action="store_true", help="replay every rated game and rewrite the ratings")
        parser.add_argument("--check", action="store_true",
                            help="with --rebuild: exit non-zero if the rebuilt ratings differ from the stored ones")

    def handle(self, *args, **options):
        if not options["rebuild"]:
            raise CommandError("Say what to do: --rebuild.")
        before = ratings.ratings_snapshot()
        counted = ratings_admin.ratings_rebuild_from_logs()
        after = ratings.ratings_snapshot()
        differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        self.stdout.write(f"{counted} rated games replayed; {len(after)} ratings; {len(differ)} changed.")
        for user, ruleset, ladder in differ[:20]:
            self.stdout.write(f"  changed: user {user} on {ruleset} ({ladder}): {before.get((user, ruleset, ladder))}"
                              f" -> {after.get((user, ruleset, ladder))}")
        if options["check"] and differ:
            raise CommandError(f"{len(differ)} ratings differed from the replay of the logs.")
