"""`TurnRecorder` on fakes: the turn's one write first, and nothing after it unless it landed.

The review wait, the start and the reply follow the write: a turn whose write is refused (the message
turned already, or the pending question taken by another turn) leaves no wait behind, starts nothing
and sends nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest

from memo.conversation.model import MemoryMessage, ThreadSnapshot, TurnRecorded, UserProfile
from memo.conversation.pending import PendingChange
from memo.errors import ItemTooLarge
from memo.executor.contracts import Approval, ExecutionInput, ReviewTicket, StepTask, args_hash
from memo.ingress.inbound import InboundMessage
from memo.operator_review.waits import ReviewWait
from memo.packing import pack_text, unpack_text
from memo.replies import Reply
from memo.turn.outcome import CaseAnswer, Settlement, TurnContext, TurnOutcome, Withdrawal
from memo.turn.recorder import OperatorAnswersNotConfigured, TurnRecorder
from memo.whatsapp.sender import SentMessage
from memo.whatsapp.tracking import OutboundTag
from tests.support.clock import TEST_NOW

NOW = TEST_NOW
THREAD = "972501234567"
TRACE = "wamid.TURN1"
TIMEOUT = 3600


@dataclass
class Store:
    """The conversation store's one write: answers from `answers` in turn, then "recorded"."""

    answers: list[TurnRecorded | Exception] = field(default_factory=list)
    writes: list[dict[str, Any]] = field(default_factory=list)

    def load(self, thread_id: str, *, now: Any, limit: int) -> ThreadSnapshot:
        return ThreadSnapshot(thread_id=thread_id)

    def save_profile(self, profile: UserProfile) -> None:
        raise AssertionError("the turn saves its profile in its one write")

    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None:
        raise AssertionError("the turn remembers its messages in its one write")

    def record_turn(
        self,
        thread_id: str,
        wamid: str,
        messages: list[MemoryMessage],
        *,
        ttl_seconds: int,
        result: Mapping[str, Any],
        pending: PendingChange | None = None,
        profile: UserProfile | None = None,
    ) -> TurnRecorded:
        self.writes.append({"messages": messages, "result": dict(result), "pending": pending})
        answer = self.answers.pop(0) if self.answers else "recorded"
        if isinstance(answer, Exception):
            raise answer
        return answer


@dataclass
class Effects:
    """Everything that happens after the write (and the settlement's calls), in order."""

    log: list[tuple[str, Any]] = field(default_factory=list)
    case_result: str = "passed_on"
    withdraw_result: str = "withdrawn"

    def start(self, execution: ExecutionInput) -> None:
        self.log.append(("start", execution.trace_id))

    def remember(self, thread_id: str, wait: ReviewWait) -> None:
        self.log.append(("remember", wait))

    def withdraw(self, thread_id: str, wait: ReviewWait) -> str:
        self.log.append(("withdraw", wait.trace_id))
        return self.withdraw_result

    def answer(self, case_id: str, answer: str, *, request_id: str, requester_ref: str) -> str:
        self.log.append(("answer", request_id))
        return self.case_result

    def send(self, phone_number_id: str, to: str, reply: Reply, *, tag: OutboundTag) -> SentMessage:
        self.log.append(("send", reply.text))
        return SentMessage(message_ids=["wamid.OUT"])

    def mark_read(self, phone_number_id: str, wamid: str) -> None:
        raise AssertionError("the recorder sends no read receipt")

    def send_to_group(self, phone_number_id: str, group_id: str, reply: Reply) -> SentMessage:
        raise AssertionError("the recorder sends nothing to a group")


def recorder(store: Store, effects: Effects, *, wired: bool = True) -> TurnRecorder:
    return TurnRecorder(
        store=store,
        sender=effects,
        clock=lambda: NOW,
        memory_ttl_seconds=86400,
        executions=effects,
        case_answers=effects if wired else None,
        reviews=effects if wired else None,
    )


