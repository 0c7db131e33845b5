"""What 1,000 conversations cost on AWS: `make cost`.

Each kind of exchange runs on the local stack (moto, the deployed state machine, the fake clock),
counted by `benchmarks.cost_meter` at the points AWS bills: requests, invocations and their
duration at the configured memory, DynamoDB capacity units from the items' real sizes, FIFO
requests, state transitions, schedules fired, log bytes. A conversation is a stated mix of those
exchanges (`MIX`); prices come from `benchmarks/prices.json` alone, with their date.

Durations are wall times of the handlers on this machine over moto: a real DynamoDB round trip is
slower than moto's, a warm Lambda's Python faster than a loaded laptop's; the Lambda line is the
least certain one, and small next to the others' fixed counts.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.cost_meter import Meter, Usage

if TYPE_CHECKING:
    from memo.local.stack import LocalStack
    from tests.support.clock import FakeClock
    from tests.support.conversation import Conversation

PRICES = Path(__file__).with_name("prices.json")
CONVERSATIONS = 1000
ROUNDS = 5  # each exchange measured this many times; the mean is used
# Memory per function as deployed (infra/): tests/infra checks these against the template.
MEMORY_MB = {
    "webhook": 1024,
    "executor": 512,
    "responder": 512,
    "review_submit": 512,
    "reminders": 512,
    "review": 512,
    "escalation": 256,
}
# Step Functions runs these as tasks of an execution (their traces join the execution's).
TASKS = frozenset({"executor", "responder", "review_submit"})
# What Meta posts back for every message Memo sends: sent, delivered, read.
STATUSES_PER_REPLY = 3
EXPRESS_MEMORY_GB = 0.064  # Express bills duration in 64 MB steps; an execution here holds little


@dataclass(frozen=True)
class Mix:
    """One typical conversation, as counts of each exchange (fractions are shares of conversations)."""

    planned: float = 3  # a request that runs a plan: a reminder, a list item, a note
    read: float = 1  # "what are my reminders?"
    small_talk: float = 1  # "thanks"
    approval: float = 0.3  # a destructive request asked, answered "yes", run
    reminder_delivered: float = 2  # a reminder firing at its time
    operator_review: float = 0.05  # a request an operator approves in the review page

    def describe(self) -> str:
        return (
            f"{self.planned:g} planned requests, {self.read:g} read, {self.small_talk:g} small talk, "
            f"{self.approval:.0%} with an approval (2 messages), {self.reminder_delivered:g} reminders "
            f"delivered, {self.operator_review:.0%} with an operator review"
        )


MIX = Mix()


def main() -> int:
    prices = json.loads(PRICES.read_text())
    exchanges = measure()
    per_conversation = (
        exchanges["planned"].scaled(MIX.planned)
        + exchanges["read"].scaled(MIX.read)
        + exchanges["small_talk"].scaled(MIX.small_talk)
        + exchanges["approval"].scaled(MIX.approval)
        + exchanges["reminder_delivered"].scaled(MIX.reminder_delivered)
        + exchanges["operator_review"].scaled(MIX.operator_review)
    )
    total = per_conversation.scaled(CONVERSATIONS)
    lines = cost_lines(total, prices)
    print(f"Cost of {CONVERSATIONS:,} conversations, {prices['region']}, list prices of {prices['as_of']}")
    print(f"A conversation: {MIX.describe()}; {STATUSES_PER_REPLY} status webhooks per reply.")
    print()
    width = max(len(name) for name, _, _ in lines)
    print(f"{'component':<{width}}  {'quantity':>34}  {'USD':>9}")
    print("-" * (width + 48))
    for name, quantity, usd in lines:
        print(f"{name:<{width}}  {quantity:>34}  {usd:>9.4f}")
    print("-" * (width + 48))
    print(f"{'total':<{width}}  {'':>34}  {sum(usd for _, _, usd in lines):>9.4f}")
    print()
    for line in express_comparison(total, prices):
        print(line)
    print()
    print("Per exchange (measured, mean of", ROUNDS, "runs):")
    for name, usage in exchanges.items():
        print(f"  {name:<19} {_summary(usage)}")
    return 0


def cost_lines(total: Usage, prices: dict[str, Any]) -> list[tuple[str, str, float]]:
    """One line per billed component: (component, quantity, USD)."""

    def price(key: str, quantity: float) -> float:
        entry = prices[key]
        return quantity * entry["usd"] / entry["per"]

    gb_seconds = sum(
        seconds_billed(total.lambda_seconds[name], total.lambda_invocations[name])
        * MEMORY_MB[_base(name)]
        / 1024
        for name in total.lambda_invocations
    )
    invocations = sum(total.lambda_invocations.values())
    log_gb = total.log_bytes / 1024**3
    return [
        (
            "API Gateway HTTP API",
            f"{total.http_requests:,.0f} requests",
            price("http_api_request", total.http_requests),
        ),
        ("Lambda requests", f"{invocations:,.0f} invocations", price("lambda_request", invocations)),
        ("Lambda duration (arm64)", f"{gb_seconds:,.1f} GB-s", price("lambda_arm64_gb_second", gb_seconds)),
        (
            "SQS FIFO (turn queue)",
            f"{total.sqs_requests:,.0f} requests",
            price("sqs_fifo_request", total.sqs_requests),
        ),
        (
            "DynamoDB writes (on-demand)",
            f"{total.write_units:,.0f} WRU",
            price("dynamodb_write_request_unit", total.write_units),
        ),
        (
            "DynamoDB reads (on-demand)",
            f"{total.read_units:,.0f} RRU",
            price("dynamodb_read_request_unit", total.read_units),
        ),
        (
            "Step Functions Standard",
            f"{total.transitions:,.0f} transitions",
            price("stepfunctions_standard_transition", total.transitions),
        ),
        (
            "EventBridge Scheduler",
            f"{total.scheduler_invocations:,.0f} invocations",
            price("scheduler_invocation", total.scheduler_invocations),
        ),
        (
            "EventBridge events",
            f"{total.events_published:,.0f} events",
            price("eventbridge_event", total.events_published),
        ),
        (
            "SNS (operator notices)",
            f"{total.sns_publishes:,.0f} publishes",
            price("sns_publish", total.sns_publishes),
        ),
        (
            "CloudWatch Logs ingestion",
            f"{total.log_bytes / 1024**2:,.1f} MB",
            price("logs_ingested_gb", log_gb),
        ),
        (
            "X-Ray (every request traced)",
            f"{total.traces:,.0f} traces",
            price("xray_trace_recorded", total.traces),
        ),
        (
            "Secrets Manager",
            f"{total.secrets_calls:,.0f} calls",
            price("secrets_manager_api_call", total.secrets_calls),
        ),
    ]


def express_comparison(total: Usage, prices: dict[str, Any]) -> list[str]:
    """Executions that never wait for a person, on Standard (per transition) and on Express."""
    quick = total.executions - total.waiting_executions
    if quick <= 0:
        return []
    standard = total.quick_execution_transitions * prices["stepfunctions_standard_transition"]["usd"] / 1000
    mean_seconds = total.quick_execution_seconds / quick
    billed = math.ceil(mean_seconds * 10) / 10  # 100 ms steps
    express = quick * (
        prices["stepfunctions_express_request"]["usd"] / prices["stepfunctions_express_request"]["per"]
        + billed * EXPRESS_MEMORY_GB * prices["stepfunctions_express_gb_second"]["usd"]
    )
    return [
        f"Executions that never wait for a person: {quick:,.0f}, "
        f"{total.quick_execution_transitions / quick:.1f} transitions and {mean_seconds:.2f} s each.",
        f"  Standard: {standard:.4f} USD; Express: {express:.4f} USD ({standard / express:.0f}x less)."
        if express
        else "",
        "  The stack keeps Standard: an operator review waits on a task token (.waitForTaskToken), which",
        "  Express does not offer, and Express runs at least once where Standard runs exactly once. A",
        "  second, Express state machine for plans without a review step would save the figure above.",
    ]


def seconds_billed(seconds: float, invocations: float) -> float:
    """Lambda bills each invocation's duration rounded up to the millisecond."""
    if invocations <= 0:
        return 0.0
    mean_ms = math.ceil(seconds / invocations * 1000)
    return mean_ms * invocations / 1000


