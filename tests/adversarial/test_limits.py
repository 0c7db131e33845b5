"""Limits with clear answers: a flooding sender, a burst of repeating reminders, hundreds of list
items in one message, and a group that addresses Memo line after line, replayed as signed webhooks.

Each limit is its setting of `memo.settings.LimitsSettings` (docs/limits.md) and is tested at the
limit and past it, in English and Hebrew: past it the person hears what happened once, in their
language, nothing of the refused request is written, and every message not turned is logged.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.wiring.webhook import WebhookRuntime
from tests.support.clock import TEST_NOW, FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.webhook import post

# The sender's pace as documented (docs/limits.md): MEMO_RATE_BURST and MEMO_RATE_PER_MINUTE's defaults.
DEFAULT_BURST = 20
DEFAULT_PER_MINUTE = 30
GROUP = "120363042263447655"
NOTICE_EN = "You're sending a lot, give me a moment"
NOTICE_HE = "הגיעו ממך הרבה הודעות בבת אחת"
NOTHING_DONE_EN = "I haven't done anything"
NOTHING_DONE_HE = "לא עשיתי כלום"


class TickingClock(FakeClock):
    """The stack's clock: a microsecond on at each reading, as time goes on while turns run (a
    thread's messages are kept in the order they were turned), moved on by the test like a fake one."""

    def __call__(self) -> datetime:
        self.now += timedelta(microseconds=1)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return TickingClock(TEST_NOW)


