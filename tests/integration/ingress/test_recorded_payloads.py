"""Every webhook payload of `tests/fixtures/whatsapp/`, as Meta documents it and as two client libraries
(pywa, netflie/whatsapp-cloud-api) record it, replayed signed through the webhook handler, the FIFO
poller and the turn on the local stack: every row of the event table has its payloads, Memo reads each
as its row, answers or stays silent as the row says, and nothing fails.

The payloads are posted as recorded: their numbers, ids and timestamps are kept. Memo reads a message's
`timestamp` only to order number changes (an older change never undoes a newer one), so a payload dated
years before the test clock is handled as a fresh one; nothing needs rebasing onto the clock."""

from __future__ import annotations

import json
import logging
from typing import Any

import boto3
import pytest

from memo.ingress.events import GROUP_ROW, MESSAGE_EVENTS, STATUS_EVENTS, EventRow
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import TEST_NOW
from tests.support.conversation import Conversation, LogEvents
from tests.support.webhook import post
from tests.support.whatsapp_fixtures import FIXTURES, Recorded, rebased, recorded, rows_read, sources

RECORDED = recorded()
ROWS: dict[str, EventRow] = {row.key: row for row in (*MESSAGE_EVENTS, GROUP_ROW, *STATUS_EVENTS)}
TEXT_ONLY = (
    "For now I can only read text messages 🙏 Could you type that for me?",
    "כרגע אני קורא רק הודעות טקסט 🙏 אפשר לכתוב לי את זה במילים?",
)
# The handlings that answer a private message (once per message; "text only" once per user and batch).
ANSWERED = frozenset({"turn", "text_only", "welcome", "voice"})


def _ids(fixture: Recorded) -> str:
    return fixture.id


