"""Executor args from resolved targets: the resolver's semantic args plus the entity ids found
(`executor_args_for`), and the ids pinned into a step on "everything" (`pinned_set`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memo.capabilities.dispatch import ARGS_MODELS
from memo.domain import PlanStep, TurnState
from memo.resolution import recurring
from memo.resolution.candidates import ItemsReader

#: Actions on "everything": the items there are at resolution are pinned into the args.
PINNED_ACTIONS = frozenset({"delete_all", "clear"})


def executor_args_for(step: PlanStep, semantic_args: dict[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """The executor args of a targeted step: the resolver's args plus the chosen entity ids."""
    unique = list(dict.fromkeys(ids))
    key = (step.capability, step.action)
    args: dict[str, Any]
    if key in (("reminders", "update"), ("reminders", "delete")):
        # "just this one" / "the whole series" of a repeating reminder travels in its id.
        semantic_args, unique = recurring.with_scope(semantic_args, unique)
        args = {**semantic_args, "reminderIds": unique}
    elif key in (("notes", "delete"), ("notes", "update")):
        args = {**semantic_args, "noteIds": unique}
    elif key == ("lists", "remove"):
        resolved = [str(i) for i in semantic_args.get("resolvedIds", [])]
        args = {
            "listName": semantic_args["listName"],
            "itemIds": list(dict.fromkeys([*resolved, *unique])),
            "notFound": list(semantic_args.get("notFound", [])),
        }
    else:
        raise ValueError(f"{step.capability}/{step.action} takes no entity ids")
    return ARGS_MODELS[key].model_validate(args).to_json()


def pinned_set(
    step: PlanStep, state: TurnState, repository: ItemsReader, now: datetime, args: dict[str, Any]
) -> dict[str, Any]:
    """ "Delete all" and "clear the list" mean the items there are now: their ids go into the
    executor args, so the approval's args hash covers exactly this set and the review policy counts
    what the step really touches."""
    if step.capability == "reminders":
        return {
            "reminderIds": [r.reminder_id for r in repository.list_upcoming_reminders(state.thread_id, now)]
        }
    if step.capability == "notes":
        return {"noteIds": [n.note_id for n in repository.list_notes(state.thread_id)]}
    if step.capability == "lists" and isinstance(args.get("listName"), str):
        return {"itemIds": [i.item_id for i in repository.list_items(state.thread_id, args["listName"])]}
    return {}
