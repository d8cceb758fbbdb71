"""The core tells what someone may want to hear of through the noticeboard; the notices app,
above the core, plugs in what records it. With nothing plugged in nothing is recorded."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee import noticeboard


class FakeRecorder:
    def __init__(self) -> None:
        self.told: list[tuple[object, ...]] = []

    def record(self, *, notice: str, game_id: str, key: str, seats: Iterable[int] | None = None) -> None:
        self.told.append(("record", notice, game_id, key))

    def league_game_made(self, *, league_id: int, game_id: str) -> None:
        self.told.append(("league game", league_id, game_id))

    def recipients_recording(self, *, due_kind: str, game_id: str, key: str,
                             seats: Iterable[int]) -> list[tuple[str, str]]:
        return []

    def due_notices_ctes(self) -> str:
        return "noted AS (SELECT 1)"

    def wanted_by_email(self, notice: str, choices: Sequence[Sequence[str]]) -> bool:
        return all(notice in wants for wants in choices)

    def nudge_after_commit(self) -> None:
        self.told.append(("nudge",))


def test_what_the_core_tells_reaches_what_is_plugged_in_and_nothing_else(monkeypatch):
    monkeypatch.setattr(noticeboard, "_recorder", None)
    noticeboard.record(notice="over", game_id="g0", key="over")  # nobody listens: nothing happens
    fake = FakeRecorder()
    noticeboard.plug(fake)
    noticeboard.record(notice="over", game_id="g1", key="over")
    noticeboard.league_game_made(league_id=7, game_id="g2")
    assert fake.told == [("record", "over", "g1", "over"), ("league game", 7, "g2")]
    assert noticeboard.plugged() is fake


def test_the_notices_app_plugs_its_recorder_in_when_django_starts():
    from notices import record

    assert noticeboard.plugged() is record


def test_with_nothing_plugged_in_a_turn_records_no_notice_and_every_address_gets_its_email(monkeypatch):
    monkeypatch.setattr(noticeboard, "_recorder", None)
    assert noticeboard.due_notices_ctes() is None  # the due rows' statement records nothing
    assert noticeboard.wanted_by_email("turn", [["remind"]])  # no channel app: its choices do not exist
    noticeboard.nudge_after_commit()  # nobody to nudge: nothing happens


def test_a_turns_notices_and_email_choices_come_from_what_is_plugged_in(monkeypatch):
    fake = FakeRecorder()
    monkeypatch.setattr(noticeboard, "_recorder", fake)
    assert noticeboard.due_notices_ctes() == "noted AS (SELECT 1)"
    assert not noticeboard.wanted_by_email("turn", [["remind"]])
    assert noticeboard.wanted_by_email("turn", [["turn", "remind"]])
    noticeboard.nudge_after_commit()
    assert fake.told == [("nudge",)]
    assert noticeboard.FROM_DUE_KIND == {"notify": "turn", "remind": "remind"}
