"""What a person does with WhatsApp besides typing, through the webhook handler (signed payloads),
the FIFO poller, Step Functions, the reminders ticker and the local Graph API sink: voice notes, an
edit that answers Memo's question, a reaction, a changed number, and a reminder Meta failed to
deliver. The number move and the failed-delivery retry are each checked under duplicate delivery."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
import time_machine

from memo.aws.dynamo import from_item
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser, envelope
from tests.integration.ingress.fixtures import FAILED_131047, status, status_value
from tests.integration.turn.fake_transcription import FakeTranscription
from tests.support import week
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents, chat_at
from tests.support.webhook import post
from tests.support.whatsapp_fixtures import changed_number

OLD, NEW = "972501234567", "972509999999"
START = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # Monday 09:00 in Jerusalem


def _ddb() -> Any:
    return boto3.client("dynamodb", region_name="us-east-1")


def _items(thread: str) -> list[dict[str, Any]]:
    raw = _ddb().query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{thread}"}},
    )["Items"]
    return [from_item(i) for i in raw]


def _thread(thread: str) -> dict[str, dict[str, Any]]:
    raw = _ddb().query(
        TableName="memo-conversation",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"THREAD#{thread}"}},
    )["Items"]
    return {str(item["sk"]): item for item in map(from_item, raw)}


# --- a changed number ---------------------------------------------------------------------------


def _notify(chat: Conversation, payload: dict[str, Any]) -> list[str]:
    """Post a whole webhook body (signed) as Meta sends it, and run the turns it queued."""
    assert post(payload)["statusCode"] == 200
    assert chat.stack.poller is not None
    chat.stack.poller.drain()
    return chat.replies()


def _moved_results(log_events: LogEvents) -> list[str]:
    return [e["result"] for e in log_events.named("NUMBER_CHANGED")]


def test_a_changed_number_takes_everything_along_exactly_once(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")
    chat.say("add milk to my shopping list")
    question = chat.say("delete all my reminders")  # an open question moves too
    assert "Approve" in [c.title for c in chat.choices], question
    before = sorted(str(i["sk"]) for i in _items(OLD))
    assert len(before) == 2

    # Meta's documented notice: from the old number, the new one in `system.wa_id` only.
    changed_at = int(time.time())
    notice = changed_number(OLD, NEW, timestamp=changed_at)
    assert _notify(chat, notice) == []  # not answered, at the old number or anywhere
    assert stack.sink.messages(to=NEW) == []
    assert _items(OLD) == [] and sorted(str(i["sk"]) for i in _items(NEW)) == before
    assert all(i["thread_id"] == NEW for i in _items(NEW))
    moved = _thread(NEW)
    assert moved["PROFILE"]["profile"]["wa_id"] == NEW and "PENDING" in moved
    assert [sk for sk in _thread(OLD)] == []
    [reminder] = [i for i in _items(NEW) if i["kind"] == "reminder"]
    schedule = boto3.client("scheduler", region_name="us-east-1").get_schedule(
        Name=reminder["schedule_name"], GroupName="memo-reminders"
    )
    assert f'"threadId":"{NEW}"' in schedule["Target"]["Input"]

    # Meta delivers the same notice again, and then sends it once more under a new id: nothing moves twice.
    assert _notify(chat, notice) == []
    assert log_events.named("DUPLICATE_SKIPPED")
    assert _notify(chat, changed_number(OLD, NEW, timestamp=changed_at)) == []
    assert _moved_results(log_events) == ["moved", "nothing_to_move"]
    assert sorted(str(i["sk"]) for i in _items(NEW)) == before

    # The user goes on from the new number: their reminder, list and question are there.
    chat.user = WhatsAppUser(wa_id=NEW, name="Dana")
    assert chat.tap(1) == "Deleted 1 reminder: “call mom”."
    assert "milk" in chat.say("show my shopping list")


def test_the_older_notice_naming_new_wa_id_still_moves_the_data(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("add milk to my shopping list")
    assert _notify(chat, changed_number(OLD, NEW, timestamp=int(time.time()), field="new_wa_id")) == []
    assert _moved_results(log_events) == ["moved"]
    assert _items(OLD) == [] and [i["kind"] for i in _items(NEW)] == ["list_item"]
    chat.user = WhatsAppUser(wa_id=NEW, name="Dana")
    assert "milk" in chat.say("show my shopping list")


def test_two_changes_delivered_out_of_order_end_on_the_newest_number(
    chat: Conversation, log_events: LogEvents
) -> None:
    """A -> B, then B -> C a minute later; Meta delivers the second first (each notice is queued
    under its own old number, so nothing orders them)."""
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set")
    latest = NEW[:-1] + "8"
    t1 = int(time.time())
    assert _notify(chat, changed_number(NEW, latest, timestamp=t1 + 60)) == []  # B -> C, nothing on B yet
    assert _notify(chat, changed_number(OLD, NEW, timestamp=t1)) == []  # A -> B, older
    assert _moved_results(log_events) == ["nothing_to_move", "moved"]
    assert _items(OLD) == [] and _items(NEW) == [] and _thread(OLD) == {} and _thread(NEW) == {}
    [reminder] = _items(latest)
    assert reminder["thread_id"] == latest
    assert _thread(latest)["PROFILE"]["profile"]["wa_id"] == latest

    # The older notice delivered once more (a new id): it never undoes the newer change.
    assert _notify(chat, changed_number(OLD, NEW, timestamp=t1)) == []
    assert [i["sk"] for i in _items(latest)] == [reminder["sk"]] and _items(NEW) == []


def test_a_repeating_reminder_moves_and_then_fires_at_the_new_number(
    monkeypatch: pytest.MonkeyPatch, log_events: LogEvents
) -> None:
    """The series began days before the move: its schedule is made again from its next time (the
    Scheduler refuses a recurring start more than 5 minutes in the past), same rule, same 09:00."""
    clock = FakeClock(week.at(0, 8))
    with chat_at(monkeypatch, clock) as chat:
        assert chat.say("remind me every day at 9am to take my pills").startswith("🔁 Reminder set")
        assert any("take my pills" in r for r in week.fired(chat, clock, 0, 9))  # Monday, at the old number

        # Thursday noon, days after the series began (the process clock too: it is what AWS checks).
        with time_machine.travel(week.at(3, 12), tick=True):
            clock.set(week.at(3, 12))
            assert _notify(chat, changed_number(OLD, NEW, timestamp=int(week.at(3, 12).timestamp()))) == []
            assert _moved_results(log_events) == ["moved"]
            [reminder] = _items(NEW)
            schedule = boto3.client("scheduler", region_name="us-east-1").get_schedule(
                Name=reminder["schedule_name"], GroupName="memo-reminders"
            )
            # The next 09:00, not Monday's (moto checks a recurring start only on create, AWS on update too).
            assert schedule["StartDate"] == week.at(4, 9)
            assert f'"threadId":"{NEW}"' in schedule["Target"]["Input"]

            chat.user = WhatsAppUser(wa_id=NEW, name="Dana")
            assert any("take my pills" in r for r in week.fired(chat, clock, 4, 9))
            assert chat.stack.sink.messages(to=OLD, after=chat.seen) == []


# --- a reaction and an edit ---------------------------------------------------------------------


def test_a_thumbs_up_on_an_approval_is_not_an_approval(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    question = stack.sink.messages(to=user.wa_id)[-1]
    question_id = f"wamid.local.{question.index + 1}"  # the sink numbers every request from 1
    reaction = user.message("reaction", {"reaction": {"message_id": question_id, "emoji": "👍"}})
    assert chat.deliver(reaction) == []
    assert "PENDING" in _thread(user.wa_id)  # still waiting for a real answer
    assert log_events.named("REACTION_RECEIVED")[0]["targetId"] == question_id
    assert chat.tap(3) == "OK, cancelled. Nothing was changed."
    assert "call mom" in chat.say("show my reminders")


def test_editing_the_request_answers_the_question_it_raised(
    chat: Conversation, user: WhatsAppUser, log_events: LogEvents
) -> None:
    request = user.text("remind me to call mom")
    [question] = chat.deliver(request)
    assert "PENDING" in _thread(user.wa_id), question
    edit = user.message(
        "edit",
        {
            "edit": {
                "original_message_id": request["id"],
                "message": {"type": "text", "text": {"body": "remind me to call mom tomorrow at 5pm"}},
            }
        },
    )
    [answer] = chat.deliver(edit)
    assert answer.startswith("⏰ Reminder set: “call mom”"), answer
    assert log_events.named("EVENT_ANSWERS_QUESTION")
    # An edit of an older message, with no question waiting on it, changes nothing.
    old_edit = user.message(
        "edit",
        {"edit": {"original_message_id": request["id"], "message": {"type": "text", "text": {"body": "x"}}}},
    )
    assert chat.deliver(old_edit) == []


def test_in_hebrew_an_edit_answers_too(chat: Conversation, user: WhatsAppUser) -> None:
    request = user.text("תזכיר לי להתקשר לאמא")
    [question] = chat.deliver(request)
    assert "מתי" in question
    edit = user.message(
        "edit",
        {
            "edit": {
                "original_message_id": request["id"],
                "message": {"type": "text", "text": {"body": "תזכיר לי להתקשר לאמא מחר ב-17:00"}},
            }
        },
    )
    [answer] = chat.deliver(edit)
    assert "אמא" in answer and "⏰" in answer


def _edit(user: WhatsAppUser, of: dict, body: str) -> dict:
    return user.message(
        "edit",
        {"edit": {"original_message_id": of["id"], "message": {"type": "text", "text": {"body": body}}}},
    )


def test_editing_a_request_already_done_says_nothing_changed(
    chat: Conversation, user: WhatsAppUser, log_events: LogEvents
) -> None:
    # Was silent: the person edited "5pm" to "6pm" and believed the reminder had moved.
    request = user.text("remind me to call mom tomorrow at 5pm")
    [done] = chat.deliver(request)
    assert done.startswith("⏰ Reminder set: “call mom”")
    [answer] = chat.deliver(_edit(user, request, "remind me to call mom tomorrow at 6pm"))
    assert answer.startswith("I see you edited your message, but I had already done it: reminder “call mom”")
    assert "The edit changes nothing by itself" in answer and "move it to 18:00" in answer
    assert log_events.named("EDIT_AFTER_DONE")
    assert "17:00" in chat.say("show my reminders")  # nothing changed
    # What the person then says changes it, as usual.
    assert chat.say("move it to 6pm").startswith("Updated the reminder “call mom”")
    # A list item: the same, without a reminder's examples.
    added = user.text("add milk to my shopping list")
    chat.deliver(added)
    [answer] = chat.deliver(_edit(user, added, "add oat milk to my shopping list"))
    assert "added milk to the shopping list" in answer and "18:00" not in answer


def test_in_hebrew_an_edit_of_a_request_already_done(chat: Conversation, user: WhatsAppUser) -> None:
    request = user.text("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.deliver(request)
    [answer] = chat.deliver(_edit(user, request, "תזכיר לי להתקשר לאמא מחר ב-18:00"))
    assert answer.startswith("ראיתי שערכת את ההודעה, אבל כבר ביצעתי אותה:")


def test_editing_a_question_nothing_was_done_for_stays_silent(chat: Conversation, user: WhatsAppUser) -> None:
    asked = user.text("what reminders do I have?")
    chat.deliver(asked)
    assert chat.deliver(_edit(user, asked, "what notes do I have?")) == []


# --- voice notes ------------------------------------------------------------------------------


@pytest.fixture
def transcription() -> Iterator[FakeTranscription]:
    with FakeTranscription() as fake:
        os.environ.update(
            {
                "OPENAI_API_KEY": "sk-test",
                "OPENAI_BASE_URL": fake.base_url,
                "MEMO_LLM_MAX_RETRIES": "0",
                "MEMO_TRANSCRIPTION_MODEL": "whisper-test",
                "MEMO_MEDIA_MAX_BYTES": "4096",
            }
        )
        yield fake


@pytest.fixture
def voice_chat(transcription: FakeTranscription, user: WhatsAppUser) -> Iterator[Conversation]:
    with LocalStack(start_poller=False) as running:
        yield Conversation(stack=running, user=user)


def _voice(chat: Conversation, audio: bytes) -> dict[str, Any]:
    media_id = chat.stack.sink.add_media(audio, "audio/ogg")
    return chat.user.message(
        "audio", {"audio": {"id": media_id, "mime_type": "audio/ogg; codecs=opus", "voice": True}}
    )


def test_a_voice_note_is_transcribed_and_handled_as_text(
    voice_chat: Conversation, transcription: FakeTranscription
) -> None:
    transcription.script("Remind me to call mom tomorrow at 5pm")
    replies = voice_chat.deliver(_voice(voice_chat, b"OggS-voice-note-bytes"))
    assert replies[0] == "🎙️ I heard: “Remind me to call mom tomorrow at 5pm”"  # it changes something
    assert replies[1].startswith("⏰ Reminder set: “call mom”")
    [upload] = transcription.uploads
    assert (upload.model, upload.file, upload.token) == (
        "whisper-test",
        b"OggS-voice-note-bytes",
        "Bearer sk-test",
    )
    # Small talk by voice is just answered.
    transcription.script("thank you so much")
    assert voice_chat.deliver(_voice(voice_chat, b"OggS-2")) == [
        "You're welcome! I'm here if you need anything else."
    ]


def test_a_hebrew_voice_note_is_quoted_back_in_hebrew(
    voice_chat: Conversation, transcription: FakeTranscription
) -> None:
    transcription.script("תמחק את כל התזכורות שלי")
    replies = voice_chat.deliver(_voice(voice_chat, b"OggS-he"))
    assert replies[0].startswith("🎙️ שמעתי: “תמחק את כל התזכורות שלי”")


def test_a_voice_note_over_the_limit_is_refused_before_download(
    voice_chat: Conversation, transcription: FakeTranscription
) -> None:
    voice_chat.user = WhatsAppUser(wa_id="15551234567")
    assert voice_chat.deliver(_voice(voice_chat, b"x" * 5000)) == [
        "That voice message is too long for me 🙏 Could you send a shorter one, or type it?"
    ]
    assert transcription.uploads == []


def test_a_failed_transcription_asks_again_and_loses_nothing(
    voice_chat: Conversation, transcription: FakeTranscription
) -> None:
    voice_chat.user = WhatsAppUser(wa_id="15551234567")
    assert voice_chat.deliver(_voice(voice_chat, b"OggS")) == [
        "I couldn't make out that voice message 🙏 Could you try again, or type it?"
    ]
    assert voice_chat.say("hello").startswith("Good")


# --- a reminder Meta failed to deliver -----------------------------------------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def timed(clock: FakeClock, user: WhatsAppUser) -> Iterator[Conversation]:
    with LocalStack(start_poller=False, clock=clock) as running:
        yield Conversation(stack=running, user=user)


def _deliver_reminder(timed: Conversation, clock: FakeClock) -> tuple[str, str | None]:
    """Set a reminder for 11:00, let it fire; the outbound id Meta gave its delivery, and its tag."""
    assert timed.say("remind me to call mom at 11am").startswith("⏰ Reminder set: “call mom”")
    clock.advance(hours=2, minutes=1)
    assert timed.stack.ticker is not None
    timed.stack.ticker.tick()
    sent = timed.stack.sink.messages(to=timed.user.wa_id)[-1]
    assert "call mom" in str(sent.body)
    return sent.message_id, sent.tag


def _failed(message_id: str, recipient: str, errors: list[dict[str, Any]], tag: str | None) -> dict[str, Any]:
    """Meta's `failed` status, echoing the tag the message was sent with."""
    extra: dict[str, Any] = {"biz_opaque_callback_data": tag} if tag is not None else {}
    return envelope([status_value(status(message_id, "failed", recipient, errors=errors, **extra))])


