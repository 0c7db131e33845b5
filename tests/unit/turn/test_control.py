"""The turn's control flow on fakes: what the user gets back, which pending question is kept or
consumed, and which execution starts with which args."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.capabilities.items import ListItem, Note, Reminder
from memo.conversation.model import ThreadSnapshot, UserProfile
from memo.conversation.pending import PendingChange, PendingExists, PendingGone
from memo.domain import PlannerOutput, TurnState
from memo.executor.contracts import ExecutionInput
from memo.hitl.interpreter import RuleInterpreter
from memo.ingress.inbound import InboundMessage
from memo.planner.base import PlannerInput, PlannerResult
from memo.turn.control import TurnControl
from memo.turn.outcome import TurnContext, TurnOutcome
from memo.turn.questions import question_reply
from memo.turn.reads import DecisionPorts
from tests.support.button_ids import button_ids
from tests.unit.hitl.conftest import NOW, TZ, plan, step

THREAD = "972501234567"
TOMORROW_5PM = (NOW + timedelta(days=1)).replace(hour=17).isoformat()


@dataclass
class FakePendingStore:
    """The conversation table's PENDING item: at most one question per thread."""

    lose_create: bool = False  # another turn created a question first (PendingExists)
    gone: bool = False  # another delivery already consumed the question (PendingGone)
    stored: TurnState | None = None  # the question that won the race (`current`)
    created: list[TurnState] = field(default_factory=list)
    replaced: list[TurnState] = field(default_factory=list)
    consumed: list[tuple[str, str]] = field(default_factory=list)

    def create(self, state: TurnState, *, now: Any) -> None:
        if self.lose_create:
            raise PendingExists("a live pending question already exists")
        self.created.append(state)

    def replace(self, state: TurnState, *, expected_hitl_id: str) -> None:
        if self.gone:
            raise PendingGone(f"pending {expected_hitl_id} is no longer there")
        self.replaced.append(state)

    def consume(self, thread_id: str, hitl_id: str) -> None:
        if self.gone:
            raise PendingGone(f"pending {hitl_id} was already consumed")
        self.consumed.append((thread_id, hitl_id))

    def current(self, thread_id: str) -> TurnState | None:
        return self.stored

    def commit(self, change: PendingChange) -> None:
        """What the engine's one write does with a turn's pending change (`record_turn`)."""
        if change.kind == "create":
            assert change.state is not None
            self.create(change.state, now=change.now)
        elif change.kind == "replace":
            assert change.state is not None
            self.replace(change.state, expected_hitl_id=change.expected_hitl_id or "")
        elif change.kind == "consume":
            self.consume(change.thread_id, change.expected_hitl_id or "")
        elif not self.gone:  # discard: an expired question, gone already is fine
            self.consumed.append((change.thread_id, change.expected_hitl_id or ""))


@dataclass
class FakePlanner:
    output: PlannerOutput
    calls: list[PlannerInput] = field(default_factory=list)

    def plan(self, inp: PlannerInput) -> PlannerResult:
        self.calls.append(inp)
        return PlannerResult(output=self.output)


@dataclass
class FakeExecutions:
    started: list[ExecutionInput] = field(default_factory=list)

    def start(self, execution: ExecutionInput) -> None:
        self.started.append(execution)


@dataclass
class FakeItems:
    reminders: list[Reminder] = field(default_factory=list)

    def list_upcoming_reminders(self, thread_id: str, now: Any) -> list[Reminder]:
        return list(self.reminders)

    def list_notes(self, thread_id: str) -> list[Note]:
        return []

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        return []


def reminder(reminder_id: str = "r1", title: str = "call mom") -> Reminder:
    return Reminder(
        reminder_id=reminder_id,
        thread_id=THREAD,
        title=title,
        due_at=NOW + timedelta(days=1),
        timezone=TZ,
        created_at=NOW,
    )


CREATE = plan(step(action="create", constraints={"title": "call mom", "when": TOMORROW_5PM}))
DELETE_ALL = plan(step(action="delete_all"), risk="high", approval=True)