def test_every_fixture_file_is_listed_with_its_source_and_licence() -> None:
    manifest = sources()
    on_disk = {str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*.json") if p.name != "SOURCES.json"}
    listed = {entry["file"] for entry in manifest["fixtures"]}
    assert on_disk == listed
    for name, source in manifest["sources"].items():
        assert source["licence"], name
        if name != "meta":
            assert len(source["commit"]) == 40 and (FIXTURES / name / "LICENSE").is_file(), name
    for entry in manifest["fixtures"]:
        assert entry["source"] in manifest["sources"] and entry["origin"], entry
        if entry["source"] == "meta":
            assert entry["as"] in manifest["sources"]["meta"]["as"], entry
            assert entry["as"] == "verbatim" or entry.get("note"), entry
    keyed: dict[str, set[str]] = {e["file"]: set() for e in manifest["fixtures"] if "key" in e}
    for entry in manifest["fixtures"]:
        if "key" in entry:
            keyed[entry["file"]].add(entry["key"])
    for file, keys in keyed.items():  # every sample of a library's file is replayed, none left out
        assert keys == set(json.loads((FIXTURES / file).read_text(encoding="utf-8"))), file


def test_every_row_has_a_documented_payload_and_a_library_sample() -> None:
    manifest = sources()
    documented = {row for fixture in RECORDED if fixture.source == "meta" for row in fixture.rows}
    sampled = {row for fixture in RECORDED if fixture.source != "meta" for row in fixture.rows}
    assert len({fixture.source for fixture in RECORDED} - {"meta"}) >= 2
    # A row added to the table without a fixture fails here, and so does a reason that no longer holds.
    assert set(ROWS) - documented == set(manifest["without_documented_example"])
    assert set(ROWS) - sampled == set(manifest["without_library_sample"])
    assert documented | sampled <= set(ROWS)


@pytest.mark.parametrize("fixture", RECORDED, ids=_ids)
def test_memo_reads_each_payload_as_the_rows_it_stands_for(fixture: Recorded) -> None:
    assert rows_read(fixture.body) == list(fixture.rows)


def _timestamps(body: dict[str, Any]) -> list[int]:
    values = body["entry"][0]["changes"][0]["value"]
    stamps = [m.get("timestamp") for m in values.get("messages", []) + values.get("statuses", [])]
    return [int(s) for s in stamps if isinstance(s, int | str) and str(s).isdigit()]


def test_the_payloads_are_dated_before_the_test_clock_and_replayed_so() -> None:
    stamps = [stamp for fixture in RECORDED for stamp in _timestamps(fixture.body)]
    assert stamps and max(stamps) < TEST_NOW.timestamp() - 86_400


def _user_messages() -> int:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    items = ddb.scan(TableName="memo-conversation")["Items"]
    return sum(
        1 for i in items if i["sk"]["S"].startswith("MSG#") and i["message"]["M"]["role"]["S"] == "user"
    )


def _queued(stack: LocalStack) -> int:
    """Messages left on the turn queue or its dead-letter queue."""
    assert stack.resources is not None
    sqs = boto3.client("sqs", region_name="us-east-1")
    left = 0
    for url in (stack.resources.queue_url, stack.resources.dlq_url):
        attributes = sqs.get_queue_attributes(
            QueueUrl=url,
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        left += sum(int(count) for count in attributes.values())
    return left


def _replies_expected(fixture: Recorded) -> int:
    """One answer per message a private answer is due to; a message id repeated in the body is one
    message (the queue and the turn deduplicate by it), and "text only" is said once per user and batch."""
    messages = [
        m for e in fixture.body["entry"] for c in e["changes"] for m in c["value"].get("messages", [])
    ]
    keys = [key for key in fixture.rows if not key.startswith(("status.", "account."))]
    handlings = {m["id"]: ROWS[key].handling for m, key in zip(messages, keys, strict=True)}.values()
    text_only = min(1, list(handlings).count("text_only"))
    return sum(1 for h in handlings if h in ANSWERED and h != "text_only") + text_only


@pytest.mark.parametrize("fixture", RECORDED, ids=_ids)
def test_each_payload_replayed_as_recorded_gets_its_rows_answer(
    fixture: Recorded, stack: LocalStack, log_events: LogEvents
) -> None:
    response = post(json.dumps(fixture.body, ensure_ascii=False).encode())  # signed, as recorded
    assert response["statusCode"] == 200, response
    assert stack.poller is not None
    stack.poller.drain()
    if stack.stepfunctions is not None:
        stack.stepfunctions.wait_all()
    replies = [r for r in stack.sink.messages() if not r.is_read_receipt]
    assert len(replies) == _replies_expected(fixture), [r.body for r in replies]
    for key in fixture.rows:
        assert log_events.named(ROWS[key].log), (key, log_events.names())
    if [ROWS[key].handling for key in fixture.rows] == ["text_only"]:
        [reply] = replies
        assert reply.body["text"]["body"] in TEXT_ONLY
    if not replies:
        assert _user_messages() == 0  # what is not answered leaves no trace in any thread
    failures = [r.getMessage() for r in log_events.records if r.levelno >= logging.ERROR]
    assert failures == [] and _queued(stack) == 0  # nothing failed, nothing left for a retry or the DLQ


# --- what the recorded shapes carry, put to use: the user's numbers and Memo's own ids put in ---------


def _deliver(chat: Conversation, body: dict[str, Any]) -> list[str]:
    assert post(body)["statusCode"] == 200
    assert chat.stack.poller is not None
    chat.stack.poller.drain()
    if chat.stack.stepfunctions is not None:
        chat.stack.stepfunctions.wait_all()
    return chat.replies()


def _only(body: dict[str, Any], kind: str) -> dict[str, Any]:
    [found] = body["entry"][0]["changes"][0]["value"][kind]
    item: dict[str, Any] = found
    return item


@pytest.mark.parametrize("fixture", [f for f in RECORDED if f.rows == ("edit",)], ids=_ids)
def test_an_edited_caption_is_the_answer_to_the_open_question(
    fixture: Recorded, chat: Conversation, user: WhatsAppUser, log_events: LogEvents
) -> None:
    # Was silent: Memo read only an edit's `text`, and Meta documents an edited photo's new caption in
    # `edit.message.image.caption`: the answer the person corrected their photo into was lost.
    assert "?" in chat.say("remind me to pay the electricity bill")
    photo = user.message("image", {"image": {"caption": "look", "id": "1479537139650990"}})
    assert "When should I remind you?" in chat.deliver(photo)[0]  # "look" answers nothing: asked again
    body = rebased(fixture.body, user.wa_id)
    edit = _only(body, "messages")["edit"]
    edit["original_message_id"] = photo["id"]
    edit["message"][edit["message"]["type"]]["caption"] = "tomorrow at 9"
    [answer] = _deliver(chat, body)
    assert answer.startswith("⏰ Reminder set: “pay the electricity bill”"), answer
    assert log_events.named("EVENT_ANSWERS_QUESTION")


STATUSES = [f for f in RECORDED if len(f.rows) == 1 and f.rows[0].startswith("status.")]


@pytest.mark.parametrize("fixture", STATUSES, ids=_ids)
def test_a_recorded_status_of_memos_own_reply_is_read_by_the_tag_meta_echoes(
    fixture: Recorded, chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    reply = stack.sink.messages(to=user.wa_id)[-1]
    body = rebased(fixture.body, user.wa_id)
    status = _only(body, "statuses")
    status.update(id=reply.message_id, biz_opaque_callback_data=reply.tag)
    assert _deliver(chat, body) == []  # a status is never answered, nor anything sent again
    tag = json.loads(str(reply.tag))
    if status["status"] == "failed":
        [followed] = log_events.named("DELIVERY_FAILED_FOLLOWED_UP")
        codes = [e["code"] for e in status["errors"]]
        assert (followed["messageId"], followed["carried"], followed["metaErrorCodes"]) == (
            reply.message_id,
            "reply",
            codes,
        )
    else:
        [logged] = [e for e in log_events.named("WHATSAPP_STATUS") if e["messageId"] == reply.message_id]
        assert (logged["status"], logged["tracked"], logged["sendToken"]) == (
            status["status"],
            True,
            tag["s"],
        )


@pytest.mark.parametrize(
    "fixture", [f for f in RECORDED if f.rows == ("system.user_changed_number",)], ids=_ids
)
def test_a_recorded_number_change_takes_the_users_list_along(
    fixture: Recorded, chat: Conversation, user: WhatsAppUser, log_events: LogEvents
) -> None:
    new = "972509999999"
    assert chat.say("add milk to my shopping list") == "Added milk to your shopping list."
    body = rebased(fixture.body, user.wa_id)
    system = _only(body, "messages")["system"]
    system.update({field: new for field in ("wa_id", "new_wa_id") if field in system})
    assert _deliver(chat, body) == []  # dated years before the test clock, and still the newest change
    assert [e["result"] for e in log_events.named("NUMBER_CHANGED")] == ["moved"]
    chat.user = WhatsAppUser(wa_id=new, name=user.name)
    assert "milk" in chat.say("show my shopping list")
