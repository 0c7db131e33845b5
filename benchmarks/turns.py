"""Turn figures: a fresh planned turn and a fast-path HITL resume (wall time, AWS calls, modules).

Wall time and AWS calls are medians over warm turns on the local stack (moto, local sink); the
modules figures are what the *first* such turn imports in a fresh process (its cold-path cost).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import TYPE_CHECKING

from benchmarks.harness import REPO, ApiCalls, Row, ms

if TYPE_CHECKING:
    from memo.local.poller import FifoPoller
    from tests.support.conversation import Conversation

ROUNDS = 25
PLANNED = "remind me to call mom tomorrow at 5pm"
RISKY = "delete all my reminders"

FIRST_TURN_MODULES = r"""
import json, os, sys
os.environ.update({"POWERTOOLS_METRICS_DISABLED": "true", "POWERTOOLS_LOG_LEVEL": "ERROR"})
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation

with LocalStack(start_poller=False) as stack:
    chat = Conversation(stack=stack, user=WhatsAppUser())
    before = set(sys.modules)
    chat.say(%(planned)r)
    planned = set(sys.modules) - before
    chat.say(%(risky)r)
    before = set(sys.modules)
    chat.say("yes")
    resume = set(sys.modules) - before
    print(json.dumps({"planned": len(planned), "resume": len(resume), "openai": "openai" in sys.modules}))
"""


def run() -> list[Row]:
    rows = _warm()
    out = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", FIRST_TURN_MODULES % {"planned": PLANNED, "risky": RISKY}],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")},
    ).stdout
    first = json.loads(out.strip().splitlines()[-1])
    rows += [
        ("first planned turn in a process: modules it imports", str(first["planned"]), "modules"),
        ("first fast-path resume after it: modules it imports", str(first["resume"]), "modules"),
        ("openai imported without a key", "yes" if first["openai"] else "no", ""),
    ]
    return rows


def _warm() -> list[Row]:
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    from memo.local.stack import LocalStack
    from memo.local.whatsapp_user import WhatsAppUser
    from tests.support.conversation import Conversation

    planned_calls, resume_calls, whole_calls = ApiCalls(), ApiCalls(), ApiCalls()
    round_trip, round_trip_job = ApiCalls(), ApiCalls()
    planned_times: list[float] = []
    resume_times: list[float] = []
    whole_times: list[float] = []
    round_trip_times: list[float] = []
    round_trip_in_aws: list[float] = []  # of each round trip's time, inside AWS calls
    with LocalStack(start_poller=False) as stack:
        chat = Conversation(stack=stack, user=WhatsAppUser(wa_id="972500000098"))
        chat.say(PLANNED)  # warm: lazy imports, clients
        for _ in range(ROUNDS):
            with planned_calls.counting():
                planned_times.append(_turn_seconds(chat, PLANNED))
            _wait_for_executions(chat)
            chat.replies()
            with whole_calls.counting():
                whole_times.append(_turn_seconds(chat, PLANNED, through_executor=True))
            with round_trip_job.counting():
                with round_trip.counting():
                    asked, asked_in_aws = _turn_seconds_in_aws(chat, RISKY, round_trip)
                    assert chat.replies(), "the question must be asked"
                    with resume_calls.counting():
                        answered, answered_in_aws = _turn_seconds_in_aws(chat, "yes", round_trip)
                resume_times.append(answered)
                round_trip_times.append(asked + answered)
                round_trip_in_aws.append(asked_in_aws + answered_in_aws)
                _wait_for_executions(chat)
                assert chat.replies(), "the responder must answer"
    return [
        ("planned turn, webhook Lambda only: wall time (moto)", ms(planned_times), "ms"),
        (
            "planned turn, webhook Lambda only: AWS calls",
            f"{_handler_calls(planned_calls) / ROUNDS:.1f}",
            "calls",
        ),
        ("whole turn running a plan (turn + executor + responder): wall time", ms(whole_times), "ms"),
        ("whole turn running a plan: AWS calls", f"{_handler_calls(whole_calls) / ROUNDS:.1f}", "calls"),
        ("whole turn running a plan: calls by operation", _ops(whole_calls), ""),
        ("fast-path resume, webhook Lambda only: wall time (moto)", ms(resume_times), "ms"),
        (
            "fast-path resume, webhook Lambda only: AWS calls",
            f"{_handler_calls(resume_calls) / ROUNDS:.1f}",
            "calls",
        ),
        ("fast-path resume: calls by operation", _ops(resume_calls), ""),
        ("HITL round trip (question + answer), webhook Lambda: wall time (moto)", ms(round_trip_times), "ms"),
        (
            # Where that time goes, as means: inside the AWS calls (botocore, and moto answering them;
            # the local poller's SQS calls included), and everything else: Memo's own code.
            "HITL round trip: of the wall time, inside AWS calls (botocore + moto), mean",
            f"{sum(round_trip_in_aws) / ROUNDS * 1000:.1f}",
            "ms",
        ),
        (
            "HITL round trip: of the wall time, outside AWS calls (Memo's own code), mean",
            f"{(sum(round_trip_times) - sum(round_trip_in_aws)) / ROUNDS * 1000:.1f}",
            "ms",
        ),
        (
            "HITL round trip (question + answer), webhook Lambda: DynamoDB requests",
            f"{round_trip.count('dynamodb:') / ROUNDS:.1f}",
            "requests",
        ),
        (
            "HITL round trip: DynamoDB bytes written",
            f"{round_trip.dynamodb_written / ROUNDS / 1024:.1f}",
            "KB",
        ),
        (
            # What the writes store (DynamoDB's item-size rule, what writes are billed by): the wire
            # bytes above also carry keys, expressions and condition checks.
            "HITL round trip: item bytes written (what DynamoDB stores)",
            f"{round_trip.dynamodb_item_bytes_written / ROUNDS / 1024:.1f}",
            "KB",
        ),
        ("HITL round trip: DynamoDB bytes read", f"{round_trip.dynamodb_read / ROUNDS / 1024:.1f}", "KB"),
        ("HITL round trip: calls by operation", _ops(round_trip), ""),
        (
            "whole HITL job (question, answer, execution, reply): DynamoDB requests",
            f"{round_trip_job.count('dynamodb:') / ROUNDS:.1f}",
            "requests",
        ),
        (
            "whole HITL job: DynamoDB bytes written",
            f"{round_trip_job.dynamodb_written / ROUNDS / 1024:.1f}",
            "KB",
        ),
        (
            "whole HITL job: AWS calls of our Lambdas",
            f"{_handler_calls(round_trip_job) / ROUNDS:.1f}",
            "calls",
        ),
    ]


def _wait_for_executions(chat: Conversation) -> None:
    if chat.stack.stepfunctions is not None:
        chat.stack.stepfunctions.wait_all()


def _turn_seconds(chat: Conversation, text: str, *, through_executor: bool = False) -> float:
    """Ingress is measured elsewhere: time the turn (one SQS batch through the handler) and, with
    `through_executor`, the plan's execution until the responder has replied."""
    poller = _posted(chat, text)
    start = time.perf_counter()
    poller.drain()
    if through_executor:
        _wait_for_executions(chat)
        elapsed = time.perf_counter() - start
        assert chat.replies(), "the responder must answer"
        return elapsed
    return time.perf_counter() - start


