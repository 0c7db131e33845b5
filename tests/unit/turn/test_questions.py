"""The turn's questions: the WhatsApp form of one."""

from __future__ import annotations

from datetime import timedelta

from memo.domain import HITLReturnTo, PendingHITL, PendingHITLOption
from memo.hitl import templates
from memo.turn.questions import question_reply
from tests.unit.hitl.conftest import NOW


def pending(options: list[PendingHITLOption] | None) -> PendingHITL:
    return PendingHITL(
        hitl_id="h-1",
        kind="approval",
        source="tool_policy",
        reason="needs_approval",
        origin_step_id="s1",
        return_to=HITLReturnTo(node="resolver_router", mode="continue"),
        expected_input="yes_no",
        question="Delete it?",
        options=options,
        expires_at=NOW + timedelta(hours=1),
        created_at=NOW,
    )


def test_options_become_choices_named_by_the_question() -> None:
    reply = question_reply(pending(templates.approval_options("en")), "en")
    assert reply.text == "Delete it?"
    assert [c.id for c in reply.choices] == ["h-1:approve", "h-1:edit", "h-1:reject"]
    assert question_reply(pending(None), "en", "Other words?").text == "Other words?"
