"""Nudges go to the broker from a sender thread: the caller never waits for, nor fails with,
the broker (the sweeper is what guarantees the work runs)."""

from __future__ import annotations

import logging

from config.celery import app
from referee import nudges


def test_a_nudge_reaches_the_broker_after_the_caller_has_moved_on(monkeypatch):
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args, eta=None, **_: sent.append((name, args, eta)))
    nudges.send_later("referee.run_due_work", ("g", "turn:1:start", "now"))
    assert nudges.wait_sent()
    assert sent == [("referee.run_due_work", ("g", "turn:1:start", "now"), None)]


def test_a_broker_that_fails_is_logged_and_the_next_nudge_still_goes(monkeypatch, caplog):
    sent = []

    def send_task(name, args, eta=None, **_):
        if args[0] == "down":
            raise ConnectionError("broker down")
        sent.append(args[0])

    monkeypatch.setattr(app, "send_task", send_task)
    with caplog.at_level(logging.WARNING, logger="referee.nudges"):
        nudges.send_later("referee.run_due_work", ("down", "k", "now"))
        nudges.send_later("referee.run_due_work", ("up", "k", "now"))
        assert nudges.wait_sent()
    assert sent == ["up"]
    assert "the sweeper will run it" in caplog.text


def test_the_same_nudge_piled_up_twice_goes_to_the_broker_once(monkeypatch):
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args, eta=None, **_: sent.append((name, args, eta)))
    nudges._deliver([("notices.send_due", (), None), ("referee.run_due_work", ("g", "k", "now"), None),
                     ("notices.send_due", (), None)])
    assert sent == [("notices.send_due", (), None), ("referee.run_due_work", ("g", "k", "now"), None)]


def test_a_nudge_names_its_arguments_for_the_log_as_celery_would(monkeypatch):
    from celery.utils.saferepr import saferepr

    reprs = []
    monkeypatch.setattr(app, "send_task", lambda name, args, eta=None, **kw: reprs.append(
        {"argsrepr": kw["argsrepr"], "kwargsrepr": kw["kwargsrepr"]}))
    args = ("3f2b5a8e-1111-2222-3333-444455556666", "turn:12:start", "now")
    nudges._deliver([("referee.run_due_work", args, None), ("notices.send_due", (), None)])
    assert reprs == [{"argsrepr": saferepr(args), "kwargsrepr": saferepr({})},
                     {"argsrepr": saferepr(()), "kwargsrepr": saferepr({})}]


def test_a_send_that_fails_once_is_tried_again_on_a_new_connection_and_not_logged(monkeypatch, caplog):
    sent, failures = [], ["once"]

    def send_task(name, args, eta=None, **_):
        if failures:
            failures.pop()
            raise ConnectionError("connection reset")
        sent.append(args[0])

    monkeypatch.setattr(app, "send_task", send_task)
    with caplog.at_level(logging.WARNING, logger="referee.nudges"):
        nudges._deliver([("referee.run_due_work", ("g", "k", "now"), None)])
    assert sent == ["g"]
    assert "the sweeper will run it" not in caplog.text
