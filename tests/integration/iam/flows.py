"""What people and operators do with Memo, each run on an `IamStack` (every function as its role).

Each flow drives the deployed entry points as they are called in AWS: signed WhatsApp payloads to the
webhook handler, the turn queue through the event source mapping, plans on the state machine, the
reviewer's requests to the review handler (API Gateway events with a reviewer's token), the Scheduler
firing a reminder, the escalation schedule. A flow asserts what its user sees, so a call IAM refuses
makes it fail. `FLOWS` names them; `tests/integration/iam/grants.py` says which flow proves each grant.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import boto3

from caseplatform.redaction import REDACTED
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo import tables
from memo.executor.contracts import Approval, args_hash
from memo.local.context import LocalLambdaContext
from memo.local.events import http_api_event
from memo.local.functions import load_handler
from memo.local.sink import SinkAnswer
from memo.local.stack import LOCAL_REVIEW_DEV_SECRET
from memo.local.whatsapp_user import WhatsAppUser, envelope
from tests.integration.caseplatform.review.harness import token
from tests.integration.iam.harness import IamStack, function_arn, queue_depth
from tests.integration.iam.template import REGION
from tests.integration.ingress.fixtures import FAILED_131047, status, status_value
from tests.support.clock import TEST_NOW
from tests.support.conversation import Conversation
from tests.support.webhook import post
from tests.support.whatsapp_fixtures import changed_number
from tests.unit.caseplatform.factories import submit

# How long a flow waits for the state machine: every plan here ends within seconds when allowed.
WAIT_SECONDS = 10.0
REVIEW_DELETES = json.dumps(
    {"rules": [{"capability": "reminders", "action": "delete"}, {"capability": "notes", "action": "delete"}]}
)
SENT_TO_REVIEW = "needs a quick check by one of our operators"
NEW_NUMBER = "972509999999"
# An adapter that archives its decided cases this many days after the decision.
ARCHIVING_ADAPTER, ARCHIVE_AFTER_DAYS = "lgv_troubleshooting", 30


class Chat(Conversation):
    """A WhatsApp user's conversation; plans are waited for at most `WAIT_SECONDS`."""

    def deliver(self, *messages: dict[str, Any]) -> list[str]:
        replies = self.post(*messages)
        assert self.stack.stepfunctions is not None
        self.stack.stepfunctions.wait_all(timeout=WAIT_SECONDS)
        return replies + self.replies()

    def post(self, *messages: dict[str, Any]) -> list[str]:
        """Deliver without waiting for a plan (one that waits for an operator)."""
        return self.notify(self.user.payload(*messages))

    def notify(self, payload: dict[str, Any]) -> list[str]:
        """A whole webhook body, as Meta posts it; the turns it queued run, and every message of the
        turn queue and the withdrawals queue is consumed."""
        assert post(payload)["statusCode"] == 200
        assert self.stack.poller is not None and self.stack.resources is not None
        self.stack.poller.drain()
        resources = self.stack.resources
        assert (queue_depth(resources.queue_url), queue_depth(resources.withdrawal_queue_url)) == (0, 0)
        return self.replies()


class Reviewer:
    """A reviewer of `memo_operation` cases calling the review function through API Gateway."""

    def __init__(self) -> None:
        self._token = token(
            "alice", "reviewers:memo_operation", "reviewers:*", name="Alice", secret=LOCAL_REVIEW_DEV_SECRET
        )

    def call(self, method: str, path: str, body: Any = None, query: str = "") -> Any:
        headers = {"content-type": "application/json", "authorization": f"Bearer {self._token}"}
        raw = b"" if body is None else json.dumps(body).encode()
        event = http_api_event(method, path, query=query, headers=headers, body=raw)
        answer = load_handler("review")(event, LocalLambdaContext(function_name="memo-review"))
        assert answer["statusCode"] == 200, answer
        return json.loads(answer["body"])

    def tool(self, name: str, **arguments: Any) -> Any:
        """One MCP tool call over the review function's Streamable HTTP endpoint (stateless)."""
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
            "authorization": f"Bearer {self._token}",
        }
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        event = http_api_event("POST", "/review/mcp", headers=headers, body=json.dumps(call).encode())
        answer = load_handler("review")(event, LocalLambdaContext(function_name="memo-review"))
        result = json.loads(answer["body"])["result"]
        assert not result.get("isError"), result
        return result["structuredContent"]

    def waiting_case(self) -> str:
        (item,) = self.call("GET", "/review/cases", query="adapter_id=memo_operation")["items"]
        return str(item["case_id"])


