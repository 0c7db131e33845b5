"""The answer to an approval, killed between its writes and its start, then redelivered.

The answer's turn writes once (its memory, the consumed question and its idempotency record, in one
transaction) and then starts the approved plan. Whatever point the Lambda dies at, before a write
or between the write and the start, the redelivered message must end with the approved plan run
exactly once: the reminders deleted, one "Deleted" reply, one execution.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import partial

import pytest

from memo.local.stack import LocalStack
from memo.turn import recorder
from tests.faults.conftest import Faults, LambdaCrash, Rule
from tests.faults.test_crashes import CrashingLambda, talk
from tests.support.conversation import Conversation

SETUP = ("remind me to call the plumber tomorrow at 9am", "delete all my reminders")
STARTS = frozenset({"StartExecution"})


def asked(stack: LocalStack) -> Conversation:
    chat, _ = talk(stack, SETUP[0])
    chat, replies = talk(stack, SETUP[1], chat)
    assert replies and "delete all your reminders (1)" in replies[-1], replies
    return chat


def answer_writes(faults: Faults) -> int:
    with LocalStack(start_poller=False) as clean:
        chat = asked(clean)
        faults.writes.clear()
        chat.deliver(chat.user.text("yes"))
        assert clean.poller is not None
        clean.poller.drain()
        return len(faults.writes_on_this_thread())


def crash_before_start(faults: Faults) -> None:
    faults.rules.append(
        Rule(
            lambda service, operation, _params: service == "stepfunctions" and operation in STARTS,
            lambda op: LambdaCrash(f"crashed before {op}"),
            times=1,
            thread=threading.get_ident(),
        )
    )


def run_crashed(arm: Callable[[], None]) -> None:
    with LocalStack(start_poller=False) as stack:
        assert stack.poller is not None and stack.stepfunctions is not None
        crashing = CrashingLambda(stack.poller._handler)
        stack.poller._handler = crashing  # type: ignore[assignment]
        chat = asked(stack)
        stack.stepfunctions.wait_all()
        arm()
        chat, replies = talk(stack, "yes", chat)
        assert crashing.crashes == 1, "the crash did not happen"
        assert len(replies) == 1 and replies[0].startswith("Deleted 1 reminder"), replies
        _, listed = talk(stack, "what reminders do I have?", chat)
        assert len(listed) == 1 and "call the plumber" not in listed[0], listed


def test_the_answer_killed_before_any_of_its_writes_runs_the_plan_once(faults: Faults) -> None:
    writes = answer_writes(faults)
    assert writes >= 1  # the turn's one transaction (its idempotency record is written in it)
    for k in range(writes):
        run_crashed(partial(faults.crash, skip=k, this_thread_only=True))


def test_the_answer_killed_between_its_write_and_the_start_still_runs_the_plan(faults: Faults) -> None:
    # The write is done (the question consumed, the record completed): the redelivered message is a
    # duplicate, and the start is issued again from the stored result.
    run_crashed(lambda: crash_before_start(faults))


def test_a_start_stored_by_the_previous_release_is_issued_again(
    faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Records completed before starts were packed hold the execution input as a JSON object.
    monkeypatch.setattr(recorder, "pack_text", json.loads)
    run_crashed(lambda: crash_before_start(faults))
