"""Entity resolution: semantic resolver args to id-resolved executor args, the ids pinned by "delete
all" / "clear the list", and the answer to a disambiguation applied from its frozen candidates."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest

from memo.domain import HITLReply, LatestAction, TurnState
from memo.hitl import gate
from memo.hitl.resume import resume
from memo.resolution.entity import (
    EntityResolution,
    SelectionError,
    apply_selection,
    executor_args_for,
    pinned_set,
    resolve_entities,
    selected_ids_from_results,
)
from memo.resolution.router import resolve_all
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


# Executor args from resolved targets: the entity ids with the semantic args, and the set pinned by
# "delete all" / "clear the list".


@pytest.fixture
def empty() -> FakeItemsRepository:
    return FakeItemsRepository()


def test_clear_pins_the_items_of_the_list(empty: FakeItemsRepository) -> None:
    add_list_item(empty, "i-milk", "shopping", "milk")
    add_list_item(empty, "i-eggs", "Shopping", "eggs")
    add_list_item(empty, "i-nails", "hardware", "nails")
    state = state_for(step("s1", "lists", "clear", constraints={"listName": "shopping"}))
    out = resolve_entities(resolve_all(state), empty, NOW)
    args = out.state.executor_args["s1"]
    assert args["listName"] == "shopping" and sorted(args["itemIds"]) == ["i-eggs", "i-milk"]


def test_delete_all_pins_the_upcoming_reminders_and_every_note(empty: FakeItemsRepository) -> None:
    add_reminder(empty, "r-1", "a")
    add_note(empty, "n-1", "b")
    state = state_for()
    assert pinned_set(step("s1", "reminders", "delete_all"), state, empty, NOW, {}) == {
        "reminderIds": ["r-1"]
    }
    assert pinned_set(step("s1", "notes", "delete_all"), state, empty, NOW, {}) == {"noteIds": ["n-1"]}
    assert pinned_set(step("s1", "lists", "clear"), state, empty, NOW, {}) == {}  # no list named


def test_ids_are_written_once_each_under_the_key_of_the_action() -> None:
    args = executor_args_for(step("s1", "notes", "delete"), {}, ["n-1", "n-2", "n-1"])
    assert args == {"noteIds": ["n-1", "n-2"]}
    removal = executor_args_for(
        step("s1", "lists", "remove"),
        {"listName": "shopping", "resolvedIds": ["i-1"], "notFound": ["wine"]},
        ["i-2", "i-1"],
    )
    assert removal == {"listName": "shopping", "itemIds": ["i-1", "i-2"], "notFound": ["wine"]}


def test_an_action_without_a_target_takes_no_ids() -> None:
    with pytest.raises(ValueError, match="takes no entity ids"):
        executor_args_for(step("s1", "reminders", "create"), {}, ["r-1"])


# Applying the answer to an entity disambiguation: the frozen candidates, never a new query.


def pending_state(repo: FakeItemsRepository, target: str) -> TurnState:
    out = resolved(state_for(step("s1", "reminders", "delete", constraints={"target": target})), repo)
    checked = gate.check_disambiguation(out.state, now=NOW, ttl_seconds=300)
    assert checked.created and checked.pending is not None
    return checked.state


def test_apply_selection_with_one_id_from_the_resume(repo: FakeItemsRepository) -> None:
    state = pending_state(repo, "meeting")
    pending = state.pending_hitl
    assert pending is not None
    outcome = resume(state, HITLReply(text="2"), now=NOW + timedelta(seconds=30))
    assert outcome.goto == "entity_resolution" and outcome.selected_ids == ("r-meet-ron",)
    # Candidates come from the frozen pending item: the repository changing does not matter.
    repo.reminders.clear()
    applied = apply_selection(outcome.state, outcome.selected_ids, pending=pending)
    assert applied.executor_args["s1"] == {"reminderIds": ["r-meet-ron"]}
    assert applied.disambiguation is None
    assert not gate.check_disambiguation(applied, now=NOW).must_pause


def test_apply_selection_with_two_ids_read_from_hitl_results(repo: FakeItemsRepository) -> None:
    state = pending_state(repo, "both meeting reminders")
    outcome = resume(state, HITLReply(text="1, 3"), now=NOW + timedelta(seconds=30))
    assert outcome.selected_ids == ("r-meet-dan", "r-meet-tal")
    applied = apply_selection(outcome.state)  # ids from hitlResults, candidates from state
    assert applied.executor_args["s1"] == {"reminderIds": ["r-meet-dan", "r-meet-tal"]}


def test_apply_selection_refuses_ids_not_offered_or_too_many(repo: FakeItemsRepository) -> None:
    state = pending_state(repo, "meeting")
    with pytest.raises(SelectionError):
        apply_selection(state, ["r-mom"])
    with pytest.raises(SelectionError):
        apply_selection(state, ["r-meet-dan", "r-meet-ron"])


def test_without_an_open_question_there_is_nothing_to_apply(repo: FakeItemsRepository) -> None:
    state = resolved(
        state_for(step("s1", "reminders", "delete", constraints={"target": "call mom"})), repo
    ).state
    with pytest.raises(SelectionError):
        apply_selection(state, ["r-mom"])


def test_no_answer_stored_means_no_ids(repo: FakeItemsRepository) -> None:
    assert selected_ids_from_results(pending_state(repo, "meeting")) == []


def test_the_chosen_ids_keep_the_order_they_were_shown_in(repo: FakeItemsRepository) -> None:
    state = pending_state(repo, "both meeting reminders")
    applied = apply_selection(state, ["r-meet-tal", "r-meet-dan", "r-meet-tal"])
    assert applied.executor_args["s1"] == {"reminderIds": ["r-meet-dan", "r-meet-tal"]}
