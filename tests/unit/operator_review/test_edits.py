"""An operator's edit of a Memo step may only narrow it: drop some of the items it acts on, never add
one, never change or add or drop another argument, and what remains is valid for the action's args
model; anything else is a list of problems naming their paths (EDIT_REFUSED when recorded)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.operator_review.edits import ITEM_LISTS, check_edit

HASH = "a" * 64


def _payload(capability: str, action: str, **args: Any) -> dict[str, Any]:
    return {
        "capability": capability,
        "action": action,
        "summary": "Memo will do it once approved.",
        "argsHash": HASH,
        "traceId": "wamid.T1",
        "stepId": "s1",
        "rule": "lists.add",
        "args": args,
    }


ADD_EGGS = _payload("lists", "add", listName="shopping", items=["eggs"])
DELETE_THREE = _payload("reminders", "delete_all", reminderIds=["r1", "r2", "r3"])
REMOVE = _payload("lists", "remove", listName="shopping", itemIds=["i1", "i2"], notFound=["kiwi"])


def _edited(payload: dict[str, Any], **args: Any) -> dict[str, Any]:
    edited = copy.deepcopy(payload)
    edited["args"].update(args)
    return edited


def _paths(problems: list[dict[str, str]]) -> list[str]:
    return [p["path"] for p in problems]


def test_dropping_some_of_the_items_is_allowed() -> None:
    assert check_edit(DELETE_THREE, _edited(DELETE_THREE, reminderIds=["r2"])) == []
    assert check_edit(REMOVE, _edited(REMOVE, itemIds=["i1"], notFound=[])) == []


def test_forty_items_and_a_link_for_one_egg_are_refused() -> None:
    forty = [f"item {n}" for n in range(39)] + ["https://evil.example/login"]
    problems = check_edit(ADD_EGGS, _edited(ADD_EGGS, items=forty))
    assert _paths(problems) == ["$.payload.args.items"]
    assert "40 entries the step did not have" in problems[0]["message"]


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        ({"reminderIds": ["r1", "r9"]}, "$.payload.args.reminderIds"),  # another reminder
        ({"reminderIds": ["r1", "r1"]}, "$.payload.args.reminderIds"),  # one twice
        ({"reminderIds": []}, "$.payload.args.reminderIds"),  # nothing: reject instead
        ({"reminderIds": None}, "$.payload.args.reminderIds"),  # unpinned: every reminder
        ({"reminderIds": "r1"}, "$.payload.args.reminderIds"),
        ({"reminderIds": [1]}, "$.payload.args.reminderIds"),
        ({"priority": "high"}, "$.payload.args.priority"),  # an unknown argument
    ],
)
def test_an_edit_that_widens_or_changes_the_step_is_refused(edit: dict[str, Any], path: str) -> None:
    assert path in _paths(check_edit(DELETE_THREE, _edited(DELETE_THREE, **edit)))


def test_dropping_a_pinned_list_is_refused() -> None:
    edited = copy.deepcopy(DELETE_THREE)
    del edited["args"]["reminderIds"]  # what is left deletes every reminder
    assert _paths(check_edit(DELETE_THREE, edited)) == ["$.payload.args.reminderIds"]


def test_another_argument_may_not_change() -> None:
    assert _paths(check_edit(ADD_EGGS, _edited(ADD_EGGS, listName="groceries"))) == [
        "$.payload.args.listName"
    ]
    create = _payload("reminders", "create", title="call mom", when="2026-11-25T17:00:00+02:00")
    later = _edited(create, when="2026-11-25T18:00:00+02:00")
    assert _paths(check_edit(create, later)) == ["$.payload.args.when"]


@pytest.mark.parametrize(
    "field", ["capability", "action", "summary", "argsHash", "traceId", "stepId", "rule"]
)
def test_only_the_args_of_a_case_may_be_edited(field: str) -> None:
    edited = copy.deepcopy(DELETE_THREE)
    edited[field] = "changed"
    assert "$.payload." + field in _paths(check_edit(DELETE_THREE, edited))


def test_what_remains_must_be_valid_for_the_actions_args_model() -> None:
    # An update's reminders may be narrowed, but the update must still say what changes.
    update = _payload("reminders", "update", reminderIds=["r1", "r2"], title="")
    problems = check_edit(update, _edited(update, reminderIds=["r1"]))
    assert _paths(problems) == ["$.payload.args.title"]


def test_an_action_memo_does_not_have_is_refused() -> None:
    odd = _payload("calendar", "book", items=["x"])
    assert _paths(check_edit(odd, odd)) == ["$.payload.action"]


def test_args_that_are_not_an_object_are_refused() -> None:
    edited = copy.deepcopy(ADD_EGGS)
    edited["args"] = ["eggs"]
    assert _paths(check_edit(ADD_EGGS, edited)) == ["$.payload.args"]


_IDS = st.lists(st.sampled_from(["r1", "r2", "r3", "r4", "r5"]), min_size=1, max_size=5, unique=True)


@given(ids=_IDS, data=st.data())
def test_every_non_empty_part_of_the_pinned_items_is_allowed(ids: list[str], data: st.DataObject) -> None:
    original = _payload("reminders", "delete", reminderIds=ids)
    kept = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=len(ids), unique=True))
    assert check_edit(original, _edited(original, reminderIds=kept)) == []


@given(ids=_IDS, extra=st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=3), data=st.data())
def test_any_entry_the_step_did_not_have_is_refused(
    ids: list[str], extra: list[str], data: st.DataObject
) -> None:
    original = _payload("reminders", "delete", reminderIds=ids)
    edited_ids = data.draw(st.permutations(ids + extra))
    added = Counter(edited_ids) - Counter(ids)
    problems = check_edit(original, _edited(original, reminderIds=edited_ids))
    assert bool(problems) == bool(added)


def test_the_lists_that_may_be_narrowed_are_the_ones_naming_what_a_step_acts_on() -> None:
    assert set(ITEM_LISTS) == {"reminderIds", "noteIds", "itemIds", "items", "notFound"}


@pytest.mark.parametrize("mask", ["[redacted-phone]", "[redacted-email]", "[redacted]"])
def test_an_edit_of_a_payload_with_masks_is_refused(mask: str) -> None:
    """Stored with contacts masked (or redacted since), the payload an operator edits holds masks,
    not the user's words: any edit would run them, so only approving as submitted (which runs the
    waiting step's own args) or rejecting is left."""
    masked = _payload("lists", "add", listName="shopping", items=[f"call {mask}", "eggs"])
    problems = check_edit(masked, _edited(masked, items=[f"call {mask}"]))
    assert _paths(problems) == ["$.payload.args.items[0]"]
    assert "approve the step as submitted or reject it" in problems[0]["message"]
    unmasked = _payload("lists", "add", listName="shopping", items=["call mom", "eggs"])
    assert check_edit(unmasked, _edited(unmasked, items=["call mom"])) == []
