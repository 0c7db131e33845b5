"""Answers to Memo's questions through the webhook, with signed payloads, as a person sends them:
what runs is exactly what the person approved (English and Hebrew, then the next message)."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest

from memo.local.stack import LocalStack
from tests.integration.hitl.test_flow import _age_pending
from tests.support.conversation import Conversation, LogEvents

APPROVE, EDIT, REJECT = 1, 2, 3


def _reminders(chat: Conversation) -> str:
    return chat.say("show my reminders")


# --- 1. resolve, then ask ----------------------------------------------------------------------------


def test_the_approval_names_the_items_not_the_search_word(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    picker = chat.say("delete the call reminder")
    assert picker.startswith("Which one do you mean?")
    approval = chat.say("2")
    assert approval.startswith("Before I go ahead: I'm about to delete 1 reminder:\n1. “call dad” — ")
    assert "18:00" in approval and "“call”" not in approval
    assert chat.tap(APPROVE) == "Deleted the reminder “call dad”."
    assert "call mom" in _reminders(chat)


def test_all_means_every_match_beyond_the_ten_rows_of_a_list(
    chat: Conversation, log_events: LogEvents
) -> None:
    for hour in range(11):
        chat.say(f"remind me to call client {hour + 1} tomorrow at {hour + 8}:00")
    picker = chat.say("delete the call reminders")
    assert len(chat.choices) == 10
    assert "…and 1 more. “all” means all 11 of them." in picker
    approval = chat.say("all")
    assert len(log_events.named("HITL_RESUME_VALID")[-1]["parsedResult"]["candidateIds"]) == 11
    assert "I'm about to delete 11 reminders:" in approval and "…and 1 more" in approval
    assert log_events.named("HITL_CREATED")[-1]["items"] == 11  # the 11th is not dropped
    # (11 deletes go to an operator's review first; here the person changes their mind.)
    assert chat.tap(REJECT) == "OK, cancelled. Nothing was changed."


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("the first two", "call the bank"),
        ("the last 2", "call mom"),
        ("first and third", "call dad"),
        ("השניים הראשונים", "call the bank"),
    ],
)
def test_places_pick_several_of_the_matches(chat: Conversation, said: str, kept: str) -> None:
    # "the first two" was "Sorry, I didn't catch that".
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("remind me to call the bank tomorrow at 7pm")
    assert chat.say("delete the call reminders").startswith("Which ones do you mean?")
    approval = chat.say(said)
    if said.isascii():
        assert (
            approval.startswith("Before I go ahead: I'm about to delete 2 reminders:")
            and kept not in approval
        )
        assert chat.tap(APPROVE).startswith("Deleted 2 reminders")
    else:  # said in Hebrew: the rest is said in Hebrew
        assert approval.startswith("רגע לפני: אני עומד למחוק 2 תזכורות:") and kept not in approval
        assert chat.tap(APPROVE).startswith("מחקתי 2 תזכורות")
    assert f"“{kept}”" in _reminders(chat)


# --- 2. answers can only narrow ---------------------------------------------------------------------


def test_yes_but_only_tomorrows_deletes_only_tomorrows(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to pay the bank in 3 days at 9am")
    approval = chat.say("delete all my reminders")
    assert "delete all your reminders (2):" in approval
    assert "“call mom”" in approval and "“pay the bank”" in approval
    assert chat.say("yes but only the ones for tomorrow") == "Deleted 1 reminder: “call mom”."
    listed = _reminders(chat)
    assert "pay the bank" in listed and "call mom" not in listed


def test_the_first_one_and_several_by_name_narrow(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("remind me to buy milk tomorrow at 7pm")
    chat.say("delete all my reminders")
    assert chat.say("ok just the first one") == "Deleted 1 reminder: “call mom”."
    chat.say("delete all my reminders")
    assert chat.say("only dad and the milk") == "Deleted 2 reminders: “call dad”, “buy milk”."
    assert _reminders(chat) == "You have no upcoming reminders."
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי להתקשר לאבא מחר ב-18:00")
    chat.say("תמחק את כל התזכורות שלי")
    # "all but the last": the last stays.
    assert chat.say("חוץ מהאחרונה") == "מחקתי תזכורת אחת: „להתקשר לאמא”."
    assert "להתקשר לאבא" in _reminders(chat)


def test_edit_on_a_delete_asks_what_to_keep_and_dont_delete_dad_keeps_him(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete all my reminders")
    assert chat.tap(2).startswith("What should I change? You can keep some")  # Edit
    approval = chat.say("actually don't delete dad")
    assert "I'm about to delete 1 reminder:" in approval and "call dad" not in approval
    assert chat.say("approve") == "Deleted 1 reminder: “call mom”."
    assert "call dad" in _reminders(chat)
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי להתקשר לאבא מחר ב-18:00")
    chat.say("תמחק את כל התזכורות שלי")
    # Said to the approval itself, the exclusion approves the rest (as "not 2" does); "dad" spares
    # every dad reminder, in either language (“call dad” was deleted).
    assert chat.say("בעצם אל תמחק את אבא") == "מחקתי תזכורת אחת: „להתקשר לאמא”."
    listed = chat.say("מה התזכורות שלי?")
    assert "להתקשר לאבא" in listed and "להתקשר לאמא" not in listed and "call dad" in listed


def test_a_yes_that_names_items_deletes_only_those(chat: Conversation) -> None:
    # Was: "yes delete mom and dad" deleted all three, and "ok delete the first two" too.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("remind me to buy milk tomorrow at 7pm")
    assert "delete all your reminders (3):" in chat.say("delete all my reminders")
    assert chat.say("yes delete mom and dad") == "Deleted 2 reminders: “call mom”, “call dad”."
    assert "buy milk" in _reminders(chat)
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    # Nothing shown is "the blue ones": asked again, nothing deleted.
    asked = chat.say("yes delete the blue ones")
    assert "Deleted" not in asked and "call mom" in _reminders(chat) and "buy milk" in _reminders(chat)
    chat.say("delete all my reminders")
    assert chat.say("ok delete the first two") == "Deleted 2 reminders: “call mom”, “buy milk”."
    assert _reminders(chat) == "You have no upcoming reminders."


def test_the_action_said_again_with_a_limit_and_a_second_thought(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("remind me to buy milk tomorrow at 7pm")
    chat.say("delete all my reminders")
    assert (
        chat.say("delete them except for the one about milk")
        == "Deleted 2 reminders: “call mom”, “call dad”."
    )
    assert "buy milk" in _reminders(chat)
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי להתקשר לאבא מחר ב-18:00")
    chat.say("תמחק את כל התזכורות שלי")
    assert chat.say("כן אבל רגע, תשאיר את אבא") == "מחקתי 2 תזכורות: „להתקשר לאמא”, „buy milk”."
    listed = _reminders(chat)
    assert "להתקשר לאבא" in listed and "להתקשר לאמא" not in listed and "buy milk" not in listed


def test_hebrew_yes_but_only_tomorrows(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי לשלם לבנק בעוד 3 ימים ב-9:00")
    approval = chat.say("תמחק את כל התזכורות שלי")
    assert "רגע לפני" in approval and "להתקשר לאמא" in approval and "לשלם לבנק" in approval
    assert chat.say("כן אבל רק של מחר") == "מחקתי תזכורת אחת: „להתקשר לאמא”."
    listed = chat.say("מה התזכורות שלי?")
    assert "לשלם לבנק" in listed and "להתקשר לאמא" not in listed


def test_not_the_one_for_dad(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete all my reminders")
    assert chat.say("not the one for dad") == "Deleted 1 reminder: “call mom”."
    listed = _reminders(chat)
    assert "call dad" in listed and "call mom" not in listed


def test_a_limit_that_maps_to_nothing_is_asked_again_and_deletes_nothing(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete all my reminders")
    hitl_id = log_events.named("HITL_CREATED")[-1]["hitlId"]
    again = chat.say("yes but only the purple ones")
    assert again.startswith("I couldn't tell which of them you mean")
    assert [c.title for c in chat.choices] == ["Approve", "Edit", "Reject"]
    assert log_events.named("HITL_RE_ASK")[-1]["hitlId"] == hitl_id
    assert chat.tap(REJECT) == "OK, cancelled. Nothing was changed."
    listed = _reminders(chat)
    assert "call mom" in listed and "call dad" in listed


def test_edit_on_a_delete_all_with_a_time_is_explained_never_executed(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete all my reminders")
    assert chat.tap(EDIT).startswith("What should I change?")
    explained = chat.say("change the time to 6pm")
    assert explained.startswith("There's no time to change on a delete. Nothing was changed or deleted.")
    assert "delete all your reminders (2)" in explained
    assert [c.title for c in chat.choices] == ["Approve", "Edit", "Reject"]
    assert chat.tap(REJECT) == "OK, cancelled. Nothing was changed."
    listed = _reminders(chat)
    assert "call mom" in listed and "call dad" in listed


def test_hebrew_edit_with_a_time_on_a_delete(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תמחק את כל התזכורות שלי")
    assert chat.tap(EDIT).startswith("מה לשנות?")
    explained = chat.say("תשנה את השעה ל-18:00")
    assert explained.startswith("למחיקה אין שעה לשנות. לא שיניתי ולא מחקתי כלום.")
    assert chat.say("לא") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert "להתקשר לאמא" in chat.say("מה התזכורות שלי?")


def test_delete_it_then_edit_make_it_6pm_deletes_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    approval = chat.say("delete it")
    assert "“call mom”" in approval
    chat.tap(EDIT)
    explained = chat.say("make it 6pm")
    assert "Nothing was changed or deleted" in explained
    chat.tap(REJECT)
    assert "call mom" in _reminders(chat)


def test_a_rejection_with_a_reason(chat: Conversation, log_events: LogEvents) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    answer = chat.say("no, I still need the one for mom")
    assert answer.startswith("OK, cancelled. Nothing was changed. Thanks for telling me why")
    assert log_events.named("HITL_CANCELLED")[-1]["feedback"] == "I still need the one for mom"
    assert "call mom" in _reminders(chat)


# --- 3. new requests while a question is open -----------------------------------------------------


def test_a_new_request_while_when_is_open_is_its_own_request(
    chat: Conversation, log_events: LogEvents
) -> None:
    assert chat.say("remind me to book flights").startswith("When should I remind you?")
    reply = chat.say("remind me at noon to eat")
    assert "eat" in reply and "12:00" in reply and "flights" not in reply
    assert log_events.named("HITL_SWITCH_INTENT")
    listed = _reminders(chat)
    assert "eat" in listed and "flights" not in listed


def test_a_new_request_is_answered_in_its_own_language(chat: Conversation) -> None:
    assert "מתי" in chat.say("תזכיר לי להזמין טיסות")
    reply = chat.say("remind me tomorrow at 9am to call the bank")
    assert "call the bank" in reply and "09:00" in reply
    assert all(ch < "\u05d0" or ch > "\u05ea" for ch in reply)  # English, not Hebrew


@pytest.mark.parametrize(
    ("mom", "dad", "delete_dad", "delete_mom", "approve"),
    [
        (
            "remind me to call mom tomorrow at 5pm",
            "remind me to call dad tomorrow at 6pm",
            "delete call dad",
            "delete call mom",
            "Deleted the reminder “call mom”.",
        ),
        (
            "תזכיר לי מחר ב-5 אחרי הצהריים להתקשר לאמא",
            "תזכיר לי מחר ב-6 בערב להתקשר לאבא",
            "תמחק את להתקשר לאבא",
            "תמחק את להתקשר לאמא",
            "מחקתי את התזכורת „להתקשר לאמא”.",
        ),
    ],
)
def test_another_removal_said_to_a_removal_question_is_asked_of_its_own(
    chat: Conversation, mom: str, dad: str, delete_dad: str, delete_mom: str, approve: str
) -> None:
    # "delete mom's" to "delete dad's?": in Hebrew (לאמא / לאבא, a letter apart) it deleted dad's; in
    # English it answered "I couldn't tell which of them you mean". Now it is a question of its own.
    chat.say(mom)
    chat.say(dad)
    asked = chat.say(delete_dad)
    assert "call dad" in asked or "להתקשר לאבא" in asked
    asked = chat.say(delete_mom)
    assert ("call mom" in asked or "להתקשר לאמא" in asked) and "dad" not in asked and "לאבא" not in asked
    assert chat.tap(APPROVE) == approve
    listed = _reminders(chat)
    assert "mom" not in listed and "לאמא" not in listed and ("call dad" in listed or "לאבא" in listed)


# --- 6. expiry and stale replies -------------------------------------------------------------------


def test_a_late_yes_offers_try_again_which_asks_the_original_request_again(
    chat: Conversation, stack: LocalStack
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    _age_pending(stack, seconds=301)
    assert chat.say("yes").startswith("That request expired — want to try again?")
    assert [c.title for c in chat.choices] == ["Try again"]
    again = chat.tap(1)
    assert again.startswith("Before I go ahead: I'm about to delete all your reminders (1):")
    assert chat.tap(APPROVE) == "Deleted 1 reminder: “call mom”."


def test_a_late_hebrew_yes_gets_the_hebrew_expiry_message(chat: Conversation, stack: LocalStack) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תמחק את כל התזכורות שלי")
    _age_pending(stack, seconds=301)
    assert chat.say("כן").startswith("הבקשה הקודמת פגה — רוצה לנסות שוב?")
    assert [c.title for c in chat.choices] == ["לנסות שוב"]
    assert "להתקשר לאמא" in chat.say("מה התזכורות שלי?")  # a new request, not an answer


def test_with_nothing_pending_acknowledgements_are_not_stale(chat: Conversation) -> None:
    assert chat.say("ok") == "👍 Just say the word if you need anything."
    assert chat.say("👍") == "👍 Just say the word if you need anything."
    assert chat.say("sure") == "👍 Just say the word if you need anything."
    assert chat.say("thanks") == "You're welcome! I'm here if you need anything else."
    assert chat.say("yes") == "I'm not waiting on a question right now — what would you like to do?"
    assert chat.say("2") == "I'm not waiting on a question right now — what would you like to do?"


def test_a_laugh_opens_no_question(chat: Conversation) -> None:
    # "lol" was "I'm not sure I understood — what would you like me to do?", and a question was open.
    assert chat.say("lol") == "😄 Just say the word if you need anything."
    assert chat.say("hahaha 😂") == "😄 Just say the word if you need anything."
    assert chat.say("חחחח") == "😄 אם צריך משהו — אני כאן."
    assert chat.say("yes") == "I'm not waiting on a question right now — what would you like to do?"
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete it")
    assert chat.say("haha").startswith("Sorry, I didn't catch that")  # never an approval
    assert "call mom" in chat.say("show my reminders")


def test_hebrew_acknowledgement_and_stale_yes(chat: Conversation) -> None:
    assert chat.say("תודה") == "בכיף! אני כאן אם צריך עוד משהו."
    assert chat.say("כן").startswith("אני לא מחכה לתשובה כרגע")


# --- 7. changed candidates, the trace ----------------------------------------------------------------


def test_an_item_deleted_meanwhile_is_resolved_again_not_applied_from_the_frozen_list(
    chat: Conversation, log_events: LogEvents
) -> None:
    from memo.wiring.webhook import WebhookRuntime

    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete all my reminders")
    items = WebhookRuntime.current().items
    dad = next(r for r in items.list_upcoming_reminders(chat.user.wa_id, _now()) if r.title == "call dad")
    items.delete_reminder(chat.user.wa_id, dad.reminder_id)  # another device, meanwhile
    again = chat.say("yes")
    assert again.startswith("Something changed since I asked (“call dad” was deleted meanwhile)")
    assert "delete all your reminders (1):\n1. “call mom”" in again
    assert log_events.named("HITL_CANDIDATES_CHANGED")
    assert chat.tap(APPROVE) == "Deleted 1 reminder: “call mom”."


def test_hebrew_an_item_renamed_meanwhile_is_shown_again_then_the_next_yes_deletes_what_was_shown(
    chat: Conversation,
) -> None:
    # The answer reads the shown items again: a rename is said, and the question asked again.
    from memo.wiring.webhook import WebhookRuntime

    chat.say("תזכיר לי מחר ב-17:00 להתקשר לאמא")
    chat.say("תזכיר לי מחר ב-18:00 לקנות חלב")
    assert "(2)" in chat.say("תמחק את כל התזכורות שלי")
    items = WebhookRuntime.current().items
    milk = next(r for r in items.list_upcoming_reminders(chat.user.wa_id, _now()) if "חלב" in r.title)
    items.update_reminder(chat.user.wa_id, milk.reminder_id, title="לקנות חלב ולחם")  # another device
    again = chat.say("כן")
    assert again.startswith("משהו השתנה מאז ששאלתי")
    assert "נקרא עכשיו „לקנות חלב ולחם”" in again and "(2)" in again
    assert len(items.list_upcoming_reminders(chat.user.wa_id, _now())) == 2  # nothing deleted yet
    done = chat.say("כן")
    assert done.startswith("מחקתי") and "2" in done, done
    assert items.list_upcoming_reminders(chat.user.wa_id, _now()) == []


class _Formatted(logging.Handler):
    """Each log line of Memo's logger as JSON, formatted when it is logged (with the bound keys)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        from memo.observability import logger

        self.formatter_ = logger.registered_formatter
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.formatter_.format(record)))