def _templates(timed: Conversation) -> list[dict[str, Any]]:
    return [
        r.body for r in timed.stack.sink.messages(to=timed.user.wa_id) if r.body.get("type") == "template"
    ]


def test_a_reminder_failed_outside_the_window_is_retried_once_as_a_template(
    timed: Conversation, clock: FakeClock, log_events: LogEvents
) -> None:
    failed_id, tag = _deliver_reminder(timed, clock)
    failure = _failed(failed_id, timed.user.wa_id, FAILED_131047, tag)
    for _ in range(2):  # Meta retries the webhook: the same status twice
        assert post(failure)["statusCode"] == 200
    # ...and once more as a separate status event with another timestamp.
    again = _failed(failed_id, timed.user.wa_id, FAILED_131047, tag)
    again["entry"][0]["changes"][0]["value"]["statuses"][0]["timestamp"] = "1700000999"
    assert post(again)["statusCode"] == 200
    assert timed.stack.poller is not None
    timed.stack.poller.drain()
    [template] = _templates(timed)
    assert template["template"]["name"] == "memo_reminder"
    assert template["template"]["components"][0]["parameters"][0]["text"] == "call mom"
    [reminder] = [i for i in _items(timed.user.wa_id) if i["kind"] == "reminder"]
    assert reminder["delivery_failed_code"] == 131047 and reminder["delivery_failed_message_id"] == failed_id
    assert reminder["delivery_retry_message_id"]
    assert len(log_events.named("REMINDER_RETRIED_AS_TEMPLATE")) == 1
    # Past the queue's deduplication and the turn's idempotency, the follow-up's claim holds.
    from memo.whatsapp.tracking import OutboundRecord, OutboundTag
    from memo.wiring.webhook import WebhookRuntime

    runtime = WebhookRuntime.current()
    decoded = OutboundTag.decode(tag)
    assert decoded is not None and (decoded.kind, decoded.mode) == ("reminder", "text")
    record = OutboundRecord.of_tag(decoded, failed_id, at=clock())
    assert runtime.failed_deliveries.follow_up(record, [131047], now=clock()) == "delivery_failed_duplicate"
    assert len(_templates(timed)) == 1

    # The retry fails too: no third attempt, an alarm instead.
    retry_id = str(reminder["delivery_retry_message_id"])
    [retry] = [r for r in timed.stack.sink.messages(to=timed.user.wa_id) if r.message_id == retry_id]
    post(_failed(retry_id, timed.user.wa_id, FAILED_131047, retry.tag))
    timed.stack.poller.drain()
    assert len(_templates(timed)) == 1
    [alarm] = log_events.named("REMINDER_UNDELIVERED")
    assert (alarm["levelname"], alarm["why"]) == ("ERROR", "template_failed")