def _base(name: str) -> str:
    return name.removeprefix("sfn:")


def _summary(usage: Usage) -> str:
    invocations = ", ".join(f"{name} {n:g}" for name, n in sorted(usage.lambda_invocations.items()))
    return (
        f"{usage.http_requests:g} HTTP, Lambda: {invocations}; {usage.write_units:g} WRU, "
        f"{usage.read_units:g} RRU, {usage.sqs_requests:g} SQS, {usage.transitions:g} transitions, "
        f"{usage.log_bytes / 1024:.1f} KB logs"
    )


# --- measuring -----------------------------------------------------------------------------------


def measure() -> dict[str, Usage]:
    """Every exchange of the mix, measured on the local stack: the mean usage of one."""
    _environment()
    meter = Meter()
    sys.stdout, real_stdout = meter.stdout, sys.stdout
    try:
        with _stack(meter, review_policy=False) as user:
            exchanges = {
                "planned": user.mean(lambda: user.say("remind me to call mom tomorrow at 5pm")),
                "read": user.mean(lambda: user.say("what are my reminders?")),
                "small_talk": user.mean(lambda: user.say("thanks")),
                "approval": user.mean(user.approval, setup=user.reminder_to_delete),
                "reminder_delivered": user.mean(user.reminder_fires, setup=user.reminder_soon),
            }
        with _stack(meter, review_policy=True) as user:
            exchanges["operator_review"] = user.mean(user.operator_review, setup=user.review_asked)
    finally:
        sys.stdout = real_stdout
    return exchanges


