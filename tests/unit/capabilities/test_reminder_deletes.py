"""Reminder deletes: pinned ids, no read first; what changed since the approval is left alone."""

from __future__ import annotations

from datetime import timedelta

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


def test_a_vanished_target_is_not_found(executor: CapabilityDispatcher) -> None:
    result = executor.execute("reminders", "delete", {"reminderIds": ["gone"]}, ctx())
    assert not result.success and result.error_code == "NOT_FOUND"
    assert result.error == "I couldn't find that reminder anymore."


def test_a_reminder_changed_after_the_approval_is_left_with_its_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    rid = str(created.external_ids["reminderId"])
    repo.changed_at[(THREAD, rid)] = NOW
    asked = ctx("s2", unchanged_since=NOW - timedelta(minutes=5))
    result = executor.execute("reminders", "delete", {"reminderIds": [rid]}, asked)
    assert not result.success and result.error_code == "CHANGED_SINCE_APPROVAL"
    assert repo.get_reminder(THREAD, rid) is not None and f"reminder-{rid}" in scheduler.schedules


def test_delete_all_counts_what_was_gone(executor: CapabilityDispatcher, repo: FakeItemsRepository) -> None:
    created = executor.execute("reminders", "create", {"title": "a", "when": LATER}, ctx())
    rid = str(created.external_ids["reminderId"])
    result = executor.execute("reminders", "delete_all", {"reminderIds": [rid, "gone"]}, ctx("s2"))
    assert result.success and result.data["count"] == 1 and result.data["gone"] == 1
    assert result.external_ids == {"reminderIds": [rid]} and not repo.reminders