def _chat(iam: IamStack) -> Chat:
    return Chat(stack=iam.local, user=WhatsAppUser())


def _set_call_mom(chat: Chat, when: str = "tomorrow at 5pm") -> None:
    assert chat.say(f"remind me to call mom {when}").startswith("⏰ Reminder set: “call mom”")


def _into_review(iam: IamStack, chat: Chat) -> str:
    """Ask to delete the reminder and approve it: the step waits for an operator; its case id."""
    _set_call_mom(chat)
    chat.say("delete the call mom reminder")
    choice = chat.choices[0]
    assert choice.title == "Approve"
    (told,) = chat.post(chat.user.button_reply(choice.id, choice.title))
    assert SENT_TO_REVIEW in told
    _until_submitted(iam)
    return Reviewer().waiting_case()


def _until_submitted(iam: IamStack) -> None:
    """Until the step waiting for an operator reached the review submit function (it runs on the
    state machine's thread)."""
    assert iam.local.stepfunctions is not None
    dispatcher = iam.local.stepfunctions.dispatcher
    with dispatcher.changed:
        submitted = dispatcher.changed.wait_for(
            lambda: any(i.function_name == "memo-review-submit" for i in dispatcher.invocations),
            timeout=WAIT_SECONDS,
        )
    assert submitted, "the step never reached the review submit function"


# --- the flows ------------------------------------------------------------------------------------


def set_a_reminder(iam: IamStack) -> None:
    """A text becomes a reminder: the turn, the plan, the step (its schedule), the reply."""
    _set_call_mom(_chat(iam))


def delete_a_reminder(iam: IamStack) -> None:
    """A delete asks first; approved, the reminder and its schedule go; Undo brings both back."""
    chat = _chat(iam)
    _set_call_mom(chat)
    chat.say("delete the call mom reminder")
    assert chat.tap(1) == "Deleted the reminder “call mom”."
    assert chat.tap(1).startswith("↩️")
    assert "call mom" in chat.say("show my reminders")


def move_a_reminder(iam: IamStack) -> None:
    """A move changes the reminder and re-points its schedule; "it" is the reminder the reply
    recorded in the thread's latest actions (read and merged: `environ`)."""
    chat = _chat(iam)
    _set_call_mom(chat)
    assert "18:00" in chat.say("move it to 6pm")


def keep_lists_and_notes(iam: IamStack) -> None:
    """Lists and notes: added, shown, a note saved, a list cleared after approval."""
    chat = _chat(iam)
    chat.say("add milk and eggs to my shopping list")
    assert "milk" in chat.say("show my shopping list")
    chat.say("note: the wifi password is sunshine42")
    assert "sunshine42" in chat.say("what's the wifi password?")
    chat.say("clear my shopping list")
    chat.tap(1)
    assert "milk" not in chat.say("show my shopping list")


def a_reminder_is_delivered(iam: IamStack) -> None:
    """At its time the Scheduler invokes the reminders function, which sends it and remembers it in
    the conversation: "done" typed after it marks that reminder done."""
    chat = _chat(iam)
    a_reminder_is_delivered_to(iam, chat)
    assert any("call mom" in text for text in chat.replies())
    assert chat.say("done") == "✅ Marked “call mom” done."


