"""Plan edits: an answer written into the frozen plan, each function on its own."""

from __future__ import annotations

import pytest

from memo.domain import PendingHITL, PlannerOutput, TurnState
from memo.hitl import gate
from memo.hitl.plan_edits import (
    apply_modifications,
    bare_edit,
    fill_answer,
    origin_step,
    outside_the_month_asked,
    says_more,
    timeless_edit,
)
from tests.unit.hitl.conftest import NOW, make_state, plan, step


def asked(output: PlannerOutput, language: str = "en") -> tuple[TurnState, PendingHITL]:
    state = gate.check_planner(make_state(output, language=language), now=NOW, hitl_id="q-1").state
    assert state.pending_hitl is not None
    return state, state.pending_hitl


def test_origin_step_is_the_step_the_question_is_about() -> None:
    state, pending = asked(plan(step(step_id="s1"), step(step_id="s2"), missing=["reminder_time_required"]))
    found = origin_step(state, pending)
    assert found is not None and found.id == pending.origin_step_id
    assert origin_step(state.model_copy(update={"planner_output": None}), pending) is None


def test_a_time_answer_on_an_update_step_goes_to_its_changes() -> None:
    output = plan(
        step(action="update", constraints={"target": "call mom"}, changes={"day": "2024-05-02"}),
        missing=["time_unclear"],
    )
    state, pending = asked(output)
    filled = fill_answer(state, pending, "6pm", NOW)
    assert filled is not None and filled.planner_output is not None
    (updated,) = filled.planner_output.plan
    assert updated.changes == {"when": "2024-05-02T18:00:00+03:00"}
    assert updated.constraints == {"target": "call mom"}
    assert filled.planner_output.missing_fields == []


def test_a_time_already_past_does_not_fill_the_step() -> None:
    state, pending = asked(
        plan(step(constraints={"title": "x", "day": "2024-05-01"}), missing=["time_unclear"])
    )
    assert fill_answer(state, pending, "at 9:00", NOW) is None  # 9:00 today is before NOW (10:00)


def test_one_time_answer_sets_each_day_of_one_reminder_said_for_several_days() -> None:
    """ "remind me on friday and sunday to call mom" -> "What time ...?" -> "6pm": each day at 18:00;
    a step of another title is not the question's and keeps what it had."""
    output = plan(
        step(step_id="s1", constraints={"title": "call mom", "day": "2024-05-03"}),
        step(step_id="s2", constraints={"title": "call mom", "day": "2024-05-05"}),
        step(step_id="s3", constraints={"title": "call dad", "day": "2024-05-06"}),
        missing=["reminder_time_required"],
    )
    state, pending = asked(output)
    filled = fill_answer(state, pending, "6pm", NOW)
    assert filled is not None and filled.planner_output is not None
    assert [dict(s.constraints) for s in filled.planner_output.plan] == [
        {"title": "call mom", "when": "2024-05-03T18:00:00+03:00"},
        {"title": "call mom", "when": "2024-05-05T18:00:00+03:00"},
        {"title": "call dad", "day": "2024-05-06"},
    ]


def test_an_answer_one_of_the_days_cannot_take_fills_none_of_them() -> None:
    output = plan(
        step(step_id="s1", constraints={"title": "call mom", "day": "2024-05-03"}),
        step(step_id="s2", constraints={"title": "call mom", "day": "2024-05-01"}),  # today, 10:00
        missing=["reminder_time_required"],
    )
    state, pending = asked(output)
    assert fill_answer(state, pending, "at 9:00", NOW) is None  # 9:00 today is past


def test_a_title_answer_fills_the_title() -> None:
    output = plan(
        step(constraints={"when": "2024-05-02T09:00:00+03:00"}), missing=["reminder_title_required"]
    )
    state, pending = asked(output)
    filled = fill_answer(state, pending, "  water the plants ", NOW)
    assert filled is not None and filled.planner_output is not None
    assert filled.planner_output.plan[0].constraints["title"] == "water the plants"


def test_a_target_answer_replaces_the_target_and_its_ref() -> None:
    output = plan(
        step(action="delete", constraints={"target": "it", "targetRef": "last"}), missing=["target_unclear"]
    )
    state, pending = asked(output)
    filled = fill_answer(state, pending, "the gym one", NOW)
    assert filled is not None and filled.planner_output is not None
    assert filled.planner_output.plan[0].constraints == {"target": "the gym one"}


def test_only_missing_fields_questions_fill_anything() -> None:
    state, pending = asked(plan(step(action="delete_all"), risk="high", approval=True))
    assert pending.reason == "high_risk"
    assert fill_answer(state, pending, "6pm", NOW) is state
    assert fill_answer(state, pending, None, NOW) is state


@pytest.mark.parametrize(
    ("language", "raw", "expected"),
    [("en", "6pm", "2024-05-01T18:00:00+03:00"), ("he", "מחר ב-9", "2024-05-02T09:00:00+03:00")],
)
def test_a_bare_time_is_an_edit_of_when(language: str, raw: str, expected: str) -> None:
    state = make_state(plan(step(constraints={"title": "x"})), language=language)
    assert bare_edit(raw, state.planner_output.plan[0], state, NOW) == {"when": expected}


def test_words_that_are_no_time_are_no_bare_edit() -> None:
    state = make_state(plan(step(constraints={"title": "x"})))
    assert bare_edit("make it nicer", state.planner_output.plan[0], state, NOW) is None