def _environment() -> None:
    os.environ.update(
        {
            "POWERTOOLS_LOG_LEVEL": "INFO",  # as deployed
            "POWERTOOLS_METRICS_DISABLED": "false",
            "MEMO_DEFAULT_TIMEZONE": "Asia/Jerusalem",
        }
    )
    # The mix's messages come back to back on the fake clock, faster than any person writes: the
    # sender's pace would refuse them (it is the flood section's subject, `benchmarks/flood.py`).
    os.environ.setdefault("MEMO_RATE_BURST", "1000000")
    for key in [k for k in os.environ if k.startswith("OPENAI_")]:
        del os.environ[key]  # the rule planner: an LLM's cost is not an AWS cost


@contextmanager
def _stack(meter: Meter, *, review_policy: bool) -> Iterator[_User]:
    from memo.local.functions import load_module
    from memo.local.stack import LocalStack
    from memo.local.whatsapp_user import WhatsAppUser
    from tests.support.clock import FakeClock
    from tests.support.conversation import Conversation

    for name in MEMORY_MB:
        module = load_module(name)
        handler = getattr(module, "handler")  # noqa: B009 - a module loaded from its file
        if not getattr(handler, "metered", False):
            setattr(module, "handler", meter.timed(f"sfn:{name}" if name in TASKS else name, handler))  # noqa: B010
    if review_policy:
        os.environ["MEMO_REVIEW_POLICY"] = json.dumps(
            {"rules": [{"capability": "reminders", "action": "delete"}]}
        )
    try:
        clock = FakeClock(datetime.now(UTC).replace(hour=7, minute=0, second=0, microsecond=0))
        with LocalStack(start_poller=False, clock=clock) as stack:
            chat = Conversation(stack=stack, user=WhatsAppUser(wa_id="972500000077"))
            yield _User(meter, stack, chat, clock)
    finally:
        os.environ.pop("MEMO_REVIEW_POLICY", None)


