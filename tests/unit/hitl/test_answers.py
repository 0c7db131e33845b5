"""The answer grammar of docs/hitl-answers.md, one rule at a time: what an approval touches, new
requests while a question is open (planner or operator), the expiry message's "Try again", "all"
beyond the rows a list shows, and the stale-reply guard's acknowledgements. Narrowing answers are in
test_narrowing.py."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import (
    Disambiguation,
    DisambiguationCandidate,
    HITLReply,
    HITLReturnTo,
    PendingHITL,
    PendingHITLContext,
    TurnState,
)
from memo.hitl import affected, gate, templates
from memo.hitl.fastpath import interactive_reply_id
from memo.hitl.resume import resume, stale_reply_guard
from tests.unit.hitl.conftest import NOW, make_state, plan, step

LATER = NOW + timedelta(seconds=30)
TOMORROW = (NOW + timedelta(days=1)).date().isoformat()
FRIDAY = (NOW + timedelta(days=2)).date().isoformat()

SHOWN = [
    DisambiguationCandidate(id="r1", label="call mom", data={"day": TOMORROW}),
    DisambiguationCandidate(id="r2", label="call dad", data={"day": TOMORROW}),
    DisambiguationCandidate(id="r3", label="pay the bank", data={"day": FRIDAY}),
]

# --- what the approval touches --------------------------------------------------------------------------


def test_with_ids_narrows_and_validates() -> None:
    delete_all = step(action="delete_all")
    assert affected.with_ids(delete_all, {"reminderIds": ["a", "b"]}, ["b"]) == {"reminderIds": ["b"]}
    with pytest.raises(ValueError, match="touches no existing items"):
        affected.with_ids(step(action="create"), {}, ["a"])


def test_changes_since_names_deleted_and_renamed_items() -> None:
    now = [DisambiguationCandidate(id="r1", label="call mother"), SHOWN[2]]
    changes = affected.changes_since(SHOWN, now)
    assert [c.id for c in changes.gone] == ["r2"]
    assert [(old.label, new.label) for old, new in changes.renamed] == [("call mom", "call mother")]
    assert not affected.changes_since(SHOWN, SHOWN).any


# --- resume: approvals ---------------------------------------------------------------------------------


def approval(language: str = "en") -> TurnState:
    state = make_state(plan(step(action="delete_all"), risk="high", approval=True), language=language)
    state = state.with_executor_args("s1", {"reminderIds": ["r1", "r2", "r3"]})
    pending = gate.build_approval_hitl(
        state, "high_risk", origin_step_id="s1", items=SHOWN, now=NOW, hitl_id="h-1"
    )
    return state.model_copy(update={"pending_hitl": pending})


def test_the_approval_question_lists_the_items() -> None:
    pending = approval().pending_hitl
    assert pending is not None
    assert pending.question.startswith("Before I go ahead: I'm about to delete all your reminders (3):")
    assert "2. “call dad”" in pending.question and 'e.g. "only 1 and 3" or "not 2"' in pending.question


def test_a_narrowed_answer_approves_the_subset() -> None:
    outcome = resume(approval(), HITLReply(text="only tomorrow's"), now=LATER)
    assert (outcome.goto, outcome.decision, outcome.approved) == ("resolver_router", "narrowed", True)
    assert outcome.selected_ids == ("r1", "r2")


def test_a_yes_with_an_unmapped_limit_re_asks_with_the_same_id() -> None:
    outcome = resume(approval(), HITLReply(text="yes but only X"), now=LATER)
    assert outcome.goto == "interrupt" and outcome.pending is not None and outcome.pending.hitl_id == "h-1"
    assert not outcome.approved


def test_a_yes_approves_everything_shown() -> None:
    outcome = resume(approval(), HITLReply(text="yes"), now=LATER)
    assert outcome.approved and outcome.selected_ids == () and outcome.goto == "resolver_router"


def test_a_time_edit_on_a_delete_is_explained_and_asked_again_in_hebrew() -> None:
    outcome = resume(approval("he"), HITLReply(text="כן אבל תשנה את השעה ל-18:00"), now=LATER)
    assert outcome.goto == "interrupt" and outcome.text is not None
    assert outcome.text.startswith("למחיקה אין שעה לשנות.")
    assert outcome.pending is not None and outcome.pending.hitl_id == "h-1"


def test_a_rejection_reason_is_feedback() -> None:
    outcome = resume(approval(), HITLReply(text="no because I still need them"), now=LATER)
    assert outcome.decision == "cancel" and outcome.feedback == "I still need them"


@pytest.mark.parametrize(
    "answer",
    [
        "no, reject", "no, reject it", "no cancel it", "no thanks", "nope, cancel that", "no, forget it",
        "no, stop", "no, never mind", "no, don't do it", "no, thank you", "לא, תבטל", "לא, עזוב", "לא תודה",
    ],
)  # fmt: skip
def test_a_refusal_said_twice_is_no_reason(answer: str) -> None:
    outcome = resume(approval(), HITLReply(text=answer), now=LATER)
    assert outcome.decision == "cancel" and outcome.feedback is None, outcome.feedback


# --- new requests while a question is open -------------------------------------------------------------


def missing_time() -> TurnState:
    output = plan(
        step(action="create", constraints={"title": "book flights"}), missing=["reminder_time_required"]
    )
    result = gate.check_planner(
        make_state(output, message="remind me to book flights"), now=NOW, hitl_id="h-2"
    )
    return result.state


def test_a_complete_request_while_when_is_open_switches_intent() -> None:
    outcome = resume(missing_time(), HITLReply(text="remind me at noon to eat"), now=LATER)
    assert (outcome.goto, outcome.decision) == ("planner", "switch_intent")
    assert outcome.state.input.message == "remind me at noon to eat"


@pytest.mark.parametrize("answer", ["tomorrow at 9am", "at noon", "מחר ב-9"])
def test_a_time_is_the_answer_not_a_new_request(answer: str) -> None:
    outcome = resume(missing_time(), HITLReply(text=answer), now=LATER)
    assert outcome.decision == "continue"


def operator_question() -> TurnState:
    pending = PendingHITL(
        hitl_id="op-1",
        kind="clarification",
        source="operator",
        reason="operator_question",
        origin_step_id="s1",
        return_to=HITLReturnTo(node="case", mode="provide_clarification"),
        expected_input="free_text",
        question="Which reminder?",
        expires_at=NOW + timedelta(hours=1),
        context=PendingHITLContext(case_id="case-1"),
        created_at=NOW,
    )
    return make_state(plan(step(action="delete")), message="delete call mom").model_copy(
        update={"pending_hitl": pending}
    )


def test_a_new_request_while_an_operator_asks_keeps_the_operators_question() -> None:
    outcome = resume(
        operator_question(), HITLReply(text="remind me tomorrow at 9am to call the bank"), now=LATER
    )
    assert (outcome.goto, outcome.decision, outcome.keeps_question) == ("planner", "switch_intent", True)
    assert not outcome.consumed


def test_an_answer_to_the_operator_still_goes_to_the_case() -> None:
    outcome = resume(operator_question(), HITLReply(text="the one for my mother"), now=LATER)
    assert outcome.goto == "case" and outcome.consumed


# --- the expiry message's "Try again" ------------------------------------------------------------------


def retry_offer() -> TurnState:
    return gate.build_retry_hitl(approval(), now=NOW, hitl_id="h-retry")


def test_the_retry_offer_keeps_the_original_request_and_trace() -> None:
    offer = retry_offer()
    assert offer.trace_id == "wamid.TRACE1" and offer.input.message == "delete all my reminders"
    assert offer.planner_output is None and offer.pending_hitl is not None
    assert offer.pending_hitl.question == "That request expired — want to try again?"
    assert [o.label for o in offer.pending_hitl.options or []] == ["Try again"]


def test_try_again_re_plans() -> None:
    offer = retry_offer()
    assert offer.pending_hitl is not None
    option = (offer.pending_hitl.options or [])[0]
    reply = HITLReply(text="Try again", interactive_id=interactive_reply_id(offer.pending_hitl, option))
    outcome = resume(offer, reply, now=LATER)
    assert (outcome.goto, outcome.decision) == ("planner", "continue")


@pytest.mark.parametrize(
    ("text", "goto"), [("no", "response"), ("show my notes", "planner"), ("2", "interrupt")]
)
def test_other_answers_to_the_retry_offer(text: str, goto: str) -> None:
    assert resume(retry_offer(), HITLReply(text=text), now=LATER).goto == goto


# --- "all" beyond ten rows ------------------------------------------------------------------------------


def test_all_selects_every_candidate_not_only_the_rows_shown() -> None:
    candidates = [DisambiguationCandidate(id=f"r{i}", label=f"call {i}") for i in range(1, 13)]
    state = make_state(plan(step(action="delete", constraints={"target": "call"})))
    state = state.with_disambiguation(
        Disambiguation(
            resolver_step_id="s1", candidates=candidates, allow_multiple=True, disambiguation_kind="pick_many"
        )
    )
    pending = gate.build_disambiguation_hitl(state, now=NOW, hitl_id="h-3")
    assert len(pending.options or []) == templates.MAX_OPTIONS
    assert "…and 2 more. “all” means all 12 of them." in pending.question
    outcome = resume(state.model_copy(update={"pending_hitl": pending}), HITLReply(text="all"), now=LATER)
    assert outcome.selected_ids == tuple(f"r{i}" for i in range(1, 13))


# --- the stale-reply guard ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["ok", "👍", "thanks", "sure", "תודה", "סבבה"])
def test_acknowledgements_are_not_stale_replies(text: str) -> None:
    assert stale_reply_guard(HITLReply(text=text), thread_id="t", language="en") is None


@pytest.mark.parametrize("text", ["cancel it", "cancel this", "cancel that", "תבטל את זה"])
def test_cancel_it_with_no_question_open_is_a_request_not_a_stale_answer(text: str) -> None:
    # With no question open, "cancel it" is about the thing just made: planned as "delete it".
    assert stale_reply_guard(HITLReply(text=text), thread_id="t", language="en") is None


@pytest.mark.parametrize("text", ["yes", "2", "כן", "1 3", "cancel", "never mind", "ביטול"])
def test_bare_confirmations_and_choices_are_stale(text: str) -> None:
    assert stale_reply_guard(HITLReply(text=text), thread_id="t", language="en") is not None
