"""manage.py import_record FILE: bring a finished game's whole record (``GET
/api/games/{id}/record/``) into this referee as a read-only game, verified before it is
accepted. LGGWG's ``.tak`` files keep their own command, ``replay_record``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.record.verify import RecordFileError, load
from referee.record_import import RecordRefused, record_import


class Command(BaseCommand):
    help = "Import a finished game's record file as a read-only game, after verifying it."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a whole record (.record.json)")

    def handle(self, *args, file: str, **options):
        try:
            with open(file, "rb") as handle:
                data = load(handle.read())
            game = record_import(data=data)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        except RecordFileError as exc:
            raise CommandError(f"{file}: {exc}") from None
        except RecordRefused as exc:
            raise CommandError(f"{file}: {exc}") from None
        self.stdout.write(f"imported game {game.pk} ({game.ruleset} {game.ruleset_version}, "
                          f"{game.events.count()} records, verified): read-only, finished")
