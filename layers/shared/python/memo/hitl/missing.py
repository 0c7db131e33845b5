"""What a plan step already has of the fields a missing-fields question asks for, and which step the
question is about."""

from __future__ import annotations

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import PlannerOutput, PlanStep

#: The capability a missing field belongs to, by its first word; the others belong to any step.
_FIELD_OF = {"reminder": "reminders", "note": "notes", "list": "lists"}


def asked_step_id(output: PlannerOutput) -> str:
    """The step a missing-fields question is about: the first still missing a field of its kind
    ("add tape to the list and remind me to call dana": the reminder's time, not the list's)."""
    for step in output.plan:
        needed = {
            f
            for f in output.missing_fields
            if _FIELD_OF.get(f.split("_")[0], step.capability) == step.capability
        }
        if not needed <= satisfied_fields(step):
            return step.id
    return output.plan[0].id


def satisfied_fields(step: PlanStep) -> set[str]:
    """The missing fields `step` already has ("when" satisfies the time asked, items the items)."""
    satisfied: set[str] = set()
    bags = (step.constraints, step.changes)
    if any("when" in bag for bag in bags):
        satisfied |= {"reminder_time_required", "time_unclear"}
    if any(bag.get("title") for bag in bags):
        satisfied.add("reminder_title_required")
    if step.capability == "notes" and step.changes.get("text"):
        satisfied.add("note_text_required")
    if step.capability == "lists" and step.changes.get("items"):
        satisfied.add("list_items_required")
    if step.capability == "lists" and step.constraints.get("listName") not in (None, UNNAMED_LIST):
        satisfied.add("list_name_required")
    return satisfied