def ctx() -> TurnContext:
    message = InboundMessage(
        wamid="wamid.ANSWER",
        thread_id=THREAD,
        phone_number_id="PNID",
        timestamp=int(NOW.timestamp()),
        type="text",
        text="yes",
    )
    profile = UserProfile(thread_id=THREAD, language="en", timezone="UTC", created_at=NOW)
    return TurnContext(
        message=message, trace_id=TRACE, profile=profile, snapshot=ThreadSnapshot(thread_id=THREAD), now=NOW
    )


def reviewed_execution() -> ExecutionInput:
    task = StepTask(
        trace_id=TRACE,
        thread_id=THREAD,
        step_id="s1",
        capability="reminders",
        action="delete_all",
        args_hash="h",
        review=ReviewTicket(rule="bulk_delete", timeout_seconds=TIMEOUT),
    )
    return ExecutionInput(trace_id=TRACE, thread_id=THREAD, phone_number_id="PNID", groups=[[task]])


def answered_approval() -> TurnOutcome:
    """An approval's answer whose plan waits for an operator: the question is consumed with the
    turn's write, the wait kept and the plan started after it."""
    execution = reviewed_execution()
    return TurnOutcome(
        reply=Reply.plain("Sent to an operator for review."),
        outcome="awaiting_review",
        user_kind="hitl_reply",
        pending_change=PendingChange.consume(THREAD, "hitl-1"),
        start=execution,
        review_wait=ReviewWait.for_execution(execution, now=NOW),
    )


def lost_race(ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
    return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind=outcome.user_kind)


def apply(rec: TurnRecorder, outcome: TurnOutcome) -> tuple[TurnOutcome, bool]:
    profile = ctx().profile
    return rec.apply(ctx(), outcome, profile=profile, stored=profile, lost_race=lost_race)


WAIT = ReviewWait(TRACE, ("s1",), NOW + timedelta(seconds=TIMEOUT))


def test_a_recorded_turn_keeps_its_review_wait_then_starts_its_plan_then_answers() -> None:
    store, effects = Store(), Effects()
    outcome, sent = apply(recorder(store, effects), answered_approval())
    assert sent and outcome.outcome == "awaiting_review"
    assert effects.log == [("remember", WAIT), ("start", TRACE), ("send", "Sent to an operator for review.")]
    (write,) = store.writes
    assert write["pending"] == PendingChange.consume(THREAD, "hitl-1") and "start" in write["result"]


def test_an_answer_whose_question_was_taken_by_another_turn_leaves_no_review_wait() -> None:
    """The stale-wait race: the approval's answer loses its question between the thread's load and
    the turn's write. Nothing of the answer is kept: no wait, no start, no reply."""
    store, effects = Store(answers=["pending_conflict"]), Effects()
    outcome, sent = apply(recorder(store, effects), answered_approval())
    assert (outcome.outcome, outcome.reply, sent) == ("hitl_lost_race", None, False)
    assert effects.log == []
    lost, answered = store.writes
    assert lost["pending"] is not None and answered["pending"] is None and answered["result"] == {}


def test_a_message_turned_already_leaves_no_second_wait_and_sends_nothing() -> None:
    store, effects = Store(answers=["already_recorded"]), Effects()
    _, sent = apply(recorder(store, effects), answered_approval())
    assert not sent and effects.log == []


def test_a_redelivered_message_keeps_its_wait_and_starts_its_plan_again() -> None:
    effects = Effects()
    start = reviewed_execution().model_dump_json(exclude_none=True, exclude_defaults=True)
    recorder(Store(), effects).restart({"start": pack_text(start)})
    assert effects.log == [("remember", WAIT), ("start", TRACE)]


def test_a_redelivered_message_without_a_start_issues_nothing() -> None:
    effects = Effects()
    recorder(Store(), effects).restart({})
    assert effects.log == []


