"""The executor Lambda dies before one of its DynamoDB writes, and Step Functions retries the step.

For every write of a clean run of the step (counted, not assumed: the sequence is the executor's
business), the same conversation is run again with the executor killed just before that write, as a
timeout or an out-of-memory kill would. The death is reported as Step Functions reports a Lambda
that timed out (a function error named `Sandbox.Timedout`, which the ASL's ExecuteStep Retry
matches), and the Lambda's time runs out first: the fake clock moves past the ledger's lease, so the
retry finds the crashed attempt's claim as a crashed attempt's, not as one still running.

Create and delete are safe to run again (memo.executor.reruns): the retry takes the crashed claim
over and finishes the step, so whatever write the executor died before, the person hears the true
result once ("Reminder set", "Deleted 1 reminder.") and the world holds exactly one effect: one
reminder item with its one schedule (never a schedule without its item), or one deletion.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from memo.executor.step import DEFAULT_LEASE_SECONDS
from memo.local.aws import client
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.faults.conftest import WRITES, Faults, LambdaCrash, Rule
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

T0 = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
# How a reply says it cannot tell whether a step went through (memo.reply.format).
CANNOT_CONFIRM = ("can't confirm", "cannot confirm", "אין לי אישור")
EXECUTOR = "memo-executor"
# What the Lambda runtime reports for a function that ran out of time: the ASL's Retry matches the
# name (the local dispatcher reports a handler's exception under its class name, as Lambda does).
LambdaTimedOut = type("Sandbox.Timedout", (Exception,), {})


@dataclass
class ExecutorWrites:
    """Marks the threads running the executor handler, counts their DynamoDB writes, and kills the
    Lambda before write number `crash_at` (0-based) of the armed run."""

    clock: FakeClock
    local: threading.local = field(default_factory=threading.local)
    counted: int = 0
    crash_at: int | None = None
    crashes: int = 0

    def wrap(self, handler: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        def executor(event: Any, context: Any) -> Any:
            self.local.inside = True
            try:
                return handler(event, context)
            except LambdaCrash as crash:
                self.crashes += 1
                # The Lambda's time ran out: past the lease the retry sees a crashed attempt.
                self.clock.advance(seconds=DEFAULT_LEASE_SECONDS + 1)
                raise LambdaTimedOut(f"executor died: {crash}") from None
            finally:
                self.local.inside = False

        return executor

    def matches(self, service: str, operation: str, params: dict[str, Any]) -> bool:
        if service != "dynamodb" or operation not in WRITES or not getattr(self.local, "inside", False):
            return False
        write = self.counted
        self.counted += 1
        return write == self.crash_at


def install(stack: LocalStack, faults: Faults, clock: FakeClock) -> ExecutorWrites:
    assert stack.stepfunctions is not None
    writes = ExecutorWrites(clock)
    handlers = stack.stepfunctions.dispatcher._handlers
    handlers[EXECUTOR] = writes.wrap(handlers[EXECUTOR])
    # Never exhausted; fires only when `matches` says this write is the one to die before.
    faults.rules.append(Rule(writes.matches, lambda op: LambdaCrash(f"crashed before {op}"), times=10**9))
    return writes


def live_items(wa_id: str, prefix: str) -> list[dict[str, Any]]:
    """The thread's items of one kind as the person sees them: not in the undo bin, and a reminder
    still scheduled."""
    items = client("dynamodb").scan(TableName="memo-items")["Items"]
    return [
        i
        for i in items
        if i["pk"]["S"].endswith(wa_id)
        and i["sk"]["S"].startswith(prefix)
        and "undo_key" not in i
        and (prefix != REMINDER or i.get("status", {}).get("S") == "scheduled")
    ]


def schedules() -> list[str]:
    listed = client("scheduler").list_schedules(GroupName="memo-reminders")["Schedules"]
    return [s["Name"] for s in listed]


REMINDER, NOTE, LIST_ITEM = "REMINDER#", "NOTE#", "LIST#"


@dataclass(frozen=True)
class Case:
    name: str
    setup: tuple[str, ...]  # said before the armed run (their executions never crash)
    says: str  # the message whose execution is armed ("tap 1": the first button of the question)
    worked: str  # the reply's words when it worked
    items_after: int  # live items of `kind` when it worked (reminders: each with its schedule)
    kind: str = REMINDER


# Every one of these is safe to run again (memo.executor.reruns).
CASES = [
    Case("create", (), "remind me to call the plumber tomorrow at 9am", "Reminder set", 1),
    Case("create-he", (), "תזכיר לי להתקשר לאינסטלטור מחר ב-9", "קבעתי תזכורת", 1),
    Case(
        "delete",
        ("remind me to call the plumber tomorrow at 9am", "delete all my reminders"),
        "tap 1",
        "Deleted 1 reminder: “call the plumber”.",
        0,
    ),
    Case(
        "delete-he",
        ("תזכיר לי להתקשר לאינסטלטור מחר ב-9", "תמחק את כל התזכורות שלי"),
        "tap 1",
        "מחקתי",
        0,
    ),
    Case("note", (), "save a note: the wifi password is hunter2", "Saved your note", 1, NOTE),
    Case("list-he", (), "תוסיף חלב לרשימת הקניות", "הוספתי חלב", 1, LIST_ITEM),
]


def run(stack: LocalStack, case: Case, writes: ExecutorWrites, crash_at: int | None) -> list[str]:
    chat = Conversation(stack=stack, user=WhatsAppUser())
    for text in case.setup:
        chat.deliver(chat.user.text(text))
    writes.counted, writes.crash_at = 0, crash_at
    if case.says == "tap 1":
        choice = chat.choices[0]
        message = (
            chat.user.button_reply(choice.id, choice.title)
            if choice.kind == "button"
            else chat.user.list_reply(choice.id, choice.title)
        )
    else:
        message = chat.user.text(case.says)
    replies = chat.deliver(message)
    assert stack.stepfunctions is not None
    stack.stepfunctions.wait_all()
    return replies + chat.replies()


@dataclass(frozen=True)
class Crashed:
    write: int  # the write the executor died before (0-based)
    replies: list[str]
    items: int  # live items of the case's kind in the thread
    schedules: int  # EventBridge schedules of the group


def crash_before_each_write(faults: Faults, case: Case) -> tuple[int, list[Crashed]]:
    """Count the executor's writes in a clean run, then die before each of them in turn."""
    clock = FakeClock(T0)
    with LocalStack(start_poller=False, clock=clock) as clean:
        writes = install(clean, faults, clock)
        replies = run(clean, case, writes, crash_at=None)
        count = writes.counted
        assert len(replies) == 1 and case.worked in replies[0], replies
    # A delete of every reminder is one write (its completed claim with the tombstones).
    assert count >= (1 if case.says == "tap 1" else 2), f"{case.name}: the executor wrote {count} times"
    runs: list[Crashed] = []
    for crash_at in range(count):
        clock = FakeClock(T0)
        with LocalStack(start_poller=False, clock=clock) as stack:
            writes = install(stack, faults, clock)
            replies = run(stack, case, writes, crash_at=crash_at)
            assert writes.crashes == 1, f"{case.name}: the crash before write {crash_at + 1} did not happen"
            items = len(live_items(WhatsAppUser().wa_id, case.kind))
            runs.append(Crashed(crash_at, replies, items, len(schedules())))
    return count, runs


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_step_killed_before_any_of_its_writes_is_run_again_to_its_one_true_result(
    faults: Faults, case: Case
) -> None:
    count, runs = crash_before_each_write(faults, case)
    for crashed in runs:
        where = f"{case.name}: killed before write {crashed.write + 1} of {count}: {crashed}"
        assert len(crashed.replies) == 1, where
        assert case.worked in crashed.replies[0], where
        assert not any(words in crashed.replies[0] for words in CANNOT_CONFIRM), where
        # Exactly the one effect, and never a schedule without its reminder (or the reverse).
        assert crashed.items == case.items_after, where
        if case.kind == REMINDER:
            assert crashed.schedules == crashed.items, where


