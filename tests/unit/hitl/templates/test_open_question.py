"""What is said about the open question: the re-ask nudge, expiry, cancellation, stale replies."""

from __future__ import annotations

from datetime import timedelta

from memo.domain import HITLReply, HITLReturnTo, PendingHITL, PendingHITLOption
from memo.hitl import templates
from memo.hitl.resume import stale_reply_guard
from tests.unit.hitl.conftest import NOW


def pending(
    *, kind: str = "approval", expected: str = "yes_no", options: list[PendingHITLOption] | None = None
):
    return PendingHITL(
        hitl_id="h-1",
        kind=kind,
        source="tool_policy",
        reason="needs_approval",
        origin_step_id="s1",
        return_to=HITLReturnTo(node="resolver_router", mode="continue"),
        expected_input=expected,
        question="Delete it?",
        options=options,
        expires_at=NOW + timedelta(hours=1),
        created_at=NOW,
    )


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


def test_expiry_and_cancel_texts() -> None:
    assert templates.expired("en") == "That request expired — want to try again?"
    assert templates.cancelled("he") == "בסדר, ביטלתי. לא שיניתי כלום."


def test_the_nudge_says_which_answers_fit_then_asks_again() -> None:
    approval = pending(options=templates.approval_options("en"))
    assert templates.nudge(approval, "en") == (
        'Sorry, I didn\'t catch that — you can answer "approve", "edit" or "reject".\nDelete it?'
    )
    # One approval of several steps offers no Edit.
    plan_approval = pending(options=[o for o in templates.approval_options("en") if o.id != "edit"])
    assert templates.nudge(plan_approval, "he") == "לא הבנתי — אפשר לענות „אישור” או „דחייה”.\nDelete it?"
    choice = pending(kind="disambiguation", expected="single_choice", options=templates.yes_no_options("en"))
    assert templates.nudge(choice, "en").startswith(
        "Sorry, I didn't catch that — please reply with a number from 1 to 2."
    )


def test_expiry_offers_one_try_again_button() -> None:
    [retry] = templates.retry_options("he")
    assert (retry.id, retry.label) == (templates.RETRY_ID, "לנסות שוב")
    assert templates.existing_question("en", "Delete it?") == (
        "There's still an open question — let's finish it first:\nDelete it?"
    )