def refer_back(iam: IamStack) -> None:
    """ "it" is the latest action the reply recorded (the responder appends it to the thread's latest
    actions); a reply quoting an earlier confirmation means that confirmation's reminder (its quote
    record)."""
    chat = _chat(iam)
    _set_call_mom(chat)
    confirmation = next(
        r.message_id
        for r in reversed(iam.local.sink.messages(to=chat.user.wa_id))
        if "Reminder set" in json.dumps(r.body, ensure_ascii=False)
    )
    moved = chat.say("move it to 6pm")
    assert "call mom" in moved and "18:00" in moved
    # A second reminder: now the latest action (shifted into the thread's latest actions, no read).
    assert chat.say("remind me to buy milk tomorrow at 9am").startswith("⏰ Reminder set: “buy milk”")
    assert "buy milk" in chat.say("move it to 10am")
    quoting = chat.user.text("move it to 7pm")
    quoting["context"] = {"from": "15550000000", "id": confirmation}
    (answer,) = chat.deliver(quoting)
    assert "call mom" in answer and "19:00" in answer


def undeliverable_reminders(iam: IamStack) -> None:
    """What cannot be delivered lands on the dead-letter queues: an event the Scheduler could not
    hand over (its role sends it to the schedule's queue), an event the function fails on after
    Lambda's retries (the function's role, to its on-failure destination)."""
    chat = _chat(iam)
    _set_call_mom(chat)
    schedule = iam.schedules()[0]
    dead_letters = schedule["Target"]["DeadLetterConfig"]["Arn"]
    iam.client("scheduler", "sqs").send_message(
        QueueUrl=iam.queue_url(dead_letters), MessageBody=schedule["Target"]["Input"]
    )
    assert iam.scheduler_invoke({"threadId": chat.user.wa_id}, LocalLambdaContext()) is None
    assert iam.queue_depth(dead_letters) == 1 and iam.queue_depth(iam.reminders_dead_letters) == 1


def operator_approves(iam: IamStack) -> None:
    """A delete the policy sends to an operator: a case and a kept task token; approved, it runs, and
    an agent listening on the case platform's bus hears of the decision."""
    chat = _chat(iam)
    case_id = _into_review(iam, chat)
    heard = _agent_listens(iam)
    Reviewer().call("POST", f"/review/cases/{case_id}/approve", {"request_id": "a1"})
    assert iam.local.stepfunctions is not None
    iam.local.stepfunctions.wait_all(timeout=WAIT_SECONDS)
    assert chat.replies() == ["Deleted the reminder “call mom”."]
    assert ("HITL case decision_recorded", [case_id]) in heard()


def operator_rejects(iam: IamStack) -> None:
    """A note's delete waits for an operator, who reads the case (the note), looks through the
    queries of the review API and rejects it: the user hears why."""
    chat = _chat(iam)
    chat.say("note: the wifi password is sunshine42")
    chat.say("delete the wifi note")
    choice = chat.choices[0]
    assert SENT_TO_REVIEW in chat.post(chat.user.button_reply(choice.id, choice.title))[0]
    _until_submitted(iam)
    reviewer = Reviewer()
    case_id = reviewer.waiting_case()
    assert "sunshine42" in json.dumps(reviewer.call("GET", f"/review/cases/{case_id}"))
    reviewer.call("GET", "/review/queries/list_by_principal", query="principal=agent:Memo")
    reviewer.call("GET", "/review/queries/escalations_due", query="within_ms=86400000")
    assert reviewer.tool("list_cases")["items"]  # every case, decided or not, through MCP
    reviewer.call("POST", f"/review/cases/{case_id}/reject", {"request_id": "r1", "reason": "not now"})
    assert iam.local.stepfunctions is not None
    iam.local.stepfunctions.wait_all(timeout=WAIT_SECONDS)
    assert any("not now" in text for text in chat.replies())
    assert "sunshine42" in chat.say("what's the wifi password?")


def _agent_listens(iam: IamStack) -> Callable[[], list[tuple[str, list[str]]]]:
    """An agent's rule on the notice bus, delivering the case platform's events to the agent's queue
    (set up by the agent, not a role of the stack); answers what the queue has heard so far:
    (detail-type, resources) of each event."""
    assert iam.local.resources is not None
    bus = iam.local.resources.event_bus_name
    sqs, events = boto3.client("sqs", region_name=REGION), boto3.client("events", region_name=REGION)
    url = sqs.create_queue(QueueName="agent-notices")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    events.put_rule(
        Name="agent", EventBusName=bus, EventPattern=json.dumps({"source": ["hitl.caseplatform"]})
    )
    events.put_targets(Rule="agent", EventBusName=bus, Targets=[{"Id": "agent-queue", "Arn": arn}])

    def heard() -> list[tuple[str, list[str]]]:
        messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
        return [(e["detail-type"], e["resources"]) for e in (json.loads(m["Body"]) for m in messages)]

    return heard


