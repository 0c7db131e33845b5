"""The approval question: Approve / Edit / Reject, and the items a step touches, numbered."""

from __future__ import annotations

from memo.domain import DisambiguationCandidate
from memo.hitl import templates
from tests.unit.hitl.conftest import TZ, step


def items(*labels: str) -> list[DisambiguationCandidate]:
    return [DisambiguationCandidate(id=f"r{n}", label=label) for n, label in enumerate(labels, start=1)]


def test_approve_edit_reject_in_that_order() -> None:
    assert [(o.id, o.label) for o in templates.approval_options("he")] == [
        ("approve", "אישור"),
        ("edit", "עריכה"),
        ("reject", "דחייה"),
    ]


def test_a_review_the_policy_asks_for_opens_differently() -> None:
    own = templates.approval_question("en", "delete all your notes", "needs_approval")
    assert own == "Before I go ahead: I'm about to delete all your notes. Approve, edit or reject?"
    review = templates.approval_question("en", "delete all your notes", "tool_requires_review")
    assert review.startswith("This needs a check: ")


def test_the_items_are_listed_and_some_may_be_kept() -> None:
    text = templates.approval_items_question(
        "en", step(action="delete_all"), items("call mom", "gym"), "needs_approval", TZ
    )
    assert text == (
        "Before I go ahead: I'm about to delete all your reminders (2):\n"
        "1. “call mom”\n2. “gym”\n"
        'Approve, edit or reject? You can also keep only some, e.g. "only 1 and 3" or "not 2".'
    )


def test_with_the_rest_of_the_plan_nothing_is_kept_apart() -> None:
    text = templates.approval_items_question(
        "en", step(action="delete"), items("a", "b"), "needs_approval", TZ, along=["save a note"]
    )
    assert text.endswith("Along with it: save a note.\nApprove, edit or reject?")


def test_more_items_than_shown_are_counted() -> None:
    listing = templates.item_lines(items(*(f"item {n}" for n in range(12))), "he")
    assert listing.splitlines()[-1] == "…ועוד 2"
    assert templates.count_items("notes", 1, "he") == "פתק אחד"


def test_several_steps_are_numbered_across() -> None:
    parts = [(step(action="delete"), items("dentist")), (step(action="delete", step_id="s2"), items("mom"))]
    text = templates.approval_steps_question("en", parts, "needs_approval", TZ)
    assert text == (
        "Before I go ahead: I'm about to:\ndelete 1 reminder:\n1. “dentist”\ndelete 1 reminder:\n2. “mom”\n"
        'Approve all of it, reject, or keep only some (e.g. "only 1" or "not 2")?'
    )
