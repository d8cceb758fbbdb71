"""Test settings: the real settings plus the core-testing ruleset, tasks run eagerly."""

from referee.settings import *  # noqa: F403

REFEREE_EXTRA_RULESETS = ("tests.rulesets.pig:RULESET",)
CELERY_TASK_ALWAYS_EAGER = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
