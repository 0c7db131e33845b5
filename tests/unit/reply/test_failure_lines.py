"""The line of a failed step: it says only what is known, never that a step ran when it may not have."""

from __future__ import annotations

import pytest

from memo.reply.failure_lines import format_failure
from tests.unit.reply.factories import failed


def test_missing_result_never_claims_the_step_happened_or_did_not() -> None:
    result = failed("s1", "reminders", "delete", "IDEMPOTENCY_MISSING_RESULT").result
    en = format_failure(result, "en")
    assert en == (
        "I may already have tried to delete the reminder earlier, but I can't confirm whether it went "
        "through — please check before asking again."
    )
    for claim in ("Deleted", "deleted the", "didn't", "nothing was"):
        assert claim not in en
    assert "אין לי אישור אם זה הצליח" in format_failure(result, "he")


@pytest.mark.parametrize(
    ("code", "en", "he"),
    [
        (
            "APPROVAL_EXPIRED",
            "I didn't delete the reminder: your approval expired before I got to it. "
            "Ask again if you still want it.",
            "לא ביצעתי את הבקשה למחוק את התזכורת: האישור שלך פג לפני שהספקתי. אפשר לבקש שוב.",
        ),
        (
            "APPROVAL_ARGS_CHANGED",
            "I didn't delete the reminder: the details changed after you approved, "
            "so it needs your approval again.",
            "לא ביצעתי את הבקשה למחוק את התזכורת: הפרטים השתנו אחרי שאישרת, אז צריך לאשר שוב.",
        ),
        (
            "APPROVAL_MISSING",
            "I didn't delete the reminder: it needs your approval first.",
            "לא ביצעתי את הבקשה למחוק את התזכורת: זה צריך את האישור שלך קודם.",
        ),
    ],
)
def test_refused_approvals_say_the_step_was_not_done(code: str, en: str, he: str) -> None:
    result = failed("s1", "reminders", "delete", code).result
    assert format_failure(result, "en") == en
    assert format_failure(result, "he") == he


def test_calendar_is_refused_with_connect_your_account() -> None:
    result = failed("s1", "calendar", "create", "CAPABILITY_UNAVAILABLE").result
    assert format_failure(result, "en") == "I can't use your calendar yet — connect your account first."


def test_time_in_the_past_is_explained() -> None:
    result = failed("s1", "reminders", "create", "TIME_IN_PAST").result
    assert format_failure(result, "en") == "I couldn't set the reminder: that time has already passed."
    assert format_failure(result, "he") == "לא יכולתי לקבוע את התזכורת: הזמן הזה כבר עבר."


def test_an_operators_rejection_passes_their_reason_on() -> None:
    result = failed("s1", "notes", "delete", "REVIEW_REJECTED", error=" not today ").result
    assert format_failure(result, "en") == (
        "An operator didn't approve this, so I didn't delete the note. Their reason: not today"
    )


def test_a_delete_whose_items_changed_names_them() -> None:
    changed = {"changed": [{"title": "gym"}]}
    result = failed("s1", "reminders", "delete", "CHANGED_SINCE_APPROVAL", data=changed).result
    assert format_failure(result, "en") == (
        "I didn't delete “gym”: it was changed after you approved. Ask again if you still want it."
    )


@pytest.mark.parametrize("code", ["NOTE_TOO_LONG", "ITEM_TOO_LARGE"])
def test_a_refusal_worded_by_the_step_is_said_as_it_is(code: str) -> None:
    result = failed("s1", "notes", "save", code, error="That note is 4,001 characters long…").result
    assert format_failure(result, "en") == "That note is 4,001 characters long…"