def a_decided_case_is_archived(iam: IamStack) -> None:
    """An adapter archives its decided cases after 30 days: a reviewer rejects an agent's case; a month
    later the daily retention run writes the whole case to the archive bucket, then blanks its
    payload."""
    owner = _archiving_adapter(iam)
    case_id = submit(owner)  # the agent's case, as the agent submits it
    Reviewer().call("POST", f"/review/cases/{case_id}/reject", {"request_id": "r1", "reason": "not this"})
    iam.clock.advance(days=ARCHIVE_AFTER_DAYS + 1)
    # The deployed function's 5 minutes: the run stops with HITL_PROJECTION_TIME_MARGIN_MS left.
    context = LocalLambdaContext(function_name="memo-escalation", timeout_seconds=300)
    run = load_handler("escalation")({"job": "retention"}, context)
    assert iam.local.resources is not None
    bucket, key = iam.local.resources.archive_bucket, f"{ARCHIVING_ADAPTER}/{case_id}.json"
    assert run["archived"] == {case_id: f"s3://{bucket}/{key}"}, run
    archived = boto3.client("s3", region_name=REGION).get_object(Bucket=bucket, Key=key)
    assert json.loads(archived["Body"].read())["payload"]["site"] == "Plant Haifa"
    assert set(owner.get_record(case_id).case.payload.values()) == {REDACTED}


def _archiving_adapter(iam: IamStack) -> CaseService:
    """The adapter's owner registers (with the `hitl` tools, not a role of the stack) a version of its
    schema that archives decided cases; the owner's case service, on the stack's clock."""
    store = DynamoCaseStore(tables.CASES.default_name, boto3.client("dynamodb", region_name=REGION))
    owner = build_case_service(store, clock=lambda: int(iam.clock().timestamp() * 1000))
    owner.ensure_default_adapters()
    active = store.active_schema(ARCHIVING_ADAPTER)
    assert active is not None
    retention = {"after_days": ARCHIVE_AFTER_DAYS, "archive": True}
    owner.register_adapter_schema(
        ARCHIVING_ADAPTER, 2, {**active.schema, "x-hitl": {**active.schema["x-hitl"], "retention": retention}}
    )
    owner.activate_adapter_schema(ARCHIVING_ADAPTER, 2)
    return owner


def user_withdraws(iam: IamStack) -> None:
    """ "cancel" while an operator reviews: the case closes, the review function ends the wait."""
    chat = _chat(iam)
    case_id = _into_review(iam, chat)
    assert "withdrew" in chat.say("cancel that")
    assert Reviewer().call("GET", f"/review/cases/{case_id}")["state"]["current_state"] == "rejected"


def operator_asks(iam: IamStack) -> None:
    """The operator reads the case (the user's reminder and words) and asks the user on WhatsApp; the
    answer goes to the case; asked again, the operator decides before the user answers, which takes
    the open question back; the step runs."""
    chat = _chat(iam)
    case_id = _into_review(iam, chat)
    reviewer = Reviewer()
    assert "call mom" in json.dumps(reviewer.call("GET", f"/review/cases/{case_id}"))
    reviewer.call("POST", f"/review/cases/{case_id}/clarify", {"request_id": "q1", "question": "Which mom?"})
    assert any("Which mom?" in text for text in chat.replies())
    assert chat.post(chat.user.text("My mother")) == [
        "I've passed that on to the reviewer. I'll message you as soon as it's decided."
    ]
    reviewer.call("POST", f"/review/cases/{case_id}/clarify", {"request_id": "q2", "question": "Today's?"})
    reviewer.call("POST", f"/review/cases/{case_id}/approve", {"request_id": "a1"})
    assert iam.local.stepfunctions is not None
    iam.local.stepfunctions.wait_all(timeout=WAIT_SECONDS)
    assert chat.replies()[-1] == "Deleted the reminder “call mom”."
    assert not chat.say("thanks").startswith("I've passed")  # the question was taken back


