"""Applying the answer to an entity disambiguation: the frozen candidates, never a new query."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest

from memo.domain import HITLReply, LatestAction, TurnState
from memo.hitl import gate
from memo.hitl.resume import resume
from memo.resolution.entity import EntityResolution, resolve_entities
from memo.resolution.router import resolve_all
from memo.resolution.selection import SelectionError, apply_selection, selected_ids_from_results
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_reminder, state_for, step


@pytest.fixture
def repo() -> FakeItemsRepository:
    repo = FakeItemsRepository()
    add_reminder(repo, "r-mom", "Call mom", hours=3)
    add_reminder(repo, "r-meet-dan", "Meeting with Dan", hours=5)
    add_reminder(repo, "r-meet-ron", "Meeting with Ron", hours=6)
    add_reminder(repo, "r-meet-tal", "Meeting with Tal", hours=7)
    return repo


def resolved(
    state: TurnState, repo: FakeItemsRepository, latest_actions: Sequence[LatestAction] = ()
) -> EntityResolution:
    return resolve_entities(resolve_all(state), repo, NOW, latest_actions=latest_actions)


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
