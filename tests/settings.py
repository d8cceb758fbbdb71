"""Test settings: the real settings plus the core-testing ruleset; tasks run eagerly unless
a test starts a real worker (tests/integration/test_celery_worker.py)."""

import os

from config.settings import *  # noqa: F403

REFEREE_EXTRA_RULESETS = ("tests.rulesets.pig:RULESET", "tests.rulesets.countdown:RULESET", "tests.rulesets.nim:RULESET")
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER", "1") == "1"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min"}}  # noqa: F405
# Receivers in tests are local HTTP servers on loopback.
NOTICES_ALLOW_HTTP = True
NOTICES_ALLOW_PRIVATE = True
NOTICES_TIMEOUT_SECONDS = 2.0
