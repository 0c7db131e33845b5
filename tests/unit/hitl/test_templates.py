"""User-facing texts: stale reply guard, expiry, step descriptions in both languages."""

from __future__ import annotations

from memo.domain import HITLReply
from memo.hitl import templates
from memo.hitl.resume import stale_reply_guard
from tests.unit.hitl.conftest import TZ, plan, step


def test_stale_reply_guard_answers_bare_answers_and_logs(logs) -> None:
    text = stale_reply_guard(HITLReply(text="yes"), thread_id="972501234567", language="en")
    assert text == "I'm not waiting on a question right now — what would you like to do?"
    he = stale_reply_guard(HITLReply(text="כן"), thread_id="972501234567", language="he")
    assert he == "אני לא מחכה לתשובה כרגע — במה אפשר לעזור?"
    assert stale_reply_guard(
        HITLReply(text="", interactive_id="old:approve"), thread_id="9725", language="en"
    )
    stale = logs.named("HITL_STALE_REPLY")
    assert [s["rawUserMessage"] for s in stale] == ["yes", "כן", "old:approve"]
    assert "1234567" not in stale[0]["threadId"]


def test_fresh_requests_pass_the_stale_guard() -> None:
    for text in ("remind me to call mom at 5", "מה התזכורות שלי", "hello"):
        assert stale_reply_guard(HITLReply(text=text), thread_id="9725", language="en") is None


def test_step_descriptions() -> None:
    create = step(constraints={"title": "call mom", "when": "2024-05-02T17:00:00+03:00"})
    assert templates.describe_step(create, "en", TZ) == "set a reminder “call mom” for Thu 2 May, 17:00"
    assert templates.describe_step(create, "he", TZ) == "לקבוע תזכורת „call mom” ליום ה׳ 2.5 בשעה 17:00"
    items = step(
        capability="lists",
        action="add",
        constraints={"listName": "shopping"},
        changes={"items": ["milk", "eggs"]},
    )
    assert templates.describe_step(items, "en", TZ) == "add milk, eggs to your shopping list"
    move = step(action="update", constraints={"target": "gym"}, changes={"when": "2024-05-03T08:00:00+03:00"})
    assert templates.describe_step(move, "en", TZ) == "update the reminder “gym”: move it to Fri 3 May, 08:00"


def test_would_do_is_truthful() -> None:
    output = plan(step(action="delete_all"))
    assert templates.would_do(output, "en", TZ) == (
        "I would delete all your reminders — but execution isn't connected yet, so nothing was changed."
    )
    assert "לא שיניתי כלום" in templates.would_do(output, "he", TZ)


def test_expiry_and_cancel_texts() -> None:
    assert templates.expired("en") == "That request expired — want to try again?"
    assert templates.cancelled("he") == "בסדר, ביטלתי. לא שיניתי כלום."