def test_the_answer_to_an_operator_is_settled_on_the_case_before_the_write() -> None:
    passed_on = TurnOutcome(
        reply=Reply.plain("Passed on."),
        outcome="hitl_operator_passed_on",
        pending_change=PendingChange.consume(THREAD, "hitl-1"),
    )
    conflict = TurnOutcome(reply=None, outcome="hitl_lost_race")
    call = CaseAnswer(
        case_id="HITL-1", answer="blue", request_id="memo:clarification:hitl-1", requester_ref="r"
    )
    decided = TurnOutcome(
        reply=None,
        outcome="hitl_operator_answer",
        settle=Settlement(call=call, outcomes={"passed_on": passed_on, "conflict": conflict}),
    )
    effects = Effects()
    rec = recorder(Store(), effects)
    assert rec.settle(decided) == passed_on
    effects.case_result = "conflict"
    assert rec.settle(decided) == conflict
    assert effects.log == [("answer", "memo:clarification:hitl-1")] * 2
    with pytest.raises(OperatorAnswersNotConfigured):
        recorder(Store(), Effects(), wired=False).settle(decided)


def test_a_withdrawal_is_settled_and_its_result_picks_the_answer() -> None:
    outcomes = {
        "withdrawn": TurnOutcome(reply=None, outcome="review_withdrawn"),
        "not_submitted_yet": TurnOutcome(reply=Reply.plain("Try again"), outcome="review_not_submitted_yet"),
    }
    decided = TurnOutcome(
        reply=None,
        outcome="review_withdrawal",
        settle=Settlement(call=Withdrawal(thread_id=THREAD, wait=WAIT), outcomes=outcomes),
    )
    effects = Effects(withdraw_result="not_submitted_yet")
    assert recorder(Store(), effects).settle(decided).outcome == "review_not_submitted_yet"
    assert effects.log == [("withdraw", TRACE)]


def test_a_decided_state_is_untouched_by_settling_an_outcome_without_a_settlement() -> None:
    outcome = TurnOutcome(reply=None, outcome="executing")
    assert recorder(Store(), Effects()).settle(outcome) is outcome


def test_a_turn_that_would_store_an_item_too_large_says_so_and_changes_nothing() -> None:
    """The turn's write was refused before it went out (an item over DynamoDB's limit): the answer
    says the message was too long, no question changes, nothing starts; the message is remembered
    cut short."""
    store, effects = Store(answers=[ItemTooLarge("PENDING", 500_000, 400_000)]), Effects()
    outcome, sent = apply(recorder(store, effects), answered_approval())
    assert sent and outcome.outcome == "too_large_to_keep"
    assert effects.log == [
        (
            "send",
            "That message is too long for me to work with, so I didn't do anything with it. "
            "Could you send it in a few shorter messages?",
        )
    ]
    refused, kept = store.writes
    assert refused["pending"] is not None and "start" in refused["result"]
    assert kept["pending"] is None and kept["result"] == {}
    assert [m.role for m in kept["messages"]] == ["user", "assistant"]


@dataclass
class Started(Effects):
    """Effects that keep every execution input started."""

    started: list[ExecutionInput] = field(default_factory=list)

    def start(self, execution: ExecutionInput) -> None:
        self.started.append(execution)
        super().start(execution)


def test_a_redelivered_message_starts_the_very_plan_its_record_keeps_without_its_args_hashes() -> None:
    """The record leaves out an args hash that is the hash of the step's args (its approval's too,
    the same): the start issued again computes them back, and keeps any other as it was."""
    args = {"reminderIds": ["r1", "r2"]}
    approval = Approval(hitl_id="hitl-1", args_hash=args_hash(args), expires_at=NOW, asked_at=NOW)
    hashed = StepTask(
        trace_id=TRACE,
        thread_id=THREAD,
        step_id="s1",
        capability="reminders",
        action="delete_all",
        args=args,
        args_hash=args_hash(args),
        approval=approval,
        titles={"r1": "call mom", "r2": "gym"},
    )
    other = hashed.model_copy(update={"step_id": "s2", "args_hash": "h", "approval": None})
    execution = ExecutionInput(
        trace_id=TRACE, thread_id=THREAD, phone_number_id="PNID", groups=[[hashed], [other]]
    )
    store, effects = Store(), Started()
    apply(
        recorder(store, effects),
        answered_approval().model_copy(update={"start": execution, "review_wait": None}),
    )
    (write,) = store.writes
    assert args_hash(args) not in unpack_text(write["result"]["start"])

    recorder(Store(), effects).restart(write["result"])

    assert effects.started == [execution, execution]