@dataclass
class Turn:
    planner: FakePlanner
    pending: FakePendingStore = field(default_factory=FakePendingStore)
    executions: FakeExecutions = field(default_factory=FakeExecutions)
    items: FakeItems = field(default_factory=FakeItems)

    note_max_chars: int = 4_000
    message_max_chars: int = 5_000

    @property
    def control(self) -> TurnControl:
        return TurnControl(
            DecisionPorts(
                planner=self.planner,
                interpreter=RuleInterpreter(),
                items=self.items,
                pending=self.pending,
                hitl_ttl_seconds=300,
                note_max_chars=self.note_max_chars,
                message_max_chars=self.message_max_chars,
            )
        )

    def say(
        self,
        text: str = "",
        *,
        reply_id: str | None = None,
        paused: TurnState | None = None,
        at: Any = NOW,
        wamid: str = "wamid.TURN2",
    ) -> TurnOutcome:
        message = InboundMessage(
            wamid=wamid,
            thread_id=THREAD,
            phone_number_id="PNID",
            timestamp=int(at.timestamp()),
            type="interactive" if reply_id else "text",
            text=text,
            reply_id=reply_id,
        )
        snapshot = ThreadSnapshot(
            thread_id=THREAD,
            pending={"state": paused.to_json()} if paused is not None else None,
        )
        profile = UserProfile(thread_id=THREAD, language="en", timezone=TZ, created_at=NOW)
        ctx = TurnContext(message=message, trace_id=wamid, profile=profile, snapshot=snapshot, now=at)
        control = self.control
        outcome = control.handle(ctx)
        if outcome.pending_change is not None:
            try:
                self.pending.commit(outcome.pending_change)
            except (PendingExists, PendingGone):
                return control.lost_race(ctx, outcome)
        if outcome.start is not None:  # started once the turn's write is done
            self.executions.start(outcome.start)
        return outcome


def paused_delete_all(turn: Turn) -> TurnState:
    """Ask the approval of "delete all my reminders" and return the state the store kept."""
    asked = turn.say("delete all my reminders", wamid="wamid.TURN1")
    assert asked.outcome == "hitl_approval" and len(turn.pending.created) == 1
    turn.planner.calls.clear()
    return turn.pending.created.pop()


def test_a_fresh_plan_starts_one_execution_with_the_resolved_args() -> None:
    turn = Turn(FakePlanner(CREATE))
    outcome = turn.say("remind me to call mom tomorrow at 5pm")
    assert outcome.reply is None and outcome.outcome == "executing"  # the reply Lambda answers
    (execution,) = turn.executions.started
    assert (execution.trace_id, execution.thread_id, execution.phone_number_id) == (
        "wamid.TURN2",
        THREAD,
        "PNID",
    )
    ((task,),) = execution.groups
    assert (task.capability, task.action, task.approval, task.review) == ("reminders", "create", None, None)
    assert task.args["title"] == "call mom"
    assert not turn.pending.created


def test_a_plan_needing_approval_creates_the_question_and_sends_it_with_buttons() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder(), reminder("r2", "call dad")]))
    outcome = turn.say("delete all my reminders")
    (stored,) = turn.pending.created
    pending = stored.pending_hitl
    assert pending is not None and pending.kind == "approval" and pending.reason == "high_risk"
    assert outcome.outcome == "hitl_approval" and outcome.reply_kind == "hitl_question"
    assert outcome.reply is not None and "delete all your reminders (2)" in outcome.reply.text
    assert "1. “call mom”" in outcome.reply.text and "2. “call dad”" in outcome.reply.text
    assert [c.title for c in outcome.reply.choices] == ["Approve", "Edit", "Reject"]
    assert stored.executor_args["s1"] == {"reminderIds": ["r1", "r2"]}  # pinned to what is shown
    assert not turn.executions.started