def a_question_escalates(iam: IamStack) -> None:
    """A case waiting past its SLA for the user's answer is escalated to the topic; the daily job
    checks the case projection."""
    chat = _chat(iam)
    case_id = _into_review(iam, chat)
    Reviewer().call(
        "POST", f"/review/cases/{case_id}/clarify", {"request_id": "q1", "question": "Which mom?"}
    )
    iam.clock.advance(days=2)
    escalation = load_handler("escalation")
    swept = escalation({}, LocalLambdaContext(function_name="memo-escalation"))
    assert swept["escalated"] == [case_id] and swept["notified"] == [case_id], swept
    assert (
        escalation({"job": "drift"}, LocalLambdaContext(function_name="memo-escalation"))["drifted"] is False
    )


def the_number_changes(iam: IamStack) -> None:
    """Meta's notice of a changed number moves the user's items, schedules and thread."""
    chat = _chat(iam)
    _set_call_mom(chat)
    assert (
        chat.notify(changed_number(chat.user.wa_id, NEW_NUMBER, timestamp=int(iam.clock().timestamp()))) == []
    )
    chat.user = WhatsAppUser(wa_id=NEW_NUMBER, name="Dana")
    assert "call mom" in chat.say("show my reminders")
    assert NEW_NUMBER in iam.schedules()[0]["Target"]["Input"]


def a_reminder_delivery_fails(iam: IamStack) -> None:
    """Meta reports a delivered reminder failed outside the 24-hour window: it is marked on the item
    and sent again once as a template."""
    chat = _chat(iam)
    a_reminder_is_delivered_to(iam, chat)
    sent = iam.local.sink.messages(to=chat.user.wa_id)[-1]
    failure = {"biz_opaque_callback_data": sent.tag} if sent.tag else {}
    chat.notify(
        envelope(
            [
                status_value(
                    status(sent.message_id, "failed", chat.user.wa_id, errors=FAILED_131047, **failure)
                )
            ]
        )
    )
    assert any(r.body.get("type") == "template" for r in iam.local.sink.messages(to=chat.user.wa_id))


def a_reminder_is_delivered_to(iam: IamStack, chat: Chat) -> None:
    _set_call_mom(chat, "in 2 hours")  # relative to the test clock, whatever day it stands at
    iam.clock.advance(hours=2, minutes=1)
    assert iam.local.ticker is not None
    iam.local.ticker.tick()


def a_leftover_schedule_fires(iam: IamStack) -> None:
    """A delete whose schedule cancel failed after it committed leaves a repeating reminder's
    schedule behind: when it fires, the reminders function finds the reminder cancelled, sends
    nothing and deletes the schedule."""
    chat = _chat(iam)
    assert "water the plants" in chat.say("remind me to water the plants every day at 7pm")
    (schedule,) = iam.schedules()
    event = json.loads(schedule["Target"]["Input"])
    # The delete's tombstone, as a committed delete leaves it (its schedule cancel then failed).
    boto3.client("dynamodb", region_name="us-east-1").update_item(
        TableName="memo-items",
        Key={"pk": {"S": f"USER#{event['threadId']}"}, "sk": {"S": f"REMINDER#{event['reminderId']}"}},
        UpdateExpression="SET #s = :c, undo_key = :k",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":c": {"S": "cancelled"}, ":k": {"S": "wamid.deleted"}},
    )
    assert iam.scheduler_invoke(event, LocalLambdaContext())["outcome"] == "cancelled"
    assert iam.schedules() == []


def a_series_runs_out(iam: IamStack) -> None:
    """Skipping the last time of a repeating reminder deletes it (a tombstone "undo" restores) and
    its schedule."""
    chat = _chat(iam)
    chat.say("remind me to water the plants every day at 7pm 2 times")
    # The first skip leaves one time to come; the second skips the last one, which ends the series.
    for asked in ("it goes on after that", "only the next time"):
        assert asked in chat.say("skip the next one")
        assert chat.say("yes").startswith("✅ Skipped “water the plants”")
    assert iam.schedules() == []
    assert "water the plants" not in chat.say("show my reminders")


