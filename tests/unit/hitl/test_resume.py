"""Resume layer 3: each decision's state update, goto, user text and log events."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from memo.domain import (
    Disambiguation,
    DisambiguationCandidate,
    HITLReply,
    InterpreterOutput,
    InterpreterParsed,
    RoutingSuggestion,
    TurnState,
)
from memo.hitl import gate
from memo.hitl.fastpath import interactive_reply_id
from memo.hitl.interpreter import Interpreter, InterpreterInput
from memo.hitl.plan_edits import merge_modifications
from memo.hitl.resume import ResumeOutcome, resume
from memo.planner.base import PlannerInput
from memo.planner.rules import RulePlanner
from tests.unit.hitl.conftest import NOW, make_state, plan, step

LATER = NOW + timedelta(seconds=30)


@dataclass
class SpyInterpreter:
    answer: InterpreterOutput | None = None
    calls: list[InterpreterInput] = field(default_factory=list)

    def interpret(self, inp: InterpreterInput) -> InterpreterOutput:
        self.calls.append(inp)
        if self.answer is None:
            raise AssertionError("the interpreter must not be called here")
        return self.answer


def approval_state(language: str = "en") -> TurnState:
    output = plan(
        step(action="create", step_id="s0", constraints={"title": "x", "when": "2024-05-02T09:00:00+03:00"}),
        step(
            action="update",
            step_id="s1",
            constraints={"target": "call mom"},
            changes={"when": "2024-05-02T17:00:00+03:00"},
        ),
        risk="high",
        approval=True,
    )
    state = make_state(output, message="move call mom to 5pm", language=language)
    state = state.with_resolver_result("s1", {"cached": 1}).with_resolver_result("s0", {"cached": 0})
    state = state.with_executor_args("s1", {"id": "r1"}).with_executor_args("s0", {"id": "r0"})
    result = gate.check_planner(state, now=NOW, hitl_id="h-1")
    assert result.state.pending_hitl is not None
    return result.state


def say(state: TurnState, text: str, interpreter: Interpreter | None = None) -> ResumeOutcome:
    return resume(state, HITLReply(text=text), now=LATER, interpreter=interpreter)


def test_approve_continues_to_the_resolvers(logs) -> None:
    spy = SpyInterpreter()
    outcome = resume(approval_state(), HITLReply(text="yes"), now=LATER, interpreter=spy)
    assert outcome.goto == "resolver_router" and outcome.decision == "continue" and outcome.consumed
    assert outcome.state.pending_hitl is None and outcome.text is None
    entry = outcome.state.hitl_results["h-1"]
    assert entry.raw == "yes" and entry.parsed == {"via": "yes_no", "approved": True} and entry.at == LATER
    assert (
        entry.return_to is not None
        and entry.return_to.node == "resolver_router"
        and entry.interpreted is None
    )
    assert outcome.state.trace_id == "wamid.TRACE1"
    assert outcome.state.resolver_results["s1"] == {"cached": 1}  # cached results survive a plain continue
    assert spy.calls == []
    fast = logs.named("HITL_FAST_PATH_MATCH")[0]
    assert (fast["hitlId"], fast["decision"], fast["parsed"]) == (
        "h-1",
        "continue",
        {"via": "yes_no", "approved": True},
    )
    valid = logs.named("HITL_RESUME_VALID")[0]
    assert valid["goto"] == "resolver_router" and valid["returnTo"] == {
        "node": "resolver_router",
        "mode": "continue",
    }
    assert valid["parsedResult"] == {"via": "yes_no", "approved": True} and valid["traceId"] == "wamid.TRACE1"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Reject", "OK, cancelled. Nothing was changed."),
        ("no", "OK, cancelled. Nothing was changed."),
        # said in the answer's own language, whatever the question's
        ("לא", "בסדר, ביטלתי. לא שיניתי כלום."),
    ],
)
def test_reject_cancels(text: str, said: str, logs) -> None:
    outcome = say(approval_state(), text)
    assert outcome.goto == "response" and outcome.decision == "cancel"
    assert outcome.text == said
    assert outcome.state.pending_hitl is None
    assert outcome.state.hitl_results["h-1"].parsed == {"cancelled": True}
    assert logs.named("HITL_CANCELLED")[0]["hitlId"] == "h-1"


def test_cancel_in_hebrew() -> None:
    outcome = say(approval_state("he"), "ביטול")
    assert outcome.decision == "cancel" and outcome.text == "בסדר, ביטלתי. לא שיניתי כלום."


def test_edit_asks_what_to_change_then_continues_with_modifications(logs) -> None:
    state = approval_state()
    pending = state.pending_hitl
    assert pending is not None and pending.options is not None
    tapped = HITLReply(text="Edit", interactive_id=interactive_reply_id(pending, pending.options[1]))
    edit = resume(state, tapped, now=LATER)
    assert edit.goto == "interrupt" and edit.decision == "edit_requested" and not edit.consumed
    follow_up = edit.pending
    assert follow_up is not None and follow_up.hitl_id == "h-1" and follow_up.expected_input == "free_text"
    assert (
        follow_up.options is None
        and follow_up.context is not None
        and follow_up.context.awaiting == "edit_details"
    )
    assert edit.text is not None and edit.text.startswith("What should I change?")
    assert edit.state.pending_hitl == follow_up
    # The follow-up gets its own full TTL from the moment Edit was chosen.
    assert follow_up.expires_at == LATER + (pending.expires_at - pending.created_at)

    done = say(edit.state, "change the time to 6pm")
    assert done.goto == "resolver_router" and done.decision == "continue_with_modifications"
    new_state = done.state
    s1 = new_state.planner_output.step("s1")
    assert s1.changes == {"when": "2024-05-02T18:00:00+03:00"} and s1.constraints == {"target": "call mom"}
    assert "s1" not in new_state.resolver_results and "s1" not in new_state.executor_args
    assert new_state.resolver_results["s0"] == {"cached": 0} and new_state.executor_args["s0"] == {"id": "r0"}
    assert new_state.pending_hitl is None
    entry = new_state.hitl_results["h-1"]
    assert entry.interpreted is not None and entry.interpreted.decision == "continue_with_modifications"
    mods = logs.named("HITL_CONTINUE_WITH_MODIFICATIONS")[0]
    assert mods["modifications"] == {"when": "2024-05-02T18:00:00+03:00"} and mods["originStepId"] == "s1"
    assert logs.named("HITL_INTERPRETER_RESULT")[0]["hasMods"] is True


def test_edit_then_a_bare_time_is_the_change() -> None:
    edit = say(approval_state(), "edit")
    done = say(edit.state, "7pm")
    assert done.decision == "continue_with_modifications"
    assert done.state.planner_output.step("s1").changes["when"] == "2024-05-02T19:00:00+03:00"


def test_edit_then_go_ahead_approves_as_is() -> None:
    edit = say(approval_state(), "edit")
    done = say(edit.state, "actually yes go ahead")
    assert done.goto == "resolver_router" and done.decision == "continue"
    assert done.state.planner_output.step("s1").changes["when"] == "2024-05-02T17:00:00+03:00"


def test_edit_then_gibberish_re_asks_the_edit_question() -> None:
    edit = say(approval_state(), "edit")
    again = say(edit.state, "hmm")
    assert again.goto == "interrupt" and again.decision == "re_ask"
    assert again.pending.context.awaiting == "edit_details"
    assert "What should I change?" in again.text


def test_yes_with_changes_in_one_message_english_and_hebrew() -> None:
    en = say(approval_state(), "yes, and change the title to Wedding")
    assert en.decision == "continue_with_modifications"
    assert en.state.planner_output.step("s1").changes["title"] == "Wedding"
    he = say(approval_state("he"), "כן, ותשנה את השם ל-חתונה")
    assert he.decision == "continue_with_modifications"
    assert he.state.planner_output.step("s1").changes["title"] == "חתונה"


def test_switch_intent_during_an_approval(logs) -> None:
    state = approval_state().with_planner_result(
        approval_state().planner_output,  # type: ignore[arg-type]
        [RoutingSuggestion(capability="reminders", confidence=0.9)],
    )
    outcome = say(state, "what's on my shopping list?")
    assert outcome.goto == "planner" and outcome.decision == "switch_intent"
    new_state = outcome.state
    assert new_state.input.message == "what's on my shopping list?"
    assert new_state.planner_output is None and new_state.routing_suggestions == []
    assert (
        new_state.resolver_results == {} and new_state.executor_args == {} and new_state.pending_hitl is None
    )
    assert new_state.trace_id == state.trace_id
    assert logs.named("HITL_SWITCH_INTENT")[0]["rawReply"] == "what's on my shopping list?"


def test_re_ask_keeps_the_same_question_then_an_answer_continues(logs) -> None:
    state = approval_state()
    first = say(state, "hmm")
    assert first.goto == "interrupt" and first.decision == "re_ask"
    assert first.state == state and first.pending == state.pending_hitl
    assert first.text.startswith("Sorry, I didn't catch that")
    assert state.pending_hitl.question in first.text  # type: ignore[union-attr]
    assert logs.named("HITL_RE_ASK")[0]["rawReply"] == "hmm"
    second = say(first.state, "ok")
    assert second.decision == "continue" and second.state.hitl_results["h-1"].raw == "ok"


def test_llm_interpreter_decision_is_used_when_the_fast_path_misses() -> None:
    spy = SpyInterpreter(
        InterpreterOutput(decision="continue", parsed=InterpreterParsed(approved=True, answer="do it"))
    )
    outcome = say(approval_state(), "yes please, do it right away", interpreter=spy)
    assert outcome.decision == "continue" and len(spy.calls) == 1
    call = spy.calls[0]
    assert call.origin_step is not None and call.origin_step.id == "s1" and call.timezone == "Asia/Jerusalem"
    assert outcome.state.hitl_results["h-1"].interpreted.parsed.answer == "do it"


def test_interpreter_modifications_are_sanitized_before_merging() -> None:
    spy = SpyInterpreter(
        InterpreterOutput(
            decision="continue_with_modifications",
            parsed=InterpreterParsed(approved=True, modifications={"reminderId": "evil", "title": "Gym"}),
        )
    )
    outcome = say(approval_state(), "sure but call it Gym", interpreter=spy)
    s1 = outcome.state.planner_output.step("s1")
    assert (
        s1.changes["title"] == "Gym" and "reminderId" not in s1.changes and "reminderId" not in s1.constraints
    )


def test_modifications_with_only_ids_re_ask() -> None:
    spy = SpyInterpreter(
        InterpreterOutput(
            decision="continue_with_modifications", parsed=InterpreterParsed(modifications={"id": "x"})
        )
    )
    assert say(approval_state(), "use id x", interpreter=spy).decision == "re_ask"


def test_an_expired_question_cannot_be_resumed() -> None:
    # The caller drops an expired question (HITL_EXPIRED) and treats the message as fresh:
    # tests/unit/turn/test_control.py.
    with pytest.raises(ValueError, match="live"):
        resume(approval_state(), HITLReply(text="yes"), now=NOW + timedelta(minutes=6))


def test_a_stale_button_re_asks() -> None:
    outcome = resume(
        approval_state(), HITLReply(text="Approve", interactive_id="old-hitl:approve"), now=LATER
    )
    assert outcome.decision == "re_ask" and outcome.state.pending_hitl is not None


def test_resume_without_a_pending_question_is_an_error() -> None:
    with pytest.raises(ValueError, match="stale-reply"):
        resume(make_state(plan(step())), HITLReply(text="yes"), now=LATER)


# --- clarifications --------------------------------------------------------------------------------


def test_intent_unclear_clarification_replans_with_the_answer() -> None:
    planner = RulePlanner()
    first = planner.plan(PlannerInput(message="mom thing tomorrow", now=NOW, timezone="Asia/Jerusalem"))
    assert first.output.missing_fields == ["intent_unclear"]
    state = make_state(first.output, message="mom thing tomorrow").with_planner_result(
        first.output, first.routing_suggestions
    )
    state = gate.check_planner(state, now=NOW, hitl_id="c-1").state
    outcome = say(state, "remind me to call mom tomorrow at 5pm")
    assert outcome.goto == "planner" and outcome.decision == "continue"
    replan_input = PlannerInput.for_turn(outcome.state, now=LATER)
    assert replan_input.message == "mom thing tomorrow"
    assert replan_input.clarification == "remind me to call mom tomorrow at 5pm"
    second = planner.plan(replan_input)
    assert second.output.missing_fields == []
    assert second.output.plan[0].constraints == {"title": "call mom", "when": "2024-05-02T17:00:00+03:00"}


@pytest.mark.parametrize(
    ("language", "answer", "expected"),
    [
        ("en", "5pm", "2024-05-02T17:00:00+03:00"),
        ("en", "at 9:30", "2024-05-02T09:30:00+03:00"),
        ("he", "ב-17:00", "2024-05-02T17:00:00+03:00"),
        ("he", "בשעה 8 בערב", "2024-05-02T20:00:00+03:00"),
        ("en", "friday at 8am", "2024-05-03T08:00:00+03:00"),
    ],
)
def test_missing_time_answer_fills_the_step(language: str, answer: str, expected: str) -> None:
    output = plan(
        step(constraints={"title": "call mom", "day": "2024-05-02"}), missing=["reminder_time_required"]
    )
    state = gate.check_planner(make_state(output, language=language), now=NOW, hitl_id="m-1").state
    outcome = say(state, answer)
    assert outcome.goto == "resolver_router" and outcome.decision == "continue"
    new_output = outcome.state.planner_output
    assert new_output.plan[0].constraints == {"title": "call mom", "when": expected}
    assert new_output.missing_fields == []


def test_missing_title_and_time_in_one_answer() -> None:
    output = plan(step(constraints={}), missing=["reminder_title_required", "reminder_time_required"])
    state = gate.check_planner(make_state(output), now=NOW).state
    assert state.pending_hitl is not None and "about, and when" in state.pending_hitl.question
    outcome = say(state, "water the plants tomorrow at 8am")
    assert outcome.state.planner_output.plan[0].constraints == {
        "title": "water the plants",
        "when": "2024-05-02T08:00:00+03:00",
    }


def test_a_missing_time_answer_without_a_time_is_re_asked() -> None:
    output = plan(step(constraints={"title": "call mom"}), missing=["reminder_time_required"])
    state = gate.check_planner(make_state(output), now=NOW).state
    outcome = say(state, "banana")
    assert outcome.decision == "re_ask" and outcome.goto == "interrupt"
    assert say(state, "never mind").decision == "cancel"


def test_low_confidence_yes_continues_and_no_cancels() -> None:
    output = plan(step(action="delete", constraints={"target": "gym"}), confidence=0.55, risk="high")
    state = gate.check_planner(make_state(output), now=NOW).state
    assert say(state, "yes").goto == "resolver_router"
    assert say(state, "no").goto == "response"


# --- entity disambiguation -----------------------------------------------------------------------


def disambiguation_state(allow_multiple: bool = False, n: int = 3, language: str = "en") -> TurnState:
    candidates = [DisambiguationCandidate(id=f"rem-{i}", label=f"Call mom {i}") for i in range(1, n + 1)]
    state = make_state(plan(step(action="delete", constraints={"target": "call mom"})), language=language)
    state = state.with_disambiguation(
        Disambiguation(resolver_step_id="s1", candidates=candidates, allow_multiple=allow_multiple)
    )
    return gate.check_disambiguation(state, now=NOW, hitl_id="d-1").state


def test_disambiguation_choice_goes_to_entity_resolution_with_entity_ids(logs) -> None:
    spy = SpyInterpreter()
    outcome = say(disambiguation_state(), "2", interpreter=spy)
    assert outcome.goto == "entity_resolution" and outcome.selected_ids == ("rem-2",)
    entry = outcome.state.hitl_results["d-1"]
    assert entry.parsed["candidateIds"] == ["rem-2"] and entry.return_to.mode == "apply_selection"
    assert outcome.state.disambiguation is not None  # entity resolution applies the selection
    assert spy.calls == []
    assert logs.named("HITL_RESUME_VALID")[0]["goto"] == "entity_resolution"


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("1 3", ("rem-1", "rem-3")),
        ("1,2", ("rem-1", "rem-2")),
        ("3 and 1", ("rem-1", "rem-3")),
        ("all", ("rem-1", "rem-2", "rem-3")),
        ("כולם", ("rem-1", "rem-2", "rem-3")),
    ],
)
def test_disambiguation_multi_choice(text: str, ids: tuple[str, ...]) -> None:
    outcome = say(disambiguation_state(allow_multiple=True), text)
    assert outcome.selected_ids == ids


def test_disambiguation_both_and_hebrew_both() -> None:
    for text in ("both", "שניהם"):
        outcome = say(disambiguation_state(allow_multiple=True, n=2), text)
        assert outcome.selected_ids == ("rem-1", "rem-2")


def test_disambiguation_never_calls_an_llm_and_unmatched_text_switches_intent(logs) -> None:
    spy = SpyInterpreter()
    outcome = say(disambiguation_state(), "actually show my shopping list", interpreter=spy)
    assert outcome.decision == "switch_intent" and outcome.goto == "planner"
    assert outcome.state.disambiguation is None
    assert spy.calls == []


def test_disambiguation_wrong_number_re_asks_with_the_range() -> None:
    outcome = say(disambiguation_state(), "5")
    assert outcome.decision == "re_ask"
    assert "from 1 to 3" in outcome.text
    he = say(disambiguation_state(language="he"), "7")
    assert "בין 1 ל-3" in he.text


def test_disambiguation_cancel_word_cancels() -> None:
    assert say(disambiguation_state(), "cancel").decision == "cancel"


# --- merge ---------------------------------------------------------------------------------------------


def test_merge_puts_new_keys_in_the_right_bag() -> None:
    create = step(constraints={"title": "a", "day": "2024-05-02"})
    merged = merge_modifications(create, {"when": "2024-05-02T18:00:00+03:00", "title": "b"})
    assert merged.constraints == {"title": "b", "when": "2024-05-02T18:00:00+03:00"} and merged.changes == {}
    update = step(action="update", constraints={"target": "a"}, changes={"when": "x"})
    merged = merge_modifications(update, {"title": "b", "when": "y"})
    assert merged.constraints == {"target": "a"} and merged.changes == {"when": "y", "title": "b"}
    items = step(
        capability="lists", action="add", constraints={"listName": "shopping"}, changes={"items": ["milk"]}
    )
    merged = merge_modifications(items, {"items": ["oat milk"], "listName": "groceries"})
    assert merged.constraints == {"listName": "groceries"} and merged.changes == {"items": ["oat milk"]}