def test_a_reminder_failed_for_another_reason_raises_the_alarm(
    timed: Conversation, clock: FakeClock, log_events: LogEvents
) -> None:
    failed_id, tag = _deliver_reminder(timed, clock)
    errors = [
        {"code": 131049, "title": "This message was not delivered to maintain healthy ecosystem engagement."}
    ]
    post(_failed(failed_id, timed.user.wa_id, errors, tag))
    assert timed.stack.poller is not None
    timed.stack.poller.drain()
    assert _templates(timed) == []
    [alarm] = log_events.named("REMINDER_UNDELIVERED")
    assert alarm["metaErrorCodes"] == [131049] and alarm["why"] == "code"
    [reminder] = [i for i in _items(timed.user.wa_id) if i["kind"] == "reminder"]
    assert reminder["delivery_failed_code"] == 131049


def test_a_thumbs_up_on_memos_did_you_mean_question_is_asked_again(
    monkeypatch: pytest.MonkeyPatch,
    chat: Conversation,
    stack: LocalStack,
    user: WhatsAppUser,
    log_events: LogEvents,
) -> None:
    """An unsure plan that only adds a note: a 👍 on "Just to check — …?" is no yes (a guess is
    confirmed in words): the question is asked again, nothing is saved; a typed "yes" saves it."""
    from memo.wiring import reset_runtime
    from memo.wiring.webhook import WebhookRuntime
    from tests.support.fake_openai import FakeOpenAI, Reply

    with FakeOpenAI() as llm:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        monkeypatch.setenv("MEMO_LLM_MAX_RETRIES", "0")
        reset_runtime(WebhookRuntime)
        unsure = {
            "intentType": "operation",
            "confidence": 0.55,
            "riskLevel": "low",
            "needsApproval": False,
            "missingFields": [],
            "plan": [
                {
                    "id": "s1",
                    "capability": "notes",
                    "action": "save",
                    "constraints": [],
                    "changes": [{"key": "text", "value": "the wifi password is on the fridge"}],
                    "dependsOn": [],
                }
            ],
            "routingSuggestions": [],
        }
        llm.script(Reply.json(unsure))
        question = chat.say("wifi password fridge")
        assert "PENDING" in _thread(user.wa_id), question
        sent = stack.sink.messages(to=user.wa_id)[-1]
        question_id = f"wamid.local.{sent.index + 1}"
        # A 👍 on another message is silent; on the question itself it is asked again.
        elsewhere = user.message("reaction", {"reaction": {"message_id": "wamid.local.1", "emoji": "👍"}})
        assert chat.deliver(elsewhere) == []
        thumbs = user.message("reaction", {"reaction": {"message_id": question_id, "emoji": "👍"}})
        [again] = chat.deliver(thumbs)
        assert again.startswith("That was only my guess, so I need a typed answer — yes or no?"), again
        assert "PENDING" in _thread(user.wa_id)
        assert log_events.named("EVENT_ANSWERS_QUESTION")[0]["targetId"] == question_id
        assert "fridge" in chat.say("yes")
        assert "PENDING" not in _thread(user.wa_id)