def test_delete_all_with_nothing_to_delete_asks_nothing() -> None:
    turn = Turn(FakePlanner(DELETE_ALL))
    outcome = turn.say("delete all my reminders")
    assert not turn.pending.created and outcome.outcome == "executing"
    ((task,),) = turn.executions.started[0].groups
    assert task.args == {"reminderIds": []}


def test_a_lost_create_race_sends_the_existing_question_again(logs) -> None:
    winner = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    existing = paused_delete_all(winner)
    assert existing.pending_hitl is not None
    turn = Turn(
        FakePlanner(DELETE_ALL),
        pending=FakePendingStore(lose_create=True, stored=existing),
        items=FakeItems([reminder()]),
    )
    outcome = turn.say("delete all my reminders")
    assert outcome.outcome == "hitl_duplicate_attempt" and outcome.reply is not None
    assert outcome.reply.text.startswith("There's still an open question")
    assert existing.pending_hitl.question in outcome.reply.text
    assert [c.title for c in outcome.reply.choices] == ["Approve", "Edit", "Reject"]
    assert not turn.executions.started
    logged = logs.named("HITL_DUPLICATE_ATTEMPT")[0]
    assert logged["lostRace"] is True and logged["existingHitlId"] == existing.pending_hitl.hitl_id


def test_a_lost_race_with_the_winner_gone_again_sends_nothing(logs) -> None:
    turn = Turn(
        FakePlanner(DELETE_ALL), pending=FakePendingStore(lose_create=True), items=FakeItems([reminder()])
    )
    outcome = turn.say("delete all my reminders")
    assert outcome.reply is None and outcome.outcome == "hitl_lost_race"
    assert not turn.executions.started


def test_an_approval_consumes_the_question_and_starts_the_approved_execution() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    pending = paused.pending_hitl
    assert pending is not None
    approve = question_reply(pending, "en").choices[0].id
    outcome = turn.say(reply_id=approve, paused=paused)
    assert turn.pending.consumed == [(THREAD, pending.hitl_id)]
    assert outcome.reply is None and outcome.outcome == "executing" and outcome.user_kind == "hitl_reply"
    ((task,),) = turn.executions.started[0].groups
    assert task.action == "delete_all" and task.args["reminderIds"] == ["r1"]
    assert task.approval is not None and task.approval.hitl_id == pending.hitl_id
    assert task.approval.args_hash == task.args_hash
    assert not turn.planner.calls  # the frozen plan is resumed, not planned again


def test_an_answer_to_a_question_already_consumed_sends_nothing(logs) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    turn.pending.gone = True
    outcome = turn.say("yes", paused=paused)
    assert outcome.reply is None and outcome.outcome == "hitl_lost_race"
    assert not turn.executions.started
    assert logs.named("HITL_RESUME_LOST_RACE")[0]["hitlId"] == paused.pending_hitl.hitl_id


def test_a_re_ask_keeps_the_same_question_in_place() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    outcome = turn.say("hmm maybe", paused=paused)
    assert outcome.outcome == "hitl_re_ask" and outcome.reply is not None
    assert [c.title for c in outcome.reply.choices] == ["Approve", "Edit", "Reject"]
    (kept,) = turn.pending.replaced
    assert kept.pending_hitl == paused.pending_hitl and not turn.pending.consumed