def test_apply_modifications_merges_and_clears_only_that_steps_caches() -> None:
    output = plan(
        step(step_id="s0", constraints={"title": "a", "when": "2024-05-02T09:00:00+03:00"}),
        step(step_id="s1", constraints={}),
        missing=["reminder_title_required", "reminder_time_required", "target_unclear"],
    )
    state = make_state(output)
    state = state.with_resolver_result("s0", {"r": 0}).with_resolver_result("s1", {"r": 1})
    state = state.with_executor_args("s0", {"id": "0"}).with_executor_args("s1", {"id": "1"})
    s1 = output.plan[1]
    edited = apply_modifications(state, s1, {"title": "b", "when": "2024-05-02T18:00:00+03:00"})
    assert edited.planner_output is not None
    assert edited.planner_output.plan[1].constraints == {"title": "b", "when": "2024-05-02T18:00:00+03:00"}
    assert edited.planner_output.plan[0] == output.plan[0]
    assert edited.planner_output.missing_fields == ["target_unclear"]
    assert set(edited.resolver_results) == {"s0"} and set(edited.executor_args) == {"s0"}


@pytest.mark.parametrize(
    ("answer", "when"),
    [
        ("the 5th", "2025-03-05T09:00:00+02:00"),
        ("5", "2025-03-05T09:00:00+02:00"),
        ("march 12 at 8am", "2025-03-12T08:00:00+02:00"),
        ("april 5", None),  # another month: asked again
        ("at 10", None),  # no day
    ],
)
def test_the_day_of_the_month_asked_completes_the_yearly_reminder(answer: str, when: str | None) -> None:
    output = plan(
        step(
            constraints={"title": "renew", "recurrence": "FREQ=YEARLY", "saidMonth": 3, "saidTime": "09:00"}
        ),
        missing=["month_day_required", "reminder_time_required"],
    )
    state, pending = asked(output)
    filled = fill_answer(state, pending, answer, NOW)
    if when is None:
        assert filled is None
        return
    assert filled is not None and filled.planner_output is not None
    assert dict(filled.planner_output.plan[0].constraints) == {
        "title": "renew",
        "recurrence": "FREQ=YEARLY",
        "when": when,
    }


def test_an_edit_to_another_month_is_no_answer_to_the_day_of_the_month_asked() -> None:
    asked_march = step(constraints={"title": "renew", "recurrence": "FREQ=YEARLY", "saidMonth": 3})
    assert outside_the_month_asked(asked_march, {"day": "2025-04-05"}, "Asia/Jerusalem")
    assert not outside_the_month_asked(asked_march, {"day": "2025-03-05"}, "Asia/Jerusalem")
    assert not outside_the_month_asked(step(), {"day": "2025-04-05"}, "Asia/Jerusalem")


@pytest.mark.parametrize(
    ("answer", "minutes"),
    [
        ("later", 60),
        ("Later please", 60),
        ("an hour later", 60),
        ("earlier", -60),
        ("2 hours later", 120),
        ("30 minutes earlier", -30),
        ("מאוחר יותר", 60),
        ("להקדים", -60),
        ("תדחה", 60),
    ],
)
def test_which_way_answered_signs_the_shift(answer: str, minutes: int) -> None:
    output = plan(
        step(action="update", constraints={"target": "call mom"}, changes={"shiftBy": 60}),
        missing=["shift_direction_required"],
    )
    state, pending = asked(output)
    filled = fill_answer(state, pending, answer, NOW)
    assert filled is not None and filled.planner_output is not None
    (updated,) = filled.planner_output.plan
    assert updated.changes == {"shiftMinutes": minutes}


@pytest.mark.parametrize("answer", ["hmm", "earlier or later", "forward", "at 6pm", "לא יודע"])
def test_an_answer_that_says_no_one_way_fills_nothing(answer: str) -> None:
    output = plan(
        step(action="update", constraints={"target": "call mom"}, changes={"shiftBy": 60}),
        missing=["shift_direction_required"],
    )
    state, pending = asked(output)
    assert fill_answer(state, pending, answer, NOW) is None


@pytest.mark.parametrize("capability", ["lists", "notes"])
def test_a_time_in_an_edit_of_a_list_or_a_note_is_timeless(capability: str) -> None:
    found = step(capability=capability, action="add")
    assert timeless_edit(found, {"when": "2024-05-02T12:00:00+03:00", "items": ["eggs"]}) == ["when"]
    assert timeless_edit(found, {"items": ["12 eggs"]}) == []
    assert timeless_edit(step(), {"when": "2024-05-02T12:00:00+03:00"}) == []  # a reminder has a time


@pytest.mark.parametrize(
    "answer", ["not later", "no, not earlier", "don't make it later", "לא מאוחר יותר", "לא להקדים"]
)
def test_a_way_said_with_a_not_is_asked_again(answer: str) -> None:
    # "not later" read "later" and moved it later.
    output = plan(
        step(action="update", constraints={"target": "call mom"}, changes={"shiftBy": 60}),
        missing=["shift_direction_required"],
    )
    state, pending = asked(output)
    assert fill_answer(state, pending, answer, NOW) is None


@pytest.mark.parametrize(
    "remainder",
    ["is fine", "ok lets say please", "no wait", "sorry i meant", "רגע לא", "אז בבקשה", "then", ""],
)
def test_an_answer_s_own_words_say_nothing_more(remainder: str) -> None:
    assert not says_more(remainder)


@pytest.mark.parametrize(
    "remainder",
    [
        "and also remind me to water plants",
        "buy the new charger for dad",
        "תזקיר לי לצלצל לסבתא",
        "call the plumber",
    ],
)
def test_words_of_a_request_say_more_than_an_answer(remainder: str) -> None:
    assert says_more(remainder)