def _turn_seconds_in_aws(chat: Conversation, text: str, calls: ApiCalls) -> tuple[float, float]:
    """A turn's wall time (`_turn_seconds`) and, of it, the time inside AWS calls counted by `calls`."""
    poller = _posted(chat, text)
    start, in_aws = time.perf_counter(), calls.seconds
    poller.drain()
    return time.perf_counter() - start, calls.seconds - in_aws


def _posted(chat: Conversation, text: str) -> FifoPoller:
    """Post `text` through the webhook (ingress, untimed); the poller that will run its turn."""
    from tests.support.webhook import post

    assert post(chat.user.payload(chat.user.text(text)))["statusCode"] == 200
    assert chat.stack.poller is not None
    return chat.stack.poller


# Calls that are not the Lambdas' own: the local poller's SQS reads, the test harness polling
# Step Functions, and Step Functions' own Lambda invocations (moto makes them through botocore).
_NOT_OURS = ("sqs:", "stepfunctions:DescribeExecution", "stepfunctions:ListExecutions", "lambda:Invoke")


def _ours(name: str) -> bool:
    return not name.startswith(_NOT_OURS)


def _handler_calls(calls: ApiCalls) -> int:
    return sum(v for k, v in calls.calls.items() if _ours(k))


def _ops(calls: ApiCalls) -> str:
    return ", ".join(
        f"{name.split(':')[1]} {count / ROUNDS:g}"
        for name, count in sorted(calls.calls.items())
        if _ours(name)
    )
