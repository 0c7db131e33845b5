"""A delete whose scope is broad and unstated ("delete my reminders", "תמחק את התזכורות שלי"),
through the webhook with signed payloads on the fake clock (a Monday at 10:00, Jerusalem).

It used to delete the reminder just made (read as "it"), or, in Hebrew, look for a reminder named
"שלי". Now, when several match, Memo first asks which of them (HITL reason `ambiguous_scope`): "all"
or numbers or names keep those, and the approval then lists exactly them; nothing is deleted on the
scope answer alone, and an answer Memo does not understand is asked again and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.conversation import log_events as log_events  # the fixture
from tests.support.week import START

SCOPE_EN = "All 3 reminders, or which ones?"
SCOPE_HE = "את כל 3 התזכורות, או אילו מהן?"


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def _three(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5")
    chat.say("remind me to go to the dentist on friday at 9")
    chat.say("remind me to buy bread at 6")


def _three_he(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי ללכת לרופא שיניים ביום שישי ב-9")
    chat.say("תזכיר לי לקנות לחם ב-18:00")


def _listed(chat: Conversation) -> list[str]:
    return chat.say("show my reminders").splitlines()[1:]


def test_the_scope_is_asked_and_a_number_keeps_only_that_one(
    chat: Conversation, log_events: LogEvents
) -> None:
    _three(chat)
    question = chat.say("delete my reminders")
    assert question.startswith(SCOPE_EN), question
    assert "buy bread" in question and "call mom" in question and "dentist" in question
    (created,) = [e for e in log_events.named("HITL_CREATED") if e["reason"] == "ambiguous_scope"]
    assert created["kind"] == "clarification" and created["source"] == "planner"
    assert created["returnTo"] == {"node": "resolver_router", "mode": "continue"}
    assert created["policySource"] is None
    approval = chat.say("2")
    # The approval lists only the one kept: nothing was deleted on the scope answer alone.
    assert approval.startswith("Before I go ahead: I'm about to delete 1 reminder:"), approval
    assert "call mom" in approval and "bread" not in approval and "dentist" not in approval
    assert len(_listed(chat)) == 3
    chat.say("delete my reminders")
    chat.say("2")
    assert chat.say("yes") == "Deleted 1 reminder: “call mom”."
    listed = _listed(chat)
    assert len(listed) == 2 and not any("call mom" in line for line in listed)


def test_all_of_them_goes_on_to_the_approval_of_all(chat: Conversation) -> None:
    _three(chat)
    chat.say("delete my reminders")
    approval = chat.say("all of them")
    assert approval.startswith("Before I go ahead: I'm about to delete all your reminders (3):"), approval
    assert chat.say("yes") == "Deleted 3 reminders: “buy bread”, “call mom”, “go to the dentist”."
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_names_keep_those(chat: Conversation) -> None:
    _three(chat)
    chat.say("remove my reminders")
    approval = chat.say("the dentist and bread")
    assert "I'm about to delete 2 reminders:" in approval, approval
    assert "call mom" not in approval


def test_a_typo_is_asked_again_and_changes_nothing(chat: Conversation, log_events: LogEvents) -> None:
    _three(chat)
    chat.say("delete my reminders")
    again = chat.say("teh blue onez")
    assert SCOPE_EN in again, again
    assert log_events.named("HITL_RE_ASK")
    # A number that is not on the list is no answer either.
    assert SCOPE_EN in chat.say("7")
    # The question is still open: an answer now is taken, and only narrows.
    assert "I'm about to delete 1 reminder:" in chat.say("1")
    assert chat.say("no").startswith("OK")
    assert len(_listed(chat)) == 3


def test_a_new_request_instead_is_its_own_request(chat: Conversation) -> None:
    _three(chat)
    chat.say("delete my reminders")
    made = chat.say("remind me to water the plants tomorrow at 8")
    assert "water the plants" in made and "Deleted" not in made
    assert len(_listed(chat)) == 4


def test_no_cancels_and_nothing_goes(chat: Conversation) -> None:
    _three(chat)
    chat.say("delete my reminders")
    assert chat.say("never mind").startswith("OK")
    assert len(_listed(chat)) == 3


def test_one_reminder_is_not_ambiguous(chat: Conversation, log_events: LogEvents) -> None:
    chat.say("remind me to call mom tomorrow at 5")
    approval = chat.say("delete my reminders")
    assert approval.startswith("Before I go ahead"), approval
    assert "call mom" in approval
    assert not [e for e in log_events.named("HITL_CREATED") if e["reason"] == "ambiguous_scope"]


def test_delete_all_keeps_its_approval(chat: Conversation) -> None:
    _three(chat)
    approval = chat.say("delete all my reminders")
    assert approval.startswith("Before I go ahead: I'm about to delete all your reminders (3):")


def test_hebrew_scope_then_all(chat: Conversation) -> None:
    _three_he(chat)
    question = chat.say("תמחק את התזכורות שלי")
    assert question.startswith(SCOPE_HE), question
    assert "„כולן”" in question
    approval = chat.say("כולן")
    assert approval.startswith("רגע לפני:"), approval
    chat.say("כן")
    assert chat.say("מה התזכורות שלי?") == "אין לך תזכורות קרובות."


def test_hebrew_scope_then_two_numbers(chat: Conversation) -> None:
    _three_he(chat)
    chat.say("תמחק את התזכורות שלי")
    approval = chat.say("1 ו-3")
    assert approval.startswith("רגע לפני:") and "2 תזכורות" in approval, approval
    chat.say("כן")
    listed = chat.say("מה התזכורות שלי?")
    assert len(listed.splitlines()) == 2