def test_reject_cancels_and_starts_nothing() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    outcome = turn.say("no", paused=paused)
    assert outcome.reply is not None and outcome.reply.text == "OK, cancelled. Nothing was changed."
    assert outcome.outcome == "hitl_cancel" and len(turn.pending.consumed) == 1
    assert not turn.executions.started


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yes", "That request expired — want to try again?"),
        ("remind me to call mom tomorrow at 5pm", None),
    ],
)
def test_an_expired_question_is_deleted_and_the_message_is_fresh(
    logs, text: str, expected: str | None
) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    pending = paused.pending_hitl
    assert pending is not None
    turn.planner.output = CREATE
    outcome = turn.say(text, paused=paused, at=pending.expires_at + timedelta(seconds=1))
    expired = logs.named("HITL_EXPIRED")[0]
    assert (expired["hitlId"], expired["originStepId"], expired["traceId"]) == (
        pending.hitl_id,
        pending.origin_step_id,
        "wamid.TURN1",
    )
    assert not logs.named("HITL_RESUME_VALID")
    if expected is not None:  # a bare "yes" approves nothing any more: it is offered a retry
        # ... whose question takes the expired one's place (a create may overwrite an expired one)
        (retry,) = turn.pending.created
        assert retry.pending_hitl is not None and retry.pending_hitl.hitl_id != pending.hitl_id
        assert outcome.reply is not None and outcome.reply.text == expected
        assert [c.title for c in outcome.reply.choices] == ["Try again"]
        assert not turn.executions.started and not turn.planner.calls
    else:  # the expired question is deleted and a new request is planned and run
        assert turn.pending.consumed == [(THREAD, pending.hitl_id)]
        assert outcome.outcome == "executing" and turn.planner.calls
        ((task,),) = turn.executions.started[0].groups
        assert task.action == "create" and task.approval is None


def test_an_expired_question_already_deleted_by_another_delivery_is_fine(logs) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    pending = paused.pending_hitl
    assert pending is not None
    turn.pending.gone = True
    turn.planner.output = CREATE
    outcome = turn.say("remind me to call mom tomorrow at 5pm", paused=paused, at=pending.expires_at)
    # Deleting an expired question that is gone already is no conflict.
    assert outcome.outcome == "executing" and not logs.named("HITL_RESUME_LOST_RACE")


def test_a_stale_yes_gets_the_not_waiting_text_and_is_not_planned(logs) -> None:
    turn = Turn(FakePlanner(CREATE))
    outcome = turn.say("yes")
    assert outcome.outcome == "stale_reply" and outcome.reply is not None
    assert outcome.reply.text == "I'm not waiting on a question right now — what would you like to do?"
    assert not turn.planner.calls and not turn.executions.started
    assert logs.named("HITL_STALE_REPLY")[0]["rawUserMessage"] == "yes"


def test_a_plan_on_an_unconnected_account_says_so() -> None:
    turn = Turn(FakePlanner(plan(step(capability="calendar", action="create"))))
    outcome = turn.say("add a meeting to my calendar")
    assert outcome.outcome == "capability_blocked" and outcome.reply is not None
    assert outcome.reply.text.startswith("To use your calendar I need access to your account")
    assert not turn.executions.started


BUTTON_GONE = "That button no longer works, so I didn't do anything. Just tell me what you'd like to do 🙏"


@pytest.mark.parametrize(
    "reply_id",
    [
        "undo:253402300800:wamid.TURN1",  # a window past year 9999
        "undo:²:wamid.TURN1",
        f"undo:{int((NOW + timedelta(days=400)).timestamp())}:wamid.TURN1",  # never an Undo of Memo's
        "reminder:snooze:15:r1",  # not one of the snooze buttons
        "reminder:done:" + "r" * 65,
        "reminder:",
    ],
)
def test_a_tap_on_an_id_none_of_memos_buttons_carries_is_answered_and_runs_nothing(reply_id: str) -> None:
    turn = Turn(FakePlanner(CREATE), items=FakeItems([reminder()]))
    outcome = turn.say("Undo", reply_id=reply_id)
    assert outcome.outcome == "button_gone"
    assert outcome.reply is not None and outcome.reply.text == BUTTON_GONE
    assert outcome.pending_change is None and not turn.executions.started and not turn.planner.calls


def test_an_open_question_stays_open_after_a_tap_on_a_broken_button() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    outcome = turn.say("Undo", reply_id="undo:253402300800:wamid.TURN1", paused=paused)
    assert outcome.outcome == "button_gone" and outcome.pending_change is None
    assert not turn.pending.consumed and not turn.executions.started


