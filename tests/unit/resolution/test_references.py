"""Entity resolution of "it/that": bound first to the items of the message of Memo's the user's reply
quotes, then to the latest action."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memo.domain import LatestAction
from memo.resolution.entity import EntityResolution, resolve_entities
from memo.resolution.router import resolve_all
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_note, add_reminder, state_for, step


@pytest.fixture
def repo() -> FakeItemsRepository:
    repo = FakeItemsRepository()
    add_reminder(repo, "r-mom", "Call mom", hours=3)
    add_reminder(repo, "r-dad", "Call dad", hours=4)
    add_reminder(repo, "r-bank", "Call the bank", hours=5)
    add_note(repo, "n-gate", "gate code 1234")
    return repo


def _action(capability: str, **ids: str | list[str]) -> LatestAction:
    return LatestAction(created_at=NOW, capability=capability, action="create", summary="s", external_ids=ids)


def _resolved(
    action: str,
    repo: FakeItemsRepository,
    *,
    quoted: Sequence[LatestAction] = (),
    latest: Sequence[LatestAction] = (),
    plural: bool = False,
    capability: str = "reminders",
) -> EntityResolution:
    constraints: dict[str, object] = {"targetRef": "latest_action"}
    if plural:
        constraints["plural"] = True
    changes = {"when": "2026-03-10T20:00:00+02:00"} if action == "update" else {}
    state = state_for(step("s1", capability, action, constraints=constraints, changes=changes))
    return resolve_entities(resolve_all(state), repo, NOW, latest_actions=latest, quoted=quoted)


LATEST_IS_DAD = [_action("reminders", reminderId="r-dad")]


def test_the_quoted_message_wins_over_the_latest_action(repo: FakeItemsRepository) -> None:
    out = _resolved("update", repo, quoted=[_action("reminders", reminderId="r-mom")], latest=LATEST_IS_DAD)
    assert out.state.executor_args["s1"]["reminderIds"] == ["r-mom"]


def test_without_a_quote_it_is_the_latest_action(repo: FakeItemsRepository) -> None:
    out = _resolved("update", repo, latest=LATEST_IS_DAD)
    assert out.state.executor_args["s1"]["reminderIds"] == ["r-dad"]


@pytest.mark.parametrize("action", ["update", "delete"])
def test_a_quoted_message_naming_several_asks_which_one(repo: FakeItemsRepository, action: str) -> None:
    listing = _action("reminders", reminderIds=["r-mom", "r-dad", "r-bank"])
    out = _resolved(action, repo, quoted=[listing], latest=LATEST_IS_DAD)
    d = out.disambiguation
    assert out.needs_hitl and d is not None and d.disambiguation_kind == "pick_one"
    assert [c.id for c in d.candidates] == ["r-mom", "r-dad", "r-bank"]


def test_plural_words_on_a_quoted_listing_take_them_all(repo: FakeItemsRepository) -> None:
    listing = _action("reminders", reminderIds=["r-mom", "r-dad"])
    out = _resolved("delete", repo, quoted=[listing], plural=True)
    assert out.state.executor_args["s1"]["reminderIds"] == ["r-mom", "r-dad"]


def test_a_quoted_item_that_is_gone_is_not_found_never_another_one(repo: FakeItemsRepository) -> None:
    out = _resolved(
        "update", repo, quoted=[_action("reminders", reminderId="r-deleted")], latest=LATEST_IS_DAD
    )
    assert out.not_found == ("s1",)
    assert out.state.execution_results["s1"]["error"] == "I couldn't find that one anymore."


def test_a_quoted_message_about_another_kind_falls_back_to_the_latest_action(
    repo: FakeItemsRepository,
) -> None:
    out = _resolved("update", repo, quoted=[_action("notes", noteId="n-gate")], latest=LATEST_IS_DAD)
    assert out.state.executor_args["s1"]["reminderIds"] == ["r-dad"]


def _made_by(request: str, capability: str = "reminders", **ids: str | list[str]) -> LatestAction:
    return _action(capability, **ids).model_copy(update={"operation_id": f"{request}:s1"})


@pytest.mark.parametrize("count", [2, 3])
def test_both_are_the_latest_two_even_when_two_requests_made_them(
    repo: FakeItemsRepository, count: int
) -> None:
    latest = [
        _made_by("wamid.3", reminderId="r-bank"),
        _made_by("wamid.2", reminderId="r-dad"),
        _made_by("wamid.1", reminderId="r-mom"),
    ]
    state = state_for(
        step(
            "s1",
            "reminders",
            "delete",
            constraints={"targetRef": "latest_action", "plural": True, "refCount": count},
        )
    )
    out = resolve_entities(resolve_all(state), repo, NOW, latest_actions=latest)
    assert sorted(out.state.executor_args["s1"]["reminderIds"]) == sorted(
        ["r-bank", "r-dad", "r-mom"][:count]
    )
    # "them" is what one request made: the latest.
    them = state_for(
        step("s1", "reminders", "delete", constraints={"targetRef": "latest_action", "plural": True})
    )
    out = resolve_entities(resolve_all(them), repo, NOW, latest_actions=latest)
    assert out.state.executor_args["s1"]["reminderIds"] == ["r-bank"]


def test_it_right_after_its_delete_is_already_deleted_and_undo_is_said(repo: FakeItemsRepository) -> None:
    deleted = LatestAction(
        created_at=NOW,
        capability="reminders",
        action="delete",
        summary="s",
        external_ids={"reminderId": "r-gone"},
    )
    out = _resolved("delete", repo, latest=[deleted])
    assert (
        out.state.execution_results["s1"]["error"] == "That's already deleted. To bring it back, say “undo”."
    )
    made = [_action("reminders", reminderId="r-gone")]  # made, then gone some other way: as before
    out = _resolved("delete", repo, latest=made)
    assert out.state.execution_results["s1"]["error"] == "I couldn't find that one anymore."
