from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest

from memo.domain import LatestAction, TurnState
from memo.resolution.entity import EntityResolution, resolve_entities
from memo.resolution.router import resolve_all
from memo.resolution.selection import apply_selection
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_list_item, add_note, add_reminder, state_for, step


@pytest.fixture
def repo() -> FakeItemsRepository:
    repo = FakeItemsRepository()
    add_reminder(repo, "r-mom", "Call mom", hours=3)
    add_reminder(repo, "r-dentist", "Dentist appointment", hours=26)
    add_reminder(repo, "r-meet-dan", "Meeting with Dan", hours=5)
    add_reminder(repo, "r-meet-ron", "Meeting with Ron", hours=6)
    add_reminder(repo, "r-meet-tal", "Meeting with Tal", hours=7)
    return repo


def resolved(
    state: TurnState, repo: FakeItemsRepository, latest_actions: Sequence[LatestAction] = ()
) -> EntityResolution:
    return resolve_entities(resolve_all(state), repo, NOW, latest_actions=latest_actions)


def test_one_match_with_a_typo_gives_ids_in_executor_args(repo: FakeItemsRepository) -> None:
    out = resolved(state_for(step("s1", "reminders", "delete", constraints={"target": "dentst"})), repo)
    assert out.state.executor_args["s1"] == {"reminderIds": ["r-dentist"]}
    assert not out.needs_hitl and out.resolved == ("s1",)


def test_update_carries_the_change_and_the_id(repo: FakeItemsRepository) -> None:
    out = resolved(
        state_for(
            step(
                "s1",
                "reminders",
                "update",
                constraints={"target": "call mon"},
                changes={"when": "2026-03-11T10:00:00+02:00"},
            )
        ),
        repo,
    )
    assert out.state.executor_args["s1"] == {"reminderIds": ["r-mom"], "when": "2026-03-11T10:00:00+02:00"}


def test_several_close_matches_ask_machine_only(repo: FakeItemsRepository) -> None:
    out = resolved(state_for(step("s1", "reminders", "delete", constraints={"target": "the meeting"})), repo)
    d = out.disambiguation
    assert out.needs_hitl and d is not None
    assert [c.id for c in d.candidates] == ["r-meet-dan", "r-meet-ron", "r-meet-tal"]
    assert not d.allow_multiple and d.disambiguation_kind == "pick_one"
    assert d.candidates[0].label == "Meeting with Dan"
    assert d.candidates[0].description == "Tue 10 Mar, 16:00"  # due time in the user's timezone
    assert "s1" not in out.state.executor_args and "s1" not in out.state.execution_results


def test_plural_words_allow_picking_several(repo: FakeItemsRepository) -> None:
    out = resolved(
        state_for(step("s1", "reminders", "delete", constraints={"target": "all the meeting reminders"})),
        repo,
    )
    d = out.disambiguation
    assert d is not None and d.allow_multiple and d.disambiguation_kind == "pick_many"
    assert len(d.candidates) == 3


def test_no_match_fails_the_step_without_an_interrupt(repo: FakeItemsRepository) -> None:
    out = resolved(state_for(step("s1", "reminders", "delete", constraints={"target": "pay rent"})), repo)
    assert not out.needs_hitl and out.disambiguation is None
    failed = out.state.execution_results["s1"]
    assert failed["success"] is False and failed["error_code"] == "NOT_FOUND"
    assert failed["error"] == "I couldn't find a reminder matching “pay rent”."
    assert out.not_found == ("s1",)


def test_hebrew_prefixes_find_the_note() -> None:
    repo = FakeItemsRepository()
    add_note(repo, "n-1", "הסיסמה של הוויפי היא 1234")
    add_note(repo, "n-2", "מתכון לעוגת גבינה")
    out = resolved(
        state_for(step("s1", "notes", "delete", constraints={"target": "העוגה גבינה"}), language="he"), repo
    )
    assert out.state.executor_args["s1"] == {"noteIds": ["n-2"]}
    missing = resolved(
        state_for(step("s1", "notes", "delete", constraints={"target": "רשימת ספרים"}), language="he"), repo
    )
    assert missing.state.execution_results["s1"]["error"] == "לא מצאתי פתק שמתאים ל„רשימת ספרים”."


def test_it_resolves_through_the_latest_action(repo: FakeItemsRepository) -> None:
    latest = [
        LatestAction(
            created_at=NOW,
            capability="notes",
            action="save",
            summary="saved a note",
            external_ids={"noteId": "n-x"},
        ),
        LatestAction(
            created_at=NOW - timedelta(minutes=1),
            capability="reminders",
            action="create",
            summary="reminder",
            external_ids={"reminderId": "r-mom"},
        ),
    ]
    state = state_for(step("s1", "reminders", "delete", constraints={"targetRef": "latest_action"}))
    out = resolved(state, repo, latest_actions=latest)
    assert out.state.executor_args["s1"] == {"reminderIds": ["r-mom"]}

    del repo.reminders[("972501234567", "r-mom")]
    gone = resolved(state, repo, latest_actions=latest)
    assert gone.state.execution_results["s1"]["error_code"] == "NOT_FOUND"


def test_create_steps_pass_through_and_a_resolved_step_is_not_looked_up_again(
    repo: FakeItemsRepository,
) -> None:
    state = state_for(
        step("s1", "reminders", "create", constraints={"title": "x", "when": "2026-03-11T10:00:00+02:00"}),
        step("s2", "reminders", "delete", constraints={"target": "dentist"}),
    )
    first = resolved(state, repo)
    assert first.state.executor_args["s1"] == {"title": "x", "when": "2026-03-11T10:00:00+02:00"}
    reads = repo.reads
    again = resolve_entities(first.state, repo, NOW)
    assert repo.reads == reads and again.state == first.state


def test_list_remove_resolves_known_items_and_reports_the_rest() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-milk", "shopping", "milk")
    add_list_item(repo, "i-eggs", "shopping", "eggs")
    add_list_item(repo, "i-bread", "shopping", "bread")
    out = resolved(
        state_for(
            step(
                "s1",
                "lists",
                "remove",
                constraints={"listName": "Shopping"},
                changes={"items": ["the milk", "egs", "wine"]},
            )
        ),
        repo,
    )
    assert out.state.executor_args["s1"] == {
        "listName": "Shopping",
        "itemIds": ["i-milk", "i-eggs"],
        "notFound": ["wine"],
    }


def test_a_second_ambiguous_step_waits_for_the_first_answer(repo: FakeItemsRepository) -> None:
    add_note(repo, "n-1", "meeting notes dan")
    add_note(repo, "n-2", "meeting notes ron")
    state = state_for(
        step("s1", "reminders", "delete", constraints={"target": "meeting"}),
        step("s2", "notes", "delete", constraints={"target": "meeting notes"}),
    )
    out = resolved(state, repo)
    assert out.disambiguation is not None and out.disambiguation.resolver_step_id == "s1"
    applied = apply_selection(out.state, ["r-meet-dan"])
    second = resolve_entities(applied, repo, NOW)
    assert second.disambiguation is not None and second.disambiguation.resolver_step_id == "s2"
    assert second.state.executor_args["s1"] == {"reminderIds": ["r-meet-dan"]}
