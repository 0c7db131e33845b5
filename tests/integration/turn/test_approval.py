"""The turn's tool policy through the webhook, with signed payloads on the fake clock (a Monday at
10:00, Jerusalem): a step the review policy names is asked as `tool_requires_review` and its case
carries that reason and its policy source; a request that breaks a configured rule
(`MEMO_RULE_*`) is not carried out, says why in the user's language, and reaches an operator only
if the user asks (`policy_violation`). Each limit is tried at and past it.

Before, a review rule sent the step to an operator under the planner's own reason (or none), and no
rule of a request existed: a reminder years ahead, a burst at one minute, a blocked word all ran."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.conversation import log_events as log_events  # the fixture
from tests.support.week import START, shown

SENT_TO_REVIEW = "needs a quick check by one of our operators"
REVIEW_DELETES = {"rules": [{"capability": "reminders", "action": "delete"}]}
REVIEW_LIST_ADDS = {"rules": [{"capability": "lists", "action": "add"}]}
NO_REASONS: dict[str, list[str]] = {"reasons": []}


def _stack(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Conversation]:
    yield from _stack(monkeypatch, getattr(request, "param", {}))


def _wait_for(chat: Conversation, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    sfn = chat.stack.stepfunctions
    assert sfn is not None
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        with sfn.dispatcher.changed:
            while not predicate():
                assert not deadline.is_set(), "timed out"
                sfn.dispatcher.changed.wait(0.05)
    finally:
        timer.cancel()


def _approve_for_review(chat: Conversation, log_events: LogEvents) -> tuple[str, dict[str, Any]]:
    """Tap Approve on the open question; the turn's reply and the submitted case's log fields."""
    choice = chat.choices[0]
    message = chat.user.button_reply(choice.id, choice.title)
    from tests.support.webhook import post

    assert post(chat.user.payload(message))["statusCode"] == 200
    assert chat.stack.poller is not None
    chat.stack.poller.drain()
    _wait_for(chat, lambda: bool(log_events.named("REVIEW_SUBMITTED")))
    (told,) = chat.replies()
    (submitted,) = log_events.named("REVIEW_SUBMITTED")
    return told, submitted


def _created(log_events: LogEvents, reason: str) -> dict[str, Any]:
    (created,) = [e for e in log_events.named("HITL_CREATED") if e["reason"] == reason]
    return created


def _reminders(chat: Conversation) -> list[str]:
    return chat.say("show my reminders").splitlines()[1:]


# --- tool_requires_review -------------------------------------------------------------------------


@pytest.mark.parametrize("chat", [{"MEMO_REVIEW_POLICY": json.dumps(REVIEW_DELETES)}], indirect=True)
def test_a_step_the_policy_names_is_asked_as_tool_requires_review(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    question = chat.say("delete the call mom reminder")
    assert question.startswith("This needs a check: I'm about to delete 1 reminder:"), question
    created = _created(log_events, "tool_requires_review")
    assert created["kind"] == "approval" and created["source"] == "tool_policy"
    assert created["policySource"] == "tool_policy"
    assert created["returnTo"] == {"node": "resolver_router", "mode": "continue"}
    told, submitted = _approve_for_review(chat, log_events)
    assert SENT_TO_REVIEW in told
    assert submitted["reason"] == "tool_requires_review" and submitted["policySource"] == "tool_policy"
    assert submitted["rule"] == "reminders.delete"


@pytest.mark.parametrize("chat", [{"MEMO_REVIEW_POLICY": json.dumps(REVIEW_LIST_ADDS)}], indirect=True)
def test_a_step_asked_nothing_before_is_asked_when_the_policy_names_it(
    chat: Conversation, log_events: LogEvents
) -> None:
    question = chat.say("add milk to my shopping list")
    assert question.startswith("This needs a check"), question
    assert _created(log_events, "tool_requires_review")["policySource"] == "tool_policy"
    # "no" runs nothing and sends nothing to an operator.
    assert chat.say("no").startswith("OK")
    assert "milk" not in chat.say("what's on my shopping list?")
    hebrew = chat.say("תוסיף חלב לרשימת הקניות")
    assert hebrew.startswith("הפעולה הזאת דורשת בדיקה"), hebrew


def test_an_ordinary_request_is_not_asked(chat: Conversation, log_events: LogEvents) -> None:
    assert "milk" in chat.say("add milk to my shopping list")
    assert not log_events.named("HITL_CREATED")


# --- policy_violation -----------------------------------------------------------------------------


@pytest.mark.parametrize("chat", [{"MEMO_RULE_MAX_DAYS_AHEAD": "30"}], indirect=True)
def test_a_reminder_further_ahead_than_allowed_is_not_set(chat: Conversation, log_events: LogEvents) -> None:
    at_limit = chat.say("remind me to renew the passport in 30 days at 9")
    assert "renew the passport" in at_limit and "30 days" not in at_limit
    past = chat.say("remind me to renew the visa in 31 days at 9")
    assert past.startswith("I can set reminders up to 30 days ahead, so I haven't set this one."), past
    assert "Should I ask an operator" in past
    created = _created(log_events, "policy_violation")
    assert created["kind"] == "approval" and created["policySource"] == "tool_policy"
    assert created["returnTo"] == {"node": "resolver_router", "mode": "continue"}
    assert chat.say("no").startswith("OK")
    listed = _reminders(chat)
    assert len(listed) == 1 and "passport" in listed[0]


@pytest.mark.parametrize("chat", [{"MEMO_RULE_MAX_DAYS_AHEAD": "30"}], indirect=True)
def test_the_rule_holds_for_a_time_given_as_an_answer(chat: Conversation) -> None:
    # A day some time of which is within reach: its time is asked, and the answer is held to the rule.
    assert chat.say("remind me to renew the visa in 31 days").startswith("What time on")
    assert chat.say("at 9").startswith("I can set reminders up to 30 days ahead")
    assert _reminders(chat) == []
    # A day no time of which is: refused at once, before its time is asked.
    # The open question (ask an operator about the 31 days?) is set aside by the new request.
    assert chat.say("remind me to renew the visa in 45 days") == (
        "I can set reminders up to 30 days ahead, so I haven't set this one.\n"
        f"I've set aside the earlier request (set a reminder “renew the visa” for {shown(31, 9)});"
        " nothing was done about it."
    )
    assert _reminders(chat) == []


@pytest.mark.parametrize("chat", [{"MEMO_RULE_MAX_DAYS_AHEAD": "30"}], indirect=True)
def test_an_approved_violation_goes_to_an_operator_not_to_run(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me to renew the visa in 31 days at 9")
    told, submitted = _approve_for_review(chat, log_events)
    assert SENT_TO_REVIEW in told
    assert submitted["reason"] == "policy_violation" and submitted["rule"] == "reason:policy_violation"
    # It waits for the operator: nothing was set.
    assert not log_events.named("REMINDER_SCHEDULED")


@pytest.mark.parametrize(
    "chat", [{"MEMO_RULE_MAX_DAYS_AHEAD": "30", "MEMO_REVIEW_POLICY": json.dumps(NO_REASONS)}], indirect=True
)
def test_without_an_operator_to_ask_the_reply_only_says_why(
    chat: Conversation, log_events: LogEvents
) -> None:
    reply = chat.say("remind me to renew the visa in 31 days at 9")
    assert reply == "I can set reminders up to 30 days ahead, so I haven't set this one."
    assert not log_events.named("HITL_CREATED")
    assert chat.say("yes") == "I'm not waiting on a question right now — what would you like to do?"
    assert _reminders(chat) == []


@pytest.mark.parametrize("chat", [{"MEMO_RULE_MAX_DAYS_AHEAD": "30"}], indirect=True)
def test_hebrew_too_far_ahead(chat: Conversation) -> None:
    reply = chat.say("תזכיר לי לחדש את הוויזה בעוד 31 ימים ב-9")
    assert reply.startswith("אפשר לקבוע תזכורת עד 30 ימים קדימה, אז לא קבעתי אותה."), reply
    assert "לבקש מנציג" in reply
    assert chat.say("לא").startswith("בסדר")


@pytest.mark.parametrize("chat", [{"MEMO_RULE_SAME_MINUTE_REMINDERS": "2"}], indirect=True)
def test_more_reminders_in_one_minute_than_allowed(chat: Conversation) -> None:
    at_limit = chat.say("remind me to call mom at 9 and to call dad at 9")
    assert "call mom" in at_limit and "call dad" in at_limit
    past = chat.say("remind me to call ann at 9 and to call bob at 9 and to call cat at 9")
    assert past.startswith("I can set at most 2 reminders within the same minute, so I haven't set them."), (
        past
    )
    chat.say("no")
    assert len(_reminders(chat)) == 2


@pytest.mark.parametrize("chat", [{"MEMO_RULE_BLOCKED_WORDS": "casino, wire money"}], indirect=True)
def test_blocked_words_are_not_saved(chat: Conversation) -> None:
    reply = chat.say("note: wire money to the prince")
    assert reply.startswith("“wire money” is something I'm not allowed to save"), reply
    chat.say("no")
    # A word that only holds a blocked one is not it.
    assert "casinos" in chat.say("add casinos history to my reading list")
    hebrew = chat.say("תוסיף casino לרשימת הקניות")
    assert hebrew.startswith("„casino” הוא דבר שאני לא שומר"), hebrew
