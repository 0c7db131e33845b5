"""The turn path on moto: SQS FIFO batch -> idempotency -> turn engine -> reply through the sink.

Exactly one turn and one reply per WhatsApp message, whether the duplicate arrives at the webhook or
at the queue, one after the other or at the same time.
"""

from __future__ import annotations

import threading

import boto3
import pytest

from memo.local.context import LocalLambdaContext
from memo.local.events import sqs_event
from memo.local.functions import load_handler
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser, envelope
from tests.support.webhook import post


def _replies(stack: LocalStack, to: str = "972501234567") -> list[dict]:
    return [r.body for r in stack.sink.messages(to=to)]


def _texts(stack: LocalStack, to: str = "972501234567") -> list[str]:
    return [b["text"]["body"] for b in _replies(stack, to) if b["type"] == "text"]


def _turns(stack: LocalStack) -> int:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    return sum(
        1
        for item in ddb.scan(TableName="memo-conversation")["Items"]
        if item["sk"]["S"].startswith("MSG#") and item["message"]["M"]["role"]["S"] == "user"
    )


def test_a_greeting_gets_a_friendly_reply_and_a_read_receipt(stack: LocalStack, user: WhatsAppUser) -> None:
    message = user.text("Hello!")
    post(user.payload(message))
    assert stack.poller is not None and stack.poller.drain() == 1
    (reply,) = _texts(stack)
    assert reply.startswith(("Good morning, Dana!", "Good afternoon, Dana!", "Good evening, Dana!"))
    receipts = [r.body for r in stack.sink.messages() if False] + [
        r.body for r in stack.sink._records if r.is_read_receipt
    ]
    assert receipts == [{"messaging_product": "whatsapp", "status": "read", "message_id": message["id"]}]


def test_hebrew_small_talk_is_answered_in_hebrew(stack: LocalStack, user: WhatsAppUser) -> None:
    post(user.payload(user.text("היי, מה נשמע?")))
    assert stack.poller is not None
    stack.poller.drain()
    (reply,) = _texts(stack)
    assert "תודה" in reply


@pytest.mark.parametrize(
    "kind", ["image", "video", "document", "sticker", "location", "contacts", "order", "unsupported"]
)
def test_non_text_messages_get_one_polite_text_only_reply(stack: LocalStack, kind: str) -> None:
    # A new user Memo has read no word from is answered in the language of the number's country.
    user = WhatsAppUser(wa_id="15551234567")
    post(user.payload(user.message(kind, {kind: {"id": "m1"}})))
    assert stack.poller is not None
    stack.poller.drain()
    assert _texts(stack, "15551234567") == [
        "For now I can only read text messages 🙏 Could you type that for me?"
    ]


def test_the_text_only_reply_follows_the_users_language(stack: LocalStack, user: WhatsAppUser) -> None:
    post(user.payload(user.text("שלום")))
    post(user.payload(user.message("image", {"image": {"id": "m1"}})))
    assert stack.poller is not None
    stack.poller.drain()
    assert "טקסט" in _texts(stack)[-1]


def test_a_batch_of_several_users_answers_each_in_order(stack: LocalStack) -> None:
    dana, noa = WhatsAppUser(wa_id="972500000001"), WhatsAppUser(wa_id="972500000002", name="Noa")
    post(envelope([dana.value([dana.text("hi"), dana.text("thanks")]), noa.value([noa.text("שלום")])]))
    assert stack.poller is not None
    stack.poller.drain()
    dana_texts = _texts(stack, "972500000001")
    assert len(dana_texts) == 2 and dana_texts[1].startswith("You're welcome")
    assert "Noa" in _texts(stack, "972500000002")[0]


def test_duplicate_at_the_webhook_sequential_gives_one_turn(stack: LocalStack, user: WhatsAppUser) -> None:
    message = user.text("hi")
    post(user.payload(message))
    assert stack.poller is not None
    stack.poller.drain()
    # Meta retries after the SQS dedup window: the message reaches the queue again.
    stack.sink.messages()
    assert stack.resources is not None
    boto3.client("sqs", region_name="us-east-1").send_message(
        QueueUrl=stack.resources.queue_url,
        MessageBody=_inbound_json(user, message),
        MessageGroupId="g",
        MessageDeduplicationId="after-dedup-window",
    )
    post(user.payload(message))
    stack.poller.drain()
    assert len(_texts(stack)) == 1
    assert _turns(stack) == 1


