"""Answers that carry a request, or more words of the one asked about: an answer that completes the
request is appended to it; one that corrects or takes away never is."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import LIST_NAME_REQUIRED, PendingHITL, TurnInput, TurnState
from memo.hitl.answer_requests import completed_request, of_several
from memo.hitl.complete_request import default_rules
from memo.planner.base import PlannerInput
from tests.unit.hitl.conftest import NOW, TZ, make_state, plan, step

RULES = default_rules()


def _asked(message: str, language: str) -> TurnState:
    output = RULES.plan(PlannerInput(message=message, now=NOW, timezone=TZ, language=language)).output
    if not output.missing_fields:
        # An add to "the list" when the person has none: the turn asks which list.
        output = output.model_copy(update={"missing_fields": [LIST_NAME_REQUIRED]})
    return TurnState(
        trace_id="wamid.T",
        thread_id="972501234567",
        input=TurnInput(message=message, language=language, timezone=TZ),
        planner_output=output,
    )


@pytest.mark.parametrize(
    ("message", "answer", "language"),
    [
        ("תוסיף לרשימה חלב ולחם", "בעצם בלי הלחם", "he"),
        ("תוסיף לרשימה חלב ולחם", "לא, רק חלב", "he"),
        ("add milk and bread to the list", "actually without the bread", "en"),
        ("add milk and bread to the list", "no wait, not the bread", "en"),
        ("add milk and bread to the list", "everything except bread", "en"),
        ("remind me tomorrow", "no", "en"),
    ],
)
def test_an_answer_that_corrects_or_takes_away_is_never_more_words_of_the_request(
    message: str, answer: str, language: str
) -> None:
    # "בעצם בלי הלחם" was appended: "לחם בעצם בלי הלחם" went on the list as an item.
    assert completed_request(_asked(message, language), answer, NOW, RULES) is None


def test_an_answer_that_completes_the_request_is_appended() -> None:
    state = _asked("remind me tomorrow", "en")
    assert completed_request(state, "to buy stamps", NOW, RULES) == "remind me tomorrow to buy stamps"


@pytest.mark.parametrize(
    ("message", "answer", "language"),
    [
        ("remind me to email the boss", "remind me to book a haircut on friday", "en"),
        ("remind me to email the boss", "remind me to call mom tomorrow", "en"),
        ("remind me to email the boss tomorrow", "remind me to pay rent", "en"),
        ("תזכיר לי לשלוח מייל לבוס", "תזכיר לי לקבוע תספורת ביום שישי", "he"),
    ],
)
def test_a_reminder_with_its_own_title_is_never_more_words_of_the_one_asked(
    message: str, answer: str, language: str
) -> None:
    # It was appended: “email the boss to book a haircut” was set for Friday, titled with both.
    assert completed_request(_asked(message, language), answer, NOW, RULES) is None


@pytest.mark.parametrize(
    ("message", "answer", "combined"),
    [
        ("remind me tomorrow", "remind me to buy stamps", "remind me tomorrow to buy stamps"),
        ("remind me to call dad", "remind me on friday", "remind me to call dad on friday"),
        ("remind me to call dad", "on friday", "remind me to call dad on friday"),
    ],
)
def test_an_answer_that_says_remind_me_and_only_the_missing_part_completes_it(
    message: str, answer: str, combined: str
) -> None:
    assert completed_request(_asked(message, "en"), answer, NOW, RULES) == combined


@pytest.mark.parametrize(
    "answer",
    [
        "at 5 and also remind me to water plants",
        "5pm buy the new charger for dad",
        "tomorrow at 9 call the plumber",
    ],
)
def test_a_time_beside_a_request_of_its_own_is_never_more_title(answer: str) -> None:
    # “buy milk buy the new charger for dad” was set for 17:00.
    assert completed_request(_asked("remind me to buy milk", "en"), answer, NOW, RULES) is None


@pytest.mark.parametrize("steps", [1, 2, 3])
@pytest.mark.parametrize("kind", ["clarification", "approval"])
def test_of_several_is_a_question_about_several_requests_that_is_no_approval(steps: int, kind: str) -> None:
    output = plan(*[step(step_id=f"s{i}") for i in range(1, steps + 1)])
    asked = PendingHITL(
        hitl_id="h-1",
        kind=kind,
        source="planner",
        reason="low_confidence_plan" if kind == "clarification" else "high_risk",
        origin_step_id="s1",
        return_to={"node": "resolver_router", "mode": "continue"},
        expected_input="yes_no",
        question="Just to check?",
        expires_at=NOW + timedelta(minutes=5),
        created_at=NOW,
    )
    assert of_several(make_state(output), asked) is (steps > 1 and kind == "clarification")