def test_a_failed_reply_is_logged_with_what_it_carried_and_never_resent(
    chat: Conversation, stack: LocalStack, user: WhatsAppUser, log_events: LogEvents
) -> None:
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set")  # the responder's
    reply = stack.sink.messages(to=user.wa_id)[-1]
    reply_id = reply.message_id
    post(_failed(reply_id, user.wa_id, [{"code": 131026, "title": "Message undeliverable"}], reply.tag))
    assert chat.deliver() == []  # drains the follow-up; nothing is sent again
    [followed] = log_events.named("DELIVERY_FAILED_FOLLOWED_UP")
    assert (followed["messageId"], followed["carried"], followed["metaErrorCodes"]) == (
        reply_id,
        "reply",
        [131026],
    )


@pytest.mark.parametrize(
    ("language", "note", "guess", "again", "yes", "saved"),
    [
        (
            "en",
            "save a note: gate code is 1234",
            "the gate code changed to 5678",
            "That was only my guess",
            "yes",
            "📝 Updated your note: “gate code is 5678”.",
        ),
        (
            "he",
            "תשמור פתק: הקוד של השער הוא 1234",
            "הקוד של השער השתנה ל-5678",
            "זה היה רק ניחוש שלי",
            "כן",
            "📝 עדכנתי את הפתק: „הקוד של השער הוא 5678”.",
        ),
    ],
)
@pytest.mark.parametrize("emoji", ["👍", "❤️", "✅"])
def test_a_reaction_on_a_just_to_check_offer_changes_nothing_and_is_asked_again(
    chat: Conversation,
    stack: LocalStack,
    user: WhatsAppUser,
    language: str,
    note: str,
    guess: str,
    again: str,
    yes: str,
    saved: str,
    emoji: str,
) -> None:
    chat.say(note)
    asked = chat.say(guess)
    question_id = f"wamid.local.{stack.sink.messages(to=user.wa_id)[-1].index + 1}"
    reaction = user.message("reaction", {"reaction": {"message_id": question_id, "emoji": emoji}})
    [answer] = chat.deliver(reaction)
    assert answer.startswith(again) and asked.split("\n")[0] in answer, answer
    assert "PENDING" in _thread(user.wa_id)
    assert chat.say("what's my gate code?" if language == "en" else "מה הקוד של השער?").endswith("1234")
    # The question was dropped for that new request: asked again, and answered in words.
    chat.say(guess)
    assert chat.say(yes) == saved