@settings(max_examples=300, deadline=None)
@given(reply_id=button_ids(), title=st.sampled_from(["Undo", "Done ✅", "Approve", ""]), asked=st.booleans())
def test_any_tapped_id_gets_an_answer_or_a_start_and_never_raises(
    reply_id: str, title: str, asked: bool
) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn) if asked else None
    outcome = turn.say(title, reply_id=reply_id, paused=paused)
    assert outcome.reply is not None or outcome.start is not None, outcome.outcome
    for execution in turn.executions.started:
        # What a tap may start: an Undo or a reminder's Done / Snooze; the paused delete only on
        # its own Approve option (a bare option id is that option's tap too).
        actions = {task.action for group in execution.groups for task in group}
        assert actions <= {"undo", "done", "snooze"} or (actions == {"delete_all"} and reply_id == "approve")


# --- what does not fit is answered before anything is recorded or run -------------------------------


def test_a_message_longer_than_memo_reads_is_answered_unread_and_the_question_stays() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=FakeItems([reminder()]))
    paused = paused_delete_all(turn)
    outcome = turn.say("x" * 5_001, paused=paused)
    assert outcome.outcome == "message_too_long" and outcome.reply is not None
    assert outcome.reply.text.startswith(
        "That message is 5,001 characters long, and I read messages of up to 5,000"
    )
    assert outcome.pending_change is None and outcome.start is None
    assert turn.planner.calls == []  # never read as a request
    assert turn.say("x" * 5_000, paused=paused).outcome != "message_too_long"


def test_a_note_past_its_limit_is_refused_before_anything_starts() -> None:
    save = plan(step("notes", "save", changes={"text": "n" * 101}))
    turn = Turn(FakePlanner(save), note_max_chars=100)
    outcome = turn.say("save a note")
    assert outcome.outcome == "note_too_long" and outcome.start is None and turn.executions.started == []
    assert outcome.reply is not None and outcome.reply.text.startswith("That note is 101 characters long")
    at_limit = Turn(FakePlanner(plan(step("notes", "save", changes={"text": "n" * 100}))), note_max_chars=100)
    assert at_limit.say("save a note").outcome == "executing"


def test_a_title_or_an_item_past_its_limit_is_refused_before_anything_starts() -> None:
    remind = plan(step(action="create", constraints={"title": "t" * 501, "when": TOMORROW_5PM}))
    outcome = Turn(FakePlanner(remind)).say("remind me")
    assert outcome.outcome == "title_too_long" and outcome.start is None
    assert outcome.reply is not None and outcome.reply.text.startswith(
        "That reminder's text is 501 characters"
    )
    items = ["eggs", "i" * 501]
    add = plan(step("lists", "add", constraints={"listName": "shopping"}, changes={"items": items}))
    turn = Turn(FakePlanner(add))
    outcome = turn.say("add these")
    assert outcome.outcome == "title_too_long" and turn.executions.started == []
    assert outcome.reply is not None and outcome.reply.text.startswith("One of those items is 501 characters")


def test_more_steps_than_one_execution_runs_are_refused_whole() -> None:
    many = [
        step("lists", "add", f"s{n}", {"listName": "shopping"}, {"items": [f"item {n}"]}) for n in range(11)
    ]
    turn = Turn(FakePlanner(plan(*many)))
    outcome = turn.say("add these")
    assert outcome.outcome == "too_many_steps" and turn.executions.started == []
    assert outcome.reply is not None and "up to 10 things at a time" in outcome.reply.text
    ten = Turn(FakePlanner(plan(*many[:10])))
    assert ten.say("add these").outcome == "executing"


def test_a_request_over_step_functions_limit_is_refused_whole() -> None:
    # Ten notes at the note limit, of characters JSON escapes to 12 bytes each: about 480 KB.
    notes = [step("notes", "save", f"s{n}", changes={"text": f"{n}" + "🎉" * 3_999}) for n in range(10)]
    turn = Turn(FakePlanner(plan(*notes)))
    outcome = turn.say("add these")
    assert outcome.outcome == "request_too_large" and turn.executions.started == []
    assert outcome.reply is not None and outcome.reply.text.startswith("That request is too long for me")