class _User:
    """One WhatsApp user's exchanges on the local stack, each counted by the meter."""

    def __init__(self, meter: Meter, stack: LocalStack, chat: Conversation, clock: FakeClock) -> None:
        self.meter, self.stack, self.chat, self.clock = meter, stack, chat, clock
        self.submissions = 0

    @property
    def usage(self) -> Usage:
        return self.meter.usage

    def mean(self, exchange: Callable[[], None], *, setup: Callable[[], None] = lambda: None) -> Usage:
        """The mean usage of `exchange` over ROUNDS runs, each after its unmeasured `setup`, once
        warm (imports done, clients built, secrets cached: a warm Lambda)."""
        total = Usage()
        for round_ in range(ROUNDS + 1):
            self.meter.usage = Usage()  # what the setup uses is not the exchange's
            setup()
            if round_ == 0:
                exchange()
                continue
            self.meter.usage = Usage()
            with self.meter.measuring():
                exchange()
            total = total + self.meter.usage
        return total.scaled(1 / ROUNDS)

    def say(self, text: str) -> None:
        self.post(self.chat.user.text(text))

    def post(self, message: dict[str, Any], *, until_finished: bool = True) -> None:
        """Post `message` signed; run its turn and, `until_finished`, its executions."""
        from tests.support.webhook import post

        before = self.stack.sink.last_index
        assert post(self.chat.user.payload(message))["statusCode"] == 200
        self.usage.http_requests += 1
        assert self.stack.poller is not None
        self.stack.poller.drain()
        if until_finished:
            self.executions_finished()
        self.statuses(before)

    def statuses(self, before: int) -> None:
        """Meta's sent, delivered and read webhooks for every message Memo sent since `before`."""
        from memo.local.whatsapp_user import status_payload
        from tests.support.webhook import post

        wa_id = self.chat.user.wa_id
        sent = [r for r in self.stack.sink.messages(to=wa_id, after=before) if not r.is_read_receipt]
        self.usage.replies += len(sent)
        for record in sent:
            for status in ("sent", "delivered", "read")[:STATUSES_PER_REPLY]:
                assert (
                    post(status_payload(record.message_id, status, wa_id, tag=record.tag))["statusCode"]
                    == 200
                )
                self.usage.http_requests += 1
        assert self.stack.poller is not None
        self.stack.poller.drain()
        self.chat.replies()

    def reminder_to_delete(self) -> None:
        self.say("remind me to water the plants tomorrow at 8pm")

    def approval(self) -> None:
        self.say("delete the water the plants reminder")
        self.say("yes")

    def reminder_soon(self) -> None:
        self.say("remind me to stretch in 10 minutes")

    def reminder_fires(self) -> None:
        before = self.stack.sink.last_index
        self.clock.advance(minutes=11)
        assert self.stack.ticker is not None
        fired = self.stack.ticker.tick()
        assert fired, "the reminder must fire"
        self.usage.scheduler_invocations += len(fired)
        self.statuses(before)

    def review_asked(self) -> None:
        self.say("remind me to feed the cat tomorrow at 9am")
        self.say("delete the feed the cat reminder")

    def operator_review(self) -> None:
        """The user approves, the case reaches the queue; an operator lists, opens and approves it."""
        from memo.wiring.review import ReviewRuntime
        from tests.integration.caseplatform.review.harness import ReviewClient, token

        choice = self.chat.choices[0]
        self.post(self.chat.user.button_reply(choice.id, choice.title), until_finished=False)
        self.wait_for_submission()
        api = ReviewClient(ReviewRuntime.current().review)
        bearer = token("alice", "reviewers:memo_operation", name="Alice")
        before = self.stack.sink.last_index
        with self.review_request():
            listed = api.call("GET", "/review/cases", bearer=bearer, query="adapter_id=memo_operation")
        (item,) = listed.body["items"]
        with self.review_request():
            assert api.call("GET", f"/review/cases/{item['case_id']}", bearer=bearer).status == 200
        with self.review_request():
            body = {"request_id": item["case_id"]}
            decided = api.call("POST", f"/review/cases/{item['case_id']}/approve", bearer=bearer, body=body)
        assert decided.status == 200, decided.body
        self.executions_finished()
        self.statuses(before)

    def wait_for_submission(self, timeout: float = 30.0) -> None:
        """Until the execution has submitted its step for review (and waits on the task token)."""
        assert self.stack.stepfunctions is not None
        dispatcher = self.stack.stepfunctions.dispatcher
        deadline = time.monotonic() + timeout
        with dispatcher.changed:
            while (
                sum(1 for i in dispatcher.invocations if i.function_name == "memo-review-submit")
                <= self.submissions
            ):
                assert time.monotonic() < deadline, "the step was never submitted for review"
                dispatcher.changed.wait(0.05)
        self.submissions += 1

    @contextmanager
    def review_request(self) -> Iterator[None]:
        """One request to the review Lambda through the HTTP API."""
        with self.meter.invocation("review"):
            yield
        self.usage.http_requests += 1

    def executions_finished(self) -> None:
        assert self.stack.stepfunctions is not None
        sfn = self.stack.stepfunctions.sfn
        for execution in self.stack.stepfunctions.wait_all():
            arn = execution["executionArn"]
            history = sfn.get_execution_history(executionArn=arn, maxResults=1000)["events"]
            entered = sum(1 for event in history if event["type"].endswith("StateEntered"))
            waited = any("waitForTaskToken" in json.dumps(event, default=str) for event in history)
            self.usage.executions += 1
            self.usage.transitions += entered
            if waited:
                self.usage.waiting_executions += 1
                continue
            self.usage.quick_execution_transitions += entered
            described = sfn.describe_execution(executionArn=arn)
            if described.get("stopDate"):
                self.usage.quick_execution_seconds += (
                    described["stopDate"] - described["startDate"]
                ).total_seconds()


if __name__ == "__main__":
    sys.exit(main())