def a_step_runs_again(iam: IamStack) -> None:
    """A step whose schedule call fails for a moment gives its claim back and runs again; run once
    more after the reply (a redrive), it answers from the ledger without running; run again under an
    approval that has expired since, it reads the ledger first and still answers what it did."""
    from memo.aws.scheduler import EventBridgeReminderScheduler
    from memo.errors import TransientFault

    failing = [TransientFault("throttled")]
    schedule = EventBridgeReminderScheduler.schedule

    def throttled_once(self: Any, *args: Any, **kwargs: Any) -> Any:
        if failing:
            raise failing.pop()
        return schedule(self, *args, **kwargs)

    with _patched(EventBridgeReminderScheduler, "schedule", throttled_once):
        _set_call_mom(_chat(iam))
    assert iam.local.stepfunctions is not None
    (step,) = [i for i in iam.local.stepfunctions.invocations if i.function_name == "memo-executor"][-1:]
    again = iam.client("state_machine", "lambda").invoke(
        FunctionName=function_arn("memo-executor"), Payload=json.dumps(step.event)
    )
    # The ledger's entry holds the step's replay: the re-run is not run again, and says it was done.
    outcome = json.loads(again["Payload"].read())
    assert outcome["replayed"] and outcome["result"]["success"]
    expired = Approval(
        hitl_id="h", args_hash=args_hash(step.event["args"]), expires_at=TEST_NOW - timedelta(days=1)
    )
    late = iam.client("state_machine", "lambda").invoke(
        FunctionName=function_arn("memo-executor"),
        Payload=json.dumps({**step.event, "approval": expired.model_dump(mode="json")}),
    )
    outcome = json.loads(late["Payload"].read())
    assert outcome["replayed"] and outcome["result"]["success"]


def a_reply_meta_refuses(iam: IamStack) -> None:
    """A reply the Graph API refuses (a 4xx: certainly not delivered) gives the reply's claim back,
    so a retry of the responder may send it."""
    chat = _chat(iam)
    sink = iam.local.sink
    answer = sink.post

    def refused(phone_number_id: str, body: dict[str, Any]) -> SinkAnswer:
        if "Reminder set" in json.dumps(body, ensure_ascii=False):
            sink.record(phone_number_id, body)
            return SinkAnswer(400, {"error": {"message": "refused", "type": "OAuthException", "code": 100}})
        return answer(phone_number_id, body)

    with _patched(sink, "post", refused):
        chat.deliver(chat.user.text("remind me to call mom tomorrow at 5pm"))
    assert iam.conversation_item(chat.user.wa_id, "CLAIM#REPLY#") == []


@contextmanager
def _patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


Flow = Callable[[IamStack], None]
FLOWS: dict[str, Flow] = {
    flow.__name__: flow
    for flow in (
        set_a_reminder,
        delete_a_reminder,
        move_a_reminder,
        keep_lists_and_notes,
        a_reminder_is_delivered,
        undeliverable_reminders,
        operator_approves,
        operator_rejects,
        user_withdraws,
        operator_asks,
        a_question_escalates,
        a_decided_case_is_archived,
        the_number_changes,
        a_reminder_delivery_fails,
        a_series_runs_out,
        a_leftover_schedule_fires,
        a_step_runs_again,
        a_reply_meta_refuses,
        refer_back,
    )
}
# Flows that need the review policy to send reminder deletes to an operator.
REVIEWED = frozenset(
    {"operator_approves", "operator_rejects", "user_withdraws", "operator_asks", "a_question_escalates"}
)


def environ(flow: str) -> dict[str, str]:
    if flow == "move_a_reminder":
        # Each reply's latest actions are too large to append: read and merged into the thread's.
        return {"MEMO_LATEST_ACTIONS_APPEND_MAX_BYTES": "1"}
    return {"MEMO_REVIEW_POLICY": REVIEW_DELETES} if flow in REVIEWED else {}