# Not safe to run again: a move reads the reminder and moves it relative to what it finds.
MOVE = Case(
    "move",
    ("remind me to call the plumber tomorrow at 9am",),
    "move it to 10am",
    "Updated the reminder",
    1,
)


def test_a_killed_step_that_is_not_safe_to_rerun_is_never_repeated_and_says_so(faults: Faults) -> None:
    count, runs = crash_before_each_write(faults, MOVE)
    for crashed in runs:
        where = f"move: killed before write {crashed.write + 1} of {count}: {crashed}"
        assert len(crashed.replies) == 1, where
        assert (crashed.items, crashed.schedules) == (1, 1), where
        worked = MOVE.worked in crashed.replies[0]
        if crashed.write == 0:  # died before its claim: nothing had happened, the retry runs it
            assert worked, where
        else:  # died after its claim: whether it moved is unknown, and the reply says so
            assert not worked and any(words in crashed.replies[0] for words in CANNOT_CONFIRM), where


def test_a_delete_killed_after_its_one_write_is_replayed_and_its_leftover_schedule_goes_at_its_time(
    faults: Faults,
) -> None:
    """The delete's one transaction completed the step; the Lambda dies before the schedule cancel.
    The retry replays the completed step (the true reply, once). The schedule left behind fires at
    the reminder's time: its delivery finds the reminder deleted, sends nothing and deletes it."""
    clock = FakeClock(T0)
    with LocalStack(start_poller=False, clock=clock) as stack:
        writes = install(stack, faults, clock)
        died: list[str] = []

        def before_the_cancel(service: str, operation: str, params: dict[str, Any]) -> bool:
            inside = getattr(writes.local, "inside", False) and (service, operation) == (
                "scheduler",
                "DeleteSchedule",
            )
            if inside:
                died.append(params["Name"])
            return inside

        faults.rules.append(Rule(before_the_cancel, lambda op: LambdaCrash(f"crashed before {op}"), times=1))
        (delete,) = [c for c in CASES if c.name == "delete"]
        replies = run(stack, delete, writes, crash_at=None)

        assert writes.crashes == 1 and len(died) == 1
        assert replies == ["Deleted 1 reminder."]
        assert live_items(WhatsAppUser().wa_id, REMINDER) == [] and len(schedules()) == 1
        sent = len(stack.sink.messages(to=WhatsAppUser().wa_id))
        clock.advance(days=2)
        assert stack.ticker is not None
        stack.ticker.tick()
        assert schedules() == []
        assert len(stack.sink.messages(to=WhatsAppUser().wa_id)) == sent  # nothing was sent for it