@pytest.fixture
def paced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sender's pace as deployed (the suite's environment lifts it for every other test)."""
    monkeypatch.delenv("MEMO_RATE_BURST", raising=False)


def started(clock: FakeClock) -> Iterator[LocalStack]:
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def stack(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    yield from started(clock)


def sender(wa_id: str, *, sent_from: int | None = None, per_second: int = 10) -> WhatsAppUser:
    """A user whose messages are stamped `per_second` to a second from `sent_from` (epoch seconds), as
    WhatsApp stamps a flood; by default one second apart from now, as the simulator does."""
    if sent_from is None:
        return WhatsAppUser(wa_id=wa_id)
    stamps = (sent_from + n // per_second for n in itertools.count())
    return WhatsAppUser(wa_id=wa_id, _clock=stamps)  # type: ignore[arg-type]


def send(user: WhatsAppUser, texts: list[str], **extra: Any) -> None:
    """Each text as WhatsApp delivers a flood: signed webhooks of up to ten messages."""
    for start in range(0, len(texts), 10):
        messages = [{**user.text(text), **extra} for text in texts[start : start + 10]]
        assert post(user.payload(*messages))["statusCode"] == 200


def texts_to(stack: LocalStack, to: str) -> list[str]:
    """Every text Memo sent `to`, in order."""
    return Conversation(stack=stack, user=WhatsAppUser(wa_id=to)).replies()


def drain(stack: LocalStack) -> None:
    assert stack.poller is not None and stack.stepfunctions is not None
    stack.poller.drain(max_batches=1000)
    stack.stepfunctions.wait_all()


# --- the sender's pace -----------------------------------------------------------------------------

FLOOD = 300
# 300 messages in 30 seconds: the burst at once, then one every 2 seconds of the 29 that follow.
FLOOD_TURNED = DEFAULT_BURST + int(29 * DEFAULT_PER_MINUTE / 60)


@pytest.mark.usefixtures("paced")
def test_a_flood_of_300_messages_in_30_seconds_is_not_all_turned(
    stack: LocalStack, clock: FakeClock, log_events: LogEvents
) -> None:
    flooder = sender("972500000301", sent_from=int(TEST_NOW.timestamp()) - 30)
    send(flooder, [f"hey are you there {n}" for n in range(FLOOD)])
    drain(stack)
    replies = texts_to(stack, flooder.wa_id)
    # One answer per turned message, and the one notice: the rest are dropped, each logged.
    assert len(replies) == FLOOD_TURNED + 1
    assert sum(NOTICE_EN in r for r in replies) == 1
    assert len(log_events.named("RATE_LIMITED")) == FLOOD - FLOOD_TURNED
    assert sum(1 for e in log_events.named("RATE_LIMITED") if e["notice"]) == 1
    assert len(log_events.named("TURN_DONE")) == FLOOD_TURNED + 1


@pytest.mark.usefixtures("paced")
def test_a_flood_in_hebrew_is_told_in_hebrew_once_and_the_next_flood_again(
    stack: LocalStack, clock: FakeClock
) -> None:
    start = int(TEST_NOW.timestamp()) - 10
    flooder = sender("972500000302", sent_from=start, per_second=DEFAULT_BURST + 5)
    send(flooder, [f"שלום {n}" for n in range(DEFAULT_BURST + 5)])  # all in one second
    drain(stack)
    replies = texts_to(stack, flooder.wa_id)
    assert len(replies) == DEFAULT_BURST + 1
    assert replies[-1].startswith(NOTICE_HE)
    # At the burst after a quiet minute: all turned, no notice; one past it: told again.
    clock.advance(minutes=1)
    again = sender("972500000302", sent_from=int(clock.now.timestamp()) - 1, per_second=100)
    send(again, [f"שוב שלום {n}" for n in range(DEFAULT_BURST)])
    drain(stack)
    replies = texts_to(stack, flooder.wa_id)[DEFAULT_BURST + 1 :]
    assert len(replies) == DEFAULT_BURST and not any(NOTICE_HE in r for r in replies)
    send(again, ["ועוד אחת"])
    drain(stack)
    assert texts_to(stack, flooder.wa_id)[-1].startswith(NOTICE_HE)


@pytest.mark.usefixtures("paced")
def test_a_second_user_is_answered_before_the_flood_is_through(stack: LocalStack) -> None:
    flooder = sender("972500000303", sent_from=int(TEST_NOW.timestamp()) - 10)
    send(flooder, [f"hey are you there {n}" for n in range(100)])
    other = WhatsAppUser(wa_id="972500000304")
    assert post(other.payload(other.text("remind me to call mom tomorrow at 5pm")))["statusCode"] == 200
    assert stack.poller is not None and stack.stepfunctions is not None
    # One poll: a batch of the flooder's, and one of every other sender's; the flood waits its turn.
    stack.poller.poll_once()
    stack.stepfunctions.wait_all()
    (answer,) = texts_to(stack, other.wa_id)
    assert "call mom" in answer
    assert len(texts_to(stack, flooder.wa_id)) == 10


def _llm(monkeypatch: pytest.MonkeyPatch, server: FakeOpenAI) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("MEMO_LLM_TIMEOUT_SECONDS", "5")


def _greeting() -> Reply:
    return Reply.json(
        {
            "intentType": "conversation",
            "confidence": 0.95,
            "riskLevel": "low",
            "needsApproval": False,
            "missingFields": [],
            "plan": [
                {
                    "id": "s1",
                    "capability": "general",
                    "action": "reply",
                    "constraints": [{"key": "kind", "value": "greeting"}],
                    "changes": [],
                    "dependsOn": [],
                }
            ],
            "routingSuggestions": [],
        }
    )


@pytest.mark.usefixtures("paced")
def test_with_an_llm_a_flood_asks_it_once_per_turned_message_and_never_for_the_rest(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    flood = 60  # in 6 seconds
    with FakeOpenAI() as server:
        _llm(monkeypatch, server)
        server.script(*[_greeting()] * flood)
        for running in started(clock):
            flooder = sender("972500000305", sent_from=int(TEST_NOW.timestamp()) - 6)
            send(flooder, [f"hey are you there {n}" for n in range(flood)])
            drain(running)
            replies = texts_to(running, flooder.wa_id)
        assert sum(NOTICE_EN in r for r in replies) == 1
        turned = len(replies) - 1
        assert DEFAULT_BURST <= turned < flood
        assert len(server.requests) == turned


def test_an_answer_the_llm_reads_as_a_new_request_asks_it_once(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch, log_events: LogEvents
) -> None:
    """The interpreter's LLM reads the answer to a question as a new request: that request is planned
    by the rules, not by a second request to the model."""
    with FakeOpenAI() as server:
        _llm(monkeypatch, server)
        for running in started(clock):
            chat = Conversation(stack=running, user=WhatsAppUser(wa_id="972500000306"))
            server.script(Reply.status(500))  # the planner fails: the rules set the reminder
            assert "call mom" in chat.say("remind me to call mom tomorrow at 5pm")
            server.script(Reply.status(500))  # and ask before deleting it
            chat.say("delete all my reminders")
            asked = len(server.requests)
            server.script(Reply.json({"decision": "switch_intent", "parsed": None}))
            reply = chat.say("hmm no, just show me my shopping list please")
            assert len(server.requests) == asked + 1
            assert "shopping" in reply.lower()
        # Whichever reads the answer as a request (the rules first, else the interpreter's model), the
        # model is asked once for the message: a second ask would be the planner's, and is skipped.
        assert all(e["use"] == "planner" for e in log_events.named("LLM_ASKED_ALREADY"))


# --- repeating reminders ---------------------------------------------------------------------------


@pytest.mark.usefixtures("paced")
def test_60_repeating_reminders_in_a_burst_set_the_burst_and_say_so_once(stack: LocalStack) -> None:
    flooder = sender("972500000307", sent_from=int(TEST_NOW.timestamp()) - 2, per_second=60)
    send(flooder, [f"remind me every day at 9am to stretch {n}" for n in range(60)])
    drain(stack)
    replies = texts_to(stack, flooder.wa_id)
    assert sum(NOTICE_EN in r for r in replies) == 1
    assert len(replies) == DEFAULT_BURST + 1
    assert len(_reminders(flooder.wa_id, stack)) == DEFAULT_BURST


def _reminders(wa_id: str, stack: LocalStack) -> list[Any]:
    return WebhookRuntime.current().items.list_reminders(wa_id)


@pytest.mark.parametrize(
    ("language", "ask", "refusal"),
    [
        ("en", "remind me every day at 9am to stretch {n}", "You have 3 repeating reminders"),
        ("he", "תזכיר לי כל יום ב-9 בבוקר למתוח {n}", "יש לך 3 תזכורות חוזרות"),
    ],
)
def test_repeating_reminders_at_the_cap_are_set_and_past_it_refused(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, language: str, ask: str, refusal: str
) -> None:
    monkeypatch.setenv("MEMO_MAX_REPEATING_REMINDERS", "3")
    for running in started(clock):
        chat = Conversation(stack=running, user=WhatsAppUser(wa_id=f"97250000031{len(language)}"))
        for n in range(3):
            chat.say(ask.format(n=n))
        assert len(_reminders(chat.user.wa_id, running)) == 3  # at the cap
        refused = chat.say(ask.format(n=3))
        assert refusal in refused and "3" in refused
        assert (NOTHING_DONE_HE if language == "he" else NOTHING_DONE_EN) in refused
        assert len(_reminders(chat.user.wa_id, running)) == 3
        # A one-time reminder is still taken: only repeating ones are at their cap.
        once = (
            "remind me tomorrow at 5pm to call mom"
            if language == "en"
            else "תזכיר לי מחר ב-5 אחר הצהריים להתקשר לאמא"
        )
        chat.say(once)
        assert len(_reminders(chat.user.wa_id, running)) == 4


def test_an_answer_cannot_take_a_request_past_a_cap(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    """The question's answer goes through the same caps as the request: a time given for a repeating
    reminder at the cap sets nothing."""
    monkeypatch.setenv("MEMO_MAX_REPEATING_REMINDERS", "1")
    for running in started(clock):
        chat = Conversation(stack=running, user=WhatsAppUser(wa_id="972500000320"))
        chat.say("remind me every day at 9am to stretch")
        question = chat.say("remind me every day to drink water")
        assert "time" in question.lower() or "when" in question.lower()
        refused = chat.say("at 10am")
        assert "You have 1 repeating reminders" in refused and NOTHING_DONE_EN in refused
        assert len(_reminders(chat.user.wa_id, running)) == 1


def test_reminders_at_the_cap_are_set_and_past_it_refused(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    monkeypatch.setenv("MEMO_MAX_REMINDERS", "2")
    for running in started(clock):
        chat = Conversation(stack=running, user=WhatsAppUser(wa_id="972500000321"))
        chat.say("remind me tomorrow at 5pm to call mom")
        chat.say("remind me tomorrow at 6pm to call dad")
        refused = chat.say("remind me tomorrow at 7pm to call grandma")
        assert "You have 2 reminders" in refused and NOTHING_DONE_EN in refused
        hebrew = chat.say("תזכיר לי מחר ב-8 בערב להתקשר לסבא")
        assert "יש לך 2 תזכורות" in hebrew and NOTHING_DONE_HE in hebrew
        assert sorted(r.title for r in _reminders(chat.user.wa_id, running)) == ["call dad", "call mom"]


# --- lists -----------------------------------------------------------------------------------------


def _items(wa_id: str, list_name: str) -> list[str]:
    return [i.text for i in WebhookRuntime.current().items.list_items(wa_id, list_name)]


def _add(things: list[str], list_words: str) -> str:
    return f"add {', '.join(things)} to {list_words}"


def test_500_list_items_in_one_message_are_refused_whole(stack: LocalStack) -> None:
    chat = Conversation(stack=stack, user=WhatsAppUser(wa_id="972500000322"))
    refused = chat.say(_add([f"i{n}" for n in range(500)], "my shopping list"))
    assert "500 items in one message" in refused and "at most 50" in refused and NOTHING_DONE_EN in refused
    assert _items(chat.user.wa_id, "shopping") == []
    assert stack.stepfunctions is not None and stack.stepfunctions.wait_all() == []  # nothing started
    # At the cap, taken; one past it, refused.
    chat.say(_add([f"a{n}" for n in range(50)], "my shopping list"))
    assert len(_items(chat.user.wa_id, "shopping")) == 50
    refused = chat.say(_add([f"b{n}" for n in range(51)], "my shopping list"))
    assert "51 items in one message" in refused
    hebrew = chat.say("תוסיף " + ", ".join(f"דבר{n}" for n in range(51)) + " לרשימת הקניות")
    assert "יש בהודעה 51 פריטים" in hebrew and NOTHING_DONE_HE in hebrew
    assert len(_items(chat.user.wa_id, "shopping")) == 50


def test_a_list_at_its_length_takes_no_more(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    monkeypatch.setenv("MEMO_MAX_LIST_ITEMS", "5")
    for running in started(clock):
        chat = Conversation(stack=running, user=WhatsAppUser(wa_id="972500000323"))
        chat.say("add milk, eggs, bread and jam to my shopping list")
        chat.say("add cheese to my shopping list")  # the fifth: at the cap
        refused = chat.say("add butter and honey to my shopping list")
        assert "shopping list has 5 items" in refused and "at most" not in refused
        assert NOTHING_DONE_EN in refused
        # What is on the list already is no new item: taken at the cap.
        assert NOTHING_DONE_EN not in chat.say("add milk to my shopping list")
        hebrew = chat.say("תוסיף חמאה לרשימת הקניות")
        assert "יש 5 פריטים" in hebrew and NOTHING_DONE_HE in hebrew
        assert len(_items(chat.user.wa_id, "shopping")) == 5


# --- groups ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "said"),
    [("Memo, remind us to buy milk {n}", "private"), ("ממו, תזכיר לנו לקנות חלב {n}", "פרטי")],
)
def test_30_addressed_lines_in_a_group_get_three_answers(
    stack: LocalStack, clock: FakeClock, log_events: LogEvents, line: str, said: str
) -> None:
    member = WhatsAppUser(wa_id="972500000324")
    send(member, [line.format(n=n) for n in range(30)], group_id=GROUP)
    drain(stack)
    answers = stack.sink.messages(to=GROUP)
    assert len(answers) == 3  # MEMO_GROUP_MAX_REPLIES, at the limit; past it, none
    assert all(said in str(a.body) for a in answers)
    assert len(log_events.named("GROUP_REPLY_LIMITED")) == 27
    # The member's private thread heard nothing of it.
    assert texts_to(stack, member.wa_id) == []
    # Another window: the group is answered again.
    clock.advance(hours=1)
    send(member, [line.format(n=99)], group_id=GROUP)
    drain(stack)
    assert len(stack.sink.messages(to=GROUP)) == 4


def test_the_group_limit_is_configured(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    monkeypatch.setenv("MEMO_GROUP_MAX_REPLIES", "1")
    monkeypatch.setenv("MEMO_GROUP_REPLY_WINDOW_SECONDS", "60")
    for running in started(clock):
        member = WhatsAppUser(wa_id="972500000325")
        send(member, ["Memo, hi", "Memo, hello?"], group_id=GROUP)
        drain(running)
        assert len(running.sink.messages(to=GROUP)) == 1
        clock.advance(seconds=60)
        send(member, ["Memo, still there?"], group_id=GROUP)
        drain(running)
        assert len(running.sink.messages(to=GROUP)) == 2


def test_a_group_past_its_limit_changes_nothing_for_its_members(stack: LocalStack) -> None:
    member = WhatsAppUser(wa_id="972500000326")
    send(member, [f"Memo, delete all my reminders {n}" for n in range(10)], group_id=GROUP)
    drain(stack)
    chat = Conversation(stack=stack, user=member)
    assert "call mom" in chat.say("remind me tomorrow at 5pm to call mom")
    assert len(_reminders(member.wa_id, stack)) == 1
