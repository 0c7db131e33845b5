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


def _skipped(label: str, when: str) -> DisambiguationCandidate:
    return DisambiguationCandidate(
        id=f"{label}#occurrence", label=label, description=when, data={templates.SKIPPED_ONCE: True}
    )


def test_a_skip_of_the_next_time_is_said_as_a_skip_never_a_delete() -> None:
    # Was "I'm about to delete 1 reminder: … — only the next time" / "אני עומד למחוק תזכורת אחת".
    one = [_skipped("take vitamins", "Tue 1 Dec, 09:00")]
    assert templates.approval_items_question("en", step(action="delete"), one, "needs_approval", TZ) == (
        "Before I go ahead: I'm about to skip “take vitamins” once — Tue 1 Dec, 09:00; it goes on after that.\n"
        "Approve, edit or reject?"
    )
    he = [_skipped("לקחת ויטמינים", "יום ג׳ 1.12 בשעה 09:00")]
    assert templates.approval_items_question("he", step(action="delete"), he, "needs_approval", TZ) == (
        "רגע לפני: אני עומד לדלג פעם אחת על „לקחת ויטמינים” — יום ג׳ 1.12 בשעה 09:00; אחרי זה היא ממשיכה כרגיל.\n"
        "לאשר, לערוך או לדחות?"
    )
    two = [_skipped("take vitamins", "Tue 1 Dec, 09:00"), _skipped("gym", "Wed 2 Dec, 18:00")]
    text = templates.approval_items_question("en", step(action="delete"), two, "needs_approval", TZ)
    assert text.startswith(
        "Before I go ahead: I'm about to skip 2 reminders once (each goes on after that):\n"
    )
    assert (
        "1. “take vitamins” — Tue 1 Dec, 09:00\n2. “gym” — Wed 2 Dec, 18:00" in text and "delete" not in text
    )


def test_a_skip_of_some_days_says_how_many_times() -> None:
    def skipping(label: str, when: str, times: str) -> DisambiguationCandidate:
        return _skipped(label, when).model_copy(
            update={"data": {templates.SKIPPED_ONCE: True, templates.SKIP_TIMES: times}}
        )

    for times, en, he in (
        ("1", "once", "פעם אחת"),
        ("2", "twice", "פעמיים"),
        ("366+", "366+ times", "366+ פעמים"),
    ):
        one = [skipping("gym", "Tue 1 Dec, 19:00 and Thu 3 Dec, 19:00", times)]
        assert templates.approval_items_question(
            "en", step(action="delete"), one, "needs_approval", TZ
        ).startswith(
            f"Before I go ahead: I'm about to skip “gym” {en} — Tue 1 Dec, 19:00 and Thu 3 Dec, 19:00; "
        )
        assert templates.approval_items_question(
            "he", step(action="delete"), one, "needs_approval", TZ
        ).startswith(f"רגע לפני: אני עומד לדלג {he} על „gym” — ")
    two = [
        skipping("gym", "Tue 1 Dec, 19:00 and Thu 3 Dec, 19:00", 2),
        skipping("pills", "Tue 1 Dec, 08:00", 1),
    ]
    text = templates.approval_items_question("en", step(action="delete"), two, "needs_approval", TZ)
    assert text.startswith(
        "Before I go ahead: I'm about to skip these times of 2 reminders (each goes on after that):"
    )
    assert "once" not in text


def test_a_skip_along_with_a_delete_is_no_skip_question() -> None:
    mixed = [_skipped("take vitamins", "Tue 1 Dec, 09:00"), *items("call mom")]
    text = templates.approval_items_question("en", step(action="delete"), mixed, "needs_approval", TZ)
    assert text.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "1. “take vitamins” — Tue 1 Dec, 09:00 — only the next time\n2. “call mom”" in text