def test_duplicate_at_the_webhook_concurrent_gives_one_turn(stack: LocalStack, user: WhatsAppUser) -> None:
    payload = user.payload(user.text("hi"))
    start = threading.Barrier(4)
    statuses: list[int] = []

    def deliver() -> None:
        start.wait()
        statuses.append(post(payload)["statusCode"])

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200, 200, 200, 200]
    assert stack.poller is not None
    stack.poller.drain()
    assert len(_texts(stack)) == 1 and _turns(stack) == 1


def test_duplicate_at_the_queue_sequential_gives_one_turn(stack: LocalStack, user: WhatsAppUser) -> None:
    event = _event_for(stack, user, user.text("hi"))
    handler = load_handler("webhook")
    first = handler(event, LocalLambdaContext())
    second = handler(event, LocalLambdaContext())  # SQS redelivers the same record
    assert first == second == {"batchItemFailures": []}
    assert len(_texts(stack)) == 1 and _turns(stack) == 1


def test_duplicate_at_the_queue_concurrent_gives_one_turn(stack: LocalStack, user: WhatsAppUser) -> None:
    """Two deliveries of one record run at once (the FIFO queue never does this: one thread's messages
    are turned one at a time; this is the proof it would still hold): both turn the message, the one
    whose transaction commits first answers, the other finds the record written and sends nothing.
    A later redelivery is answered from the record: still one turn, one reply."""
    event = _event_for(stack, user, user.text("hi"))
    handler = load_handler("webhook")
    in_turn, release = threading.Event(), threading.Event()
    runtime_sender = _blocking_read_receipts(in_turn, release)
    results: dict[str, dict] = {}

    first = threading.Thread(target=lambda: results.setdefault("first", handler(event, LocalLambdaContext())))
    first.start()
    assert in_turn.wait(10)
    results["second"] = handler(event, LocalLambdaContext())
    assert len(_texts(stack)) == 1  # the second delivery answered while the first was held
    release.set()
    first.join(10)
    runtime_sender.restore()
    assert results == {"first": {"batchItemFailures": []}, "second": {"batchItemFailures": []}}
    assert handler(event, LocalLambdaContext()) == {"batchItemFailures": []}  # the redelivery
    assert len(_texts(stack)) == 1 and _turns(stack) == 1


def test_a_failed_send_keeps_the_turns_memory(
    stack: LocalStack, user: WhatsAppUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WHATSAPP_API_BASE_URL", "http://127.0.0.1:9/graph/v21.0")  # nothing listens there
    monkeypatch.setenv("WHATSAPP_SEND_MAX_ATTEMPTS", "1")
    from memo.wiring import reset_runtime
    from memo.wiring.webhook import WebhookRuntime

    reset_runtime(WebhookRuntime)
    post(user.payload(user.text("hello")))
    assert stack.poller is not None
    stack.poller.drain()
    assert _texts(stack) == []
    assert _turns(stack) == 1  # remembered, even though WhatsApp could not be reached


def _inbound_json(user: WhatsAppUser, message: dict) -> str:
    from memo.ingress.messages import parse_webhook
    from memo.ingress.wire import parse_payload

    return parse_webhook(parse_payload(user.payload(message))).messages[0].to_json()


def _event_for(stack: LocalStack, user: WhatsAppUser, message: dict) -> dict:
    assert stack.resources is not None
    record = {
        "MessageId": "sqs-msg-1",
        "ReceiptHandle": "rh-1",
        "Body": _inbound_json(user, message),
        "Attributes": {"MessageGroupId": "g1", "MessageDeduplicationId": message["id"]},
    }
    return sqs_event([record], stack.resources.queue_arn)


class _Restore:
    def __init__(self, target: object, name: str, original: object) -> None:
        self._target, self._name, self._original = target, name, original

    def restore(self) -> None:
        setattr(self._target, self._name, self._original)


def _blocking_read_receipts(in_turn: threading.Event, release: threading.Event) -> _Restore:
    """Hold the first turn inside its read receipt until the test lets it go (later turns pass)."""
    from memo.wiring.webhook import WebhookRuntime

    sender = WebhookRuntime.current().sender
    original = sender.mark_read

    def mark_read(phone_number_id: str, wamid: str) -> None:
        if not in_turn.is_set():
            in_turn.set()
            release.wait(10)
        original(phone_number_id, wamid)

    sender.mark_read = mark_read  # type: ignore[method-assign]
    return _Restore(sender, "mark_read", original)