def test_every_log_line_of_a_resumed_turn_has_the_original_trace_id(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    original = log_events.named("HITL_CREATED")[-1]["traceId"]
    formatted = _Formatted()
    memo_logger = logging.getLogger("memo")
    memo_logger.addHandler(formatted)
    try:
        answer = chat.user.text("yes")
        assert chat.deliver(answer) == ["Deleted 1 reminder: “call mom”."]
    finally:
        memo_logger.removeHandler(formatted)
    # Every line after the ingress (which runs before any turn): the turn's, its execution's.
    turn = [line for line in formatted.lines if line["message"] != "WEBHOOK_ACCEPTED"]
    assert {line["message"] for line in turn} >= {"HITL_RESUME_VALID", "TURN_DONE"}
    assert {line.get("traceId") for line in turn} == {original}
    assert answer["id"] != original  # the reply's own wamid is never the trace


def _now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


def test_an_item_of_two_deletes_changed_meanwhile_is_said_and_both_asked_again(
    chat: Conversation, log_events: LogEvents
) -> None:
    # One approval of two steps: each step's items are read again at the answer, as one step's are.
    from memo.wiring.webhook import WebhookRuntime

    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert "“call dad”" in chat.say("delete the mom reminder and delete the dad reminder")
    items = WebhookRuntime.current().items
    dad = next(r for r in items.list_upcoming_reminders(chat.user.wa_id, _now()) if r.title == "call dad")
    items.update_reminder(chat.user.wa_id, dad.reminder_id, title="call dad about the car")  # meanwhile
    again = chat.say("yes")
    assert again.startswith("Something changed since I asked")
    assert "“call dad about the car”" in again and log_events.named("HITL_CANDIDATES_CHANGED")
    listed = chat.say("show my reminders")
    assert "call mom" in listed and "call dad about the car" in listed  # nothing ran


@pytest.mark.parametrize("answer", ["actually just delete dad", "just delete dad", "only remove dad"])
def test_just_the_action_on_one_deletes_only_that_one(chat: Conversation, answer: str) -> None:
    # Was: "I couldn't tell which of them you mean" (the action word was read as part of a name).
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete all my reminders")
    assert chat.say(answer) == "Deleted 1 reminder: “call dad”."
    left = _reminders(chat)
    assert "call mom" in left and "call dad" not in left


@pytest.mark.parametrize(
    "answer",
    [
        "no, the milk one instead",
        "no wait, I meant milk",
        "no, actually delete the milk",
        "לא, דווקא את החלב",
    ],
)
def test_no_the_other_one_asks_to_delete_that_one_and_deletes_nothing_yet(
    chat: Conversation, answer: str
) -> None:
    # It was "OK, cancelled. ... Thanks for telling me why — I've noted it.", the words taken for a
    # reason; the delete meant is now asked for as a request of its own.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to buy milk tomorrow at 6pm")
    assert "“call mom”" in chat.say("delete the mom reminder")
    asked = chat.say(answer)
    assert "buy milk" in asked and "call mom" not in asked and "Deleted" not in asked, asked
    assert "buy milk" in _reminders(chat) and "call mom" in _reminders(chat)
    chat.say("delete the mom reminder")
    chat.say(answer)
    chat.tap(APPROVE)
    left = _reminders(chat)
    assert "call mom" in left and "buy milk" not in left


def test_no_with_a_reason_or_an_item_not_there_deletes_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete the mom reminder")
    assert chat.say("no, I still need it").endswith("Thanks for telling me why — I've noted it.")
    chat.say("delete the mom reminder")
    assert chat.say("no, the dentist one") == "I couldn't find a reminder matching “dentist”."
    assert "call mom" in _reminders(chat)


@pytest.mark.parametrize("answer", ["no, reject", "no, cancel it", "no thanks", "לא, עזוב"])
def test_a_refusal_said_twice_is_not_taken_for_a_reason(chat: Conversation, answer: str) -> None:
    # "no, reject" was "... Thanks for telling me why — I've noted it.", "reject" kept as the reason.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete the mom reminder")
    assert chat.say(answer) in ("OK, cancelled. Nothing was changed.", "בסדר, ביטלתי. לא שיניתי כלום.")
    assert "call mom" in _reminders(chat)


def test_only_keep_one_after_edit_shows_the_rest_for_approval(chat: Conversation) -> None:
    # "only keep bob" was "I couldn't tell which of them you mean".
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call bob tomorrow at 6pm")
    chat.say("delete all my reminders")
    chat.tap(EDIT)
    again = chat.say("only keep bob")
    assert again.startswith("Before I go ahead: I'm about to delete 1 reminder:\n1. “call mom”"), again
    assert chat.tap(APPROVE) == "Deleted 1 reminder: “call mom”."
    assert "call bob" in _reminders(chat)


@pytest.mark.parametrize(
    ("request_", "answer", "done"),
    [
        ("delete the call mom reminder", "כן", "מחקתי את התזכורת „call mom”."),
        ("delete the call mom reminder", "כן, תמחק", "מחקתי את התזכורת „call mom”."),
        ("delete the call mom reminder", "ok", "Deleted the reminder “call mom”."),
        ("delete the call mom reminder", "1", "Deleted the reminder “call mom”."),
        ("תמחק את התזכורת call mom", "ok", "מחקתי את התזכורת „call mom”."),
        ("תמחק את התזכורת call mom", "yes", "מחקתי את התזכורת „call mom”."),
    ],
)
def test_an_answer_in_hebrew_is_answered_in_hebrew(
    chat: Conversation, request_: str, answer: str, done: str
) -> None:
    # "כן" to an English approval was answered in English. An answer without Hebrew letters ("ok",
    # "1", "yes") keeps the question's language: people who write Hebrew type those too.
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say(request_).startswith(("Before I go ahead", "רגע לפני"))
    assert chat.say(answer) == done


@pytest.mark.parametrize(
    ("guess", "edit", "hint"),
    [
        (
            "add 2 more eggs",
            "change eggs to 12 eggs",
            "There's no time to change on a list, so I haven't done anything.",
        ),
        (
            "add 2 more eggs",
            "yes but at 5pm",
            "There's no time to change on a list, so I haven't done anything.",
        ),
        ("נגמר לנו הקפה", "כן אבל ב-12", ""),  # a yes with a limit: asked again as it is
    ],
)
def test_a_time_said_to_a_guessed_list_add_adds_nothing(
    chat: Conversation, guess: str, edit: str, hint: str
) -> None:
    # "change eggs to 12 eggs" to "Just to check — add 2 more eggs?" read "12" as noon, and the
    # list has no time: the edit was dropped and the eggs added as they were, on no yes.
    chat.say("add milk to my shopping list")
    question = chat.say(guess)
    assert question.startswith(("Just to check", "רק מוודא"))
    answer = chat.say(edit)
    assert answer.startswith(hint) and question in answer  # asked again
    listed = chat.say("what's on my shopping list?")
    assert "egg" not in listed and "קפה" not in listed


@pytest.mark.parametrize(
    ("first", "second", "then"),
    [
        ("on sunday", "actually monday", "at 5pm"),
        ("on sunday", "make it monday instead", "5pm"),
        ("on sunday", "actualy make it tuesday", "at 17:00"),
        ("ביום ראשון", "בעצם ביום שני", "ב-17:00"),
    ],
)
def test_a_day_said_instead_while_its_time_is_asked_moves_it_and_asks_the_time_of_that_day(
    chat: Conversation, first: str, second: str, then: str
) -> None:
    # It was "Sorry, I didn't catch that" (or "When should I remind you?", the day dropped).
    hebrew = "ב" in first
    asked = chat.say(f"תזכיר לי {first} להתקשר לסבתא" if hebrew else f"remind me to call grandma {first}")
    again = chat.say(second)
    assert again != asked and not again.startswith("Sorry"), again
    day = re.search(r"(?:What time on|באיזו שעה ב)(.+?)\?", again)
    assert day is not None, again
    assert _reminders(chat).count("grandma") + _reminders(chat).count("סבתא") == 0  # nothing set yet
    done = chat.say(then)
    assert day.group(1).strip() in done and "17:00" in done and done.startswith("⏰"), (again, done)


@pytest.mark.parametrize(
    "look",
    ["wait, what reminders do i have?", "show my reminders", "what do I have tomorrow?", "מה התזכורות שלי?"],
)
def test_a_question_that_only_looks_is_answered_and_the_approval_stays_open(
    chat: Conversation, look: str
) -> None:
    # It was answered and the approval dropped: the "yes" after it found no question.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to feed the cat tomorrow at 8am")
    assert chat.say("delete the cat reminder").startswith("Before I go ahead")
    listed = chat.say(look)
    assert "feed the cat" in listed and "call mom" in listed, listed
    assert chat.say("yes") == "Deleted the reminder “feed the cat”."
    assert "feed the cat" not in _reminders(chat)


def test_a_request_that_changes_something_still_takes_the_questions_place(chat: Conversation) -> None:
    chat.say("remind me to feed the cat tomorrow at 8am")
    chat.say("delete the cat reminder")
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")
    # The "yes" is told the question it may mean was set aside by the request, undone.
    assert chat.say("yes") == (
        "I'm not waiting on a question right now: the earlier one was set aside when you sent a new"
        " request, and nothing was done about it. Say it again if you still want it."
    )
    assert "feed the cat" in _reminders(chat)
