"""An answer to a delete's approval that names another item: "no, the milk one" is the delete of the
milk, planned as a request of its own (and approved as one); "no, I still need it" stays a rejection
with its reason; an answer to anything but a delete's approval is never read this way."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import HITLReturnTo, PendingHITL, PendingHITLContext, TurnState
from memo.hitl.complete_request import default_rules
from memo.hitl.retarget import meant_instead, retitled_reminder
from tests.unit.hitl.conftest import NOW, make_state, plan, step

RULES = default_rules()


def _asked(action: str = "delete", capability: str = "reminders", kind: str = "approval") -> TurnState:
    pending = PendingHITL(
        hitl_id="h-1",
        kind=kind,  # type: ignore[arg-type]
        source="planner",
        reason="high_risk",
        origin_step_id="s1",
        return_to=HITLReturnTo(node="resolver_router", mode="continue"),
        expected_input="yes_no",
        question="Before I go ahead: delete “call mom”?",
        expires_at=NOW + timedelta(minutes=5),
        created_at=NOW,
    )
    said = make_state(plan(step(capability, action, constraints={"target": "mom"})), message="delete mom")
    return said.model_copy(update={"pending_hitl": pending})


def _meant(answer: str, state: TurnState | None = None) -> str | None:
    asked = state or _asked()
    assert asked.pending_hitl is not None
    return meant_instead(answer, asked, asked.pending_hitl, NOW, RULES)


@pytest.mark.parametrize(
    ("answer", "planned"),
    [
        ("no, the milk one instead", "delete the milk reminder"),
        ("no, the milk one", "delete the milk reminder"),
        ("No wait, I meant milk", "delete the milk reminder"),
        ("no, actually I meant the milk", "delete the milk reminder"),
        ("nope, milk instead", "delete the milk reminder"),
        ("not that one, the dentist one", "delete the dentist reminder"),
        ("no, actually delete the milk", "delete the milk"),
        ("no. delete buy milk!", "delete buy milk"),
        ("לא, דווקא את החלב", "תמחק את התזכורת חלב"),
        ("לא, התכוונתי לחלב", "תמחק את התזכורת חלב"),
        ("לא, את החלב במקום", "תמחק את התזכורת חלב"),
        ("לא, תמחק את החלב", "תמחק את החלב"),
    ],
)
def test_another_item_named_is_that_items_delete(answer: str, planned: str) -> None:
    assert _meant(answer) == planned


def test_a_note_is_named_as_a_note() -> None:
    assert _meant("no, the wifi one", _asked(capability="notes")) == "delete the wifi note"


@pytest.mark.parametrize(
    "answer",
    [
        "no",
        "no, I still need it",
        "no because I still need it",
        "no thanks",
        "yes",
        "the milk one",  # no correction word: not a "no"
        "לא, אני עדיין צריך אותה",
        "no, I need that one",
        "no, keep this one",
        "לא, אני צריך אותה במקום",
        "no, a very long name that nobody would say for one reminder instead",
    ],
)
def test_a_no_that_names_nothing_else_is_not_read_so(answer: str) -> None:
    assert _meant(answer) is None


@pytest.mark.parametrize(
    ("action", "capability"), [("create", "reminders"), ("add", "lists"), ("update", "reminders")]
)
def test_only_a_deletes_approval_is_read_so(action: str, capability: str) -> None:
    assert _meant("no, the milk one instead", _asked(action=action, capability=capability)) is None
    assert _meant("no, the milk one instead", _asked(kind="clarification")) is None


def _time_asked(
    constraints: dict[str, object] | None = None, missing: str = "reminder_time_required"
) -> TurnState:
    pending = PendingHITL(
        hitl_id="h-2",
        kind="clarification",
        source="planner",
        reason="missing_fields",
        origin_step_id="s1",
        return_to=HITLReturnTo(node="planner", mode="continue"),
        expected_input="free_text",
        question="When should I remind you?",
        context=PendingHITLContext(missing_fields=[missing]),
        expires_at=NOW + timedelta(minutes=5),
        created_at=NOW,
    )
    said = make_state(
        plan(step("reminders", "create", constraints=constraints or {"title": "call mom"})),
        message="remind me",
    )
    return said.model_copy(update={"pending_hitl": pending})


@pytest.mark.parametrize(
    ("answer", "request_"),
    [
        ("actually call dad", "remind me to call dad"),
        ("no, call dad instead", "remind me to call dad"),
        ("sorry, I meant call dad", "remind me to call dad"),
        ("בעצם להתקשר לאבא", "תזכיר לי להתקשר לאבא"),
    ],
)
def test_another_reminder_meant_while_its_time_is_asked_is_that_request(answer: str, request_: str) -> None:
    asked = _time_asked()
    assert asked.pending_hitl is not None
    assert retitled_reminder(answer, asked, asked.pending_hitl, NOW, RULES) == request_


def test_its_day_goes_with_it() -> None:
    asked = _time_asked({"title": "pay rent", "day": "2026-03-03"})
    assert asked.pending_hitl is not None
    found = retitled_reminder("actually pay the bill", asked, asked.pending_hitl, NOW, RULES)
    assert found == "remind me to pay the bill on 3 March"


@pytest.mark.parametrize(
    "answer", ["actually tomorrow at 5", "no, 6pm", "no, never mind", "call dad", "no, delete it"]
)
def test_a_time_a_way_out_or_words_without_a_correction_are_not_another_reminder(answer: str) -> None:
    asked = _time_asked()
    assert asked.pending_hitl is not None
    assert retitled_reminder(answer, asked, asked.pending_hitl, NOW, RULES) is None


def test_only_a_reminder_s_time_question_is_read_this_way() -> None:
    asked = _time_asked(missing="reminder_title_required")
    assert asked.pending_hitl is not None
    assert retitled_reminder("actually call dad", asked, asked.pending_hitl, NOW, RULES) is None
    approval = _asked()
    assert approval.pending_hitl is not None
    assert retitled_reminder("actually call dad", approval, approval.pending_hitl, NOW, RULES) is None
