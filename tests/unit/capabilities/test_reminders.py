"""Reminders set, listed, snoozed and marked done."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from memo.capabilities.dispatch import CapabilityDispatcher
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler
from tests.unit.capabilities.support import LATER, NOW, THREAD, ctx


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


@pytest.fixture
def scheduler() -> FakeScheduler:
    return FakeScheduler()


@pytest.fixture
def executor(repo: FakeItemsRepository, scheduler: FakeScheduler) -> CapabilityDispatcher:
    return CapabilityDispatcher(repo, scheduler, lambda: NOW)


def test_create_reminder_writes_the_item_and_its_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    result = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    assert result.success
    reminder_id = result.external_ids["reminderId"]
    assert isinstance(reminder_id, str)
    stored = repo.get_reminder(THREAD, reminder_id)
    assert stored is not None and stored.title == "call mom" and stored.status == "scheduled"
    assert stored.schedule_name == f"reminder-{reminder_id}"
    assert scheduler.schedules[stored.schedule_name][2] == datetime.fromisoformat(LATER)
    assert scheduler.schedules[stored.schedule_name][3] == "Asia/Jerusalem"
    assert result.summary == "reminder “call mom” for Tue 10 Mar, 18:30"
    assert result.when == datetime.fromisoformat(LATER)


def test_a_retried_create_makes_no_second_reminder(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    first = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    second = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    assert first.external_ids == second.external_ids
    assert len(repo.reminders) == 1 and len(scheduler.schedules) == 1


def test_create_in_the_past_is_refused_in_hebrew(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    result = executor.execute(
        "reminders",
        "create",
        {"title": "x", "when": (NOW - timedelta(minutes=1)).isoformat()},
        ctx(language="he"),
    )
    assert not result.success and result.error_code == "TIME_IN_PAST" and result.error == "הזמן הזה כבר עבר."
    assert not repo.reminders


def test_list_and_delete_all_reminders(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    executor.execute("reminders", "create", {"title": "a", "when": LATER}, ctx("s1"))
    executor.execute("reminders", "create", {"title": "b", "when": "2026-03-12T09:00:00+02:00"}, ctx("s2"))
    listed = executor.execute("reminders", "list", {}, ctx("s3"))
    assert [r["title"] for r in listed.data["reminders"]] == ["a", "b"]
    on_day = executor.execute("reminders", "list", {"day": "2026-03-12"}, ctx("s4"))
    assert [r["title"] for r in on_day.data["reminders"]] == ["b"]
    week = executor.execute("reminders", "list", {"day": "2026-03-10", "until": "2026-03-11"}, ctx("s4"))
    assert [r["title"] for r in week.data["reminders"]] == ["a"] and week.data["until"] == "2026-03-11"
    nearest = executor.execute("reminders", "list", {"first": 1}, ctx("s4"))
    assert [r["title"] for r in nearest.data["reminders"]] == ["a"] and nearest.data["first"] == 1
    for bad in (0, 11):
        assert executor.execute("reminders", "list", {"first": bad}, ctx("s4")).error_code == "INVALID_ARGS"
    backwards = executor.execute("reminders", "list", {"day": "2026-03-12", "until": "2026-03-10"}, ctx("s4"))
    assert not backwards.success and backwards.error_code == "INVALID_ARGS"
    cleared = executor.execute("reminders", "delete_all", {}, ctx("s5"))
    assert cleared.data["count"] == 2 and not repo.reminders and not scheduler.schedules


def test_snooze_moves_a_one_time_reminder_and_done_finishes_it(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    rid = created.external_ids["reminderId"]
    snoozed = executor.execute("reminders", "snooze", {"reminderId": rid, "minutes": 10}, ctx("s2"))
    assert snoozed.success and snoozed.when == NOW + timedelta(minutes=10)
    assert scheduler.schedules[f"reminder-{rid}"][2] == NOW + timedelta(minutes=10)
    done = executor.execute("reminders", "done", {"reminderId": rid}, ctx("s3"))
    stored = repo.get_reminder(THREAD, str(rid))
    assert done.success and done.summary == "marked “call mom” done"
    assert stored is not None and stored.status == "sent" and f"reminder-{rid}" not in scheduler.schedules


def test_snooze_of_a_reminder_that_is_gone_is_not_found(executor: CapabilityDispatcher) -> None:
    result = executor.execute("reminders", "snooze", {"reminderId": "gone", "minutes": 10}, ctx())
    assert not result.success and result.error_code == "NOT_FOUND"


@pytest.mark.parametrize(
    ("titles", "about", "listed"),
    [
        (["להתקשר לאמא", "להתקשר לאבא"], "להתקשר לאבא", ["להתקשר לאבא"]),
        (["call mom", "call dad"], "call dad", ["call dad"]),
        (["pay rent", "pay rent", "call dad"], "rent", ["pay rent", "pay rent"]),
        (["pay the rent", "pay rent"], "pay rent", ["pay the rent", "pay rent"]),
    ],
)
def test_a_listing_about_a_title_lists_that_title_when_it_is_there(
    executor: CapabilityDispatcher, titles: list[str], about: str, listed: list[str]
) -> None:
    # "מתי זה?" about “להתקשר לאבא” listed “להתקשר לאמא” too: one letter away scores high.
    for n, title in enumerate(titles):
        when = (datetime.fromisoformat(LATER) + timedelta(hours=n)).isoformat()
        assert executor.execute("reminders", "create", {"title": title, "when": when}, ctx(f"s{n}")).success
    result = executor.execute("reminders", "list", {"about": about}, ctx("q"))
    assert [r["title"] for r in result.data["reminders"]] == listed
