"""Quoted replies (docs/undo-and-quoted-replies.md): a reply that quotes one of Memo's messages (WhatsApp's `context.id`) means the
items that message named, through the webhook with signed payloads, English and Hebrew.

The responder records, under the Graph API's message id of each reply, the items it confirmed or
listed; "it/that/זה" in a message replying to it binds to those items first, and asks which one
when it named several."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import boto3
import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.packing import unpack
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

APPROVE = 1
# Sunday 22 Nov 2026, 09:00 in Jerusalem.
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)
BUSINESS_NUMBER = "15550000000"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def local(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def _said(chat: Conversation, text: str) -> str:
    """Send `text`; the WhatsApp message id of Memo's (single) answer."""
    chat.say(text)
    return chat.stack.sink.messages(to=chat.user.wa_id)[-1].message_id


def _reply_to(chat: Conversation, message_id: str, text: str) -> str:
    """Reply to one of Memo's messages (long-press -> Reply), as WhatsApp sends it."""
    message = chat.user.text(text)
    message["context"] = {"from": BUSINESS_NUMBER, "id": message_id}
    (answer,) = chat.deliver(message)
    return answer


def test_move_it_in_a_reply_to_the_first_confirmation_moves_that_reminder(dana: Conversation) -> None:
    mom = _said(dana, "remind me to call mom today at 5pm")
    _said(dana, "remind me to call dad today at 6pm")
    assert (
        _reply_to(dana, mom, "move it to 8pm")
        == "Updated the reminder “call mom” — now for Sun 22 Nov, 20:00."
    )
    assert dana.say("show my reminders") == (
        "Your reminders:\n• “call dad” — Sun 22 Nov, 18:00\n• “call mom” — Sun 22 Nov, 20:00"
    )
    # Without a quote "it" is still the latest action: the reminder just moved.
    assert dana.say("move it to 9pm") == "Updated the reminder “call mom” — now for Sun 22 Nov, 21:00."


@pytest.mark.parametrize(
    "asked", ["what time is this?", "What time is that one?", "what time's this reminder"]
)
def test_what_time_is_this_in_a_reply_is_the_quoted_reminder_s_time(dana: Conversation, asked: str) -> None:
    # "what time is this?" quoting a confirmation was not understood.
    mom = _said(dana, "remind me to call mom today at 5pm")
    _said(dana, "remind me to call dad today at 6pm")
    assert _reply_to(dana, mom, asked) == "Your reminders about “call mom”:\n• “call mom” — Sun 22 Nov, 17:00"
    assert dana.say("what time is it?") == "It's 09:00 on Sun 22 Nov."  # the clock, as before


def test_the_record_of_a_sent_message_names_its_items_and_expires(dana: Conversation) -> None:
    mom = _said(dana, "remind me to call mom today at 5pm")
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    item = ddb.get_item(
        TableName="memo-conversation",
        Key={"pk": {"S": f"THREAD#{dana.user.wa_id}"}, "sk": {"S": f"CTX#{mom}"}},
    )["Item"]
    (action,) = json.loads(unpack(item["actions"]["B"]))  # packed, as the latest actions are
    assert action["capability"] == "reminders"
    assert "reminderId" in action["externalIds"]
    assert int(item["ttl"]["N"]) == int(START.timestamp()) + 12 * 3600


def test_delete_it_in_hebrew_in_a_reply_deletes_the_quoted_reminder(dana: Conversation) -> None:
    mom = _said(dana, "תזכיר לי היום ב-5 להתקשר לאמא")
    _said(dana, "תזכיר לי היום ב-6 להתקשר לאבא")
    question = _reply_to(dana, mom, "מחק את זה")
    assert "„להתקשר לאמא”" in question and "לאבא" not in question
    assert dana.tap(APPROVE) == "מחקתי את התזכורת „להתקשר לאמא”."
    assert dana.say("תראה לי את התזכורות שלי") == "התזכורות שלך:\n• „להתקשר לאבא” — יום א׳ 22.11 בשעה 18:00"


def test_it_in_a_reply_to_a_list_of_several_asks_which_one(dana: Conversation) -> None:
    _said(dana, "remind me to call mom today at 5pm")
    _said(dana, "remind me to call dad today at 6pm")
    listing = _said(dana, "show my reminders")
    question = _reply_to(dana, listing, "delete it")
    assert question.startswith("Which one do you mean?")
    assert [c.title for c in dana.choices] == ["call mom — Sun 22 Nov, 17:00", "call dad — Sun 22 Nov, 18:00"]
    approval = dana.tap(2)
    assert "“call dad”" in approval and "call mom" not in approval
    assert dana.tap(APPROVE) == "Deleted the reminder “call dad”."


def test_a_quote_of_a_message_that_named_nothing_falls_back_to_the_latest_action(dana: Conversation) -> None:
    greeting = _said(dana, "hi")
    _said(dana, "remind me to call mom today at 5pm")
    assert _reply_to(dana, greeting, "move it to 8pm") == (
        "Updated the reminder “call mom” — now for Sun 22 Nov, 20:00."
    )


def test_cancel_this_in_a_reply_to_a_confirmation_deletes_that_reminder(dana: Conversation) -> None:
    mom = _said(dana, "remind me to call mom today at 5pm")
    _said(dana, "remind me to call dad today at 6pm")
    # "cancel this" with no question open is no stale answer: the quoted reminder, after approval.
    question = _reply_to(dana, mom, "cancel this")
    assert "“call mom”" in question and "call dad" not in question
    assert dana.say("yes") == "Deleted the reminder “call mom”."
    # And unquoted, right after a reminder was set: that one.
    dana.say("תזכיר לי להתקשר לסבתא היום ב-19:00")
    assert "„להתקשר לסבתא”" in dana.say("תבטל את זה")


def test_yes_quoting_an_earlier_question_approves_nothing(dana: Conversation) -> None:
    _said(dana, "remind me to call mom today at 5pm")
    _said(dana, "remind me to call dad today at 6pm")
    mom_question = _said(dana, "delete the call mom reminder")
    assert dana.say("no") == "OK, cancelled. Nothing was changed."
    dana.say("delete the call dad reminder")
    # "yes" in a reply to the earlier question about mom is not the answer to the one about dad.
    again = _reply_to(dana, mom_question, "yes")
    assert again.startswith("I can't tell which of my messages you answered, so I didn't act on it.")
    assert "“call dad”" in again
    # Answered as itself, it runs: only dad's is deleted.
    assert dana.say("yes") == "Deleted the reminder “call dad”."
    listed = dana.say("show my reminders")
    assert "call mom" in listed and "call dad" not in listed
    hebrew = _reply_to(dana, mom_question, "כן")
    assert not hebrew.startswith("מחקתי")  # no question open now: nothing is approved by it


def test_and_again_in_a_reply_repeats_the_quoted_reminder(dana: Conversation) -> None:
    # Was the latest reminder ("call dad") once more, though the reply quoted "call mom".
    mom = _said(dana, "remind me to call mom today at 5pm")
    _said(dana, "remind me to call dad today at 6pm")
    assert (
        _reply_to(dana, mom, "and again in 4 hours") == "⏰ Reminder set: “call mom” for Sun 22 Nov, 13:00."
    )
    # A quoted listing names several: no one of them is repeated on a guess.
    listing = _said(dana, "show my reminders")
    assert "Reminder set" not in _reply_to(dana, listing, "and again tomorrow")
    assert dana.say("show my reminders").count("call mom") == 2


# What the quoted confirmation named, what was done after it, and "it" said in a reply to it.
_QUOTED_OTHER_KINDS = [
    ("add pears to my shopping list", "remind me to call mom today at 5pm", "remove it"),
    ("add pears to my shopping list", "note: gate code 1234", "take it off the list"),
    ("note: gate code 1234", "remind me to call mom today at 5pm", "delete it"),
    ("note: gate code 1234", "add pears to my shopping list", "delete that"),
    ("remind me to call mom today at 6pm", "add pears to my shopping list", "delete it"),
    ("remind me to call mom today at 6pm", "note: gate code 1234", "cancel this"),
]
_NAMED = {"add": "pears", "note:": "gate code 1234", "remind": "call mom"}


def _everything(chat: Conversation) -> str:
    return "\n".join(
        chat.say(s) for s in ("show my reminders", "show my notes", "what's on my shopping list?")
    )


@pytest.mark.parametrize(("quoted", "after", "said"), _QUOTED_OTHER_KINDS)
def test_it_in_a_reply_is_the_quoted_item_whatever_kind_was_done_since(
    dana: Conversation, quoted: str, after: str, said: str
) -> None:
    # "delete it" quoting "Saved your note" after a reminder was set asked to delete the *reminder*
    # (and a "yes" deleted it); "remove it" quoting "Added pears" answered it was gone.
    message_id = _said(dana, quoted)
    _said(dana, after)
    named, untouched = _NAMED[quoted.split()[0]], _NAMED[after.split()[0]]
    answer = _reply_to(dana, message_id, said)
    assert named in answer and untouched not in answer
    if answer.startswith("Before I go ahead"):
        assert dana.tap(APPROVE).startswith("Deleted the")
    left = _everything(dana)
    assert named not in left and untouched in left


def test_hebrew_it_in_a_reply_to_a_list_add_removes_that_item(dana: Conversation) -> None:
    added = _said(dana, "תוסיף אגסים לרשימת הקניות")
    _said(dana, "תזכיר לי היום ב-5 להתקשר לאמא")
    assert "אגסים" in _reply_to(dana, added, "תוריד את זה")
    assert "אגסים" not in dana.say("מה ברשימת הקניות?")
    assert "להתקשר לאמא" in dana.say("תראה לי את התזכורות שלי")


@pytest.mark.parametrize(
    ("said", "first"),
    [
        ("move the last one to saturday", False),
        ("move the last one to saturday at 9", False),
        ("push the last one by an hour", False),
        ("תעביר את האחרונה לשבת", False),
        ("move the first one to saturday", True),
    ],
)
def test_the_last_or_first_one_in_a_reply_to_a_listing_is_that_one(
    dana: Conversation, said: str, first: bool
) -> None:
    # "move the last one to saturday" quoting a listing of two asked "Which one do you mean?", and a
    # new request then set it aside as "update the reminder “listed 2 reminder(s)”".
    _said(dana, "remind me to call the bank on monday at 9")
    _said(dana, "remind me to buy flowers on friday at 10")
    listing = _said(dana, "show my reminders")
    moved = _reply_to(dana, listing, said)
    assert ("call the bank" if first else "buy flowers") in moved
    assert ("buy flowers" if first else "call the bank") not in moved
    assert "listed" not in moved and "Which one" not in moved
    listed = dana.say("show my reminders")
    assert ("“buy flowers” — Fri 27 Nov, 10:00" in listed) is first
    assert ("“call the bank” — Mon 23 Nov, 09:00" in listed) is not first


def test_a_listing_is_never_named_as_a_reminder(dana: Conversation) -> None:
    _said(dana, "remind me to call the bank on monday at 9")
    _said(dana, "remind me to buy flowers on friday at 10")
    listing = _said(dana, "show my reminders")
    assert _reply_to(dana, listing, "move it to saturday").startswith("Which one do you mean?")
    answer = dana.say("delete the gym reminder")
    assert "listed" not in answer and "reminder(s)" not in answer


def _sent(chat: Conversation, text: str) -> str:
    """Send `text`; its own WhatsApp message id (what a reply quoting it carries)."""
    message = chat.user.text(text)
    chat.deliver(message)
    return str(message["id"])


def _reply_to_own(chat: Conversation, message_id: str, text: str) -> str:
    """Reply to one of the user's own earlier messages (long-press -> Reply on it)."""
    message = chat.user.text(text)
    message["context"] = {"from": chat.user.wa_id, "id": message_id}
    (answer,) = chat.deliver(message)
    return answer


@pytest.mark.parametrize(
    ("first", "second", "said", "changed", "kept"),
    [
        (
            "remind me to call dad today at 6pm",
            "remind me to buy a birthday card on friday at 11",
            "make it 7",
            "“call dad” — Sun 22 Nov, 19:00",
            "“buy a birthday card” — Fri 27 Nov, 11:00",
        ),
        (
            "remind me to call dad today at 6pm",
            "remind me to buy a birthday card on friday at 11",
            "move it to 8pm",
            "“call dad” — Sun 22 Nov, 20:00",
            "“buy a birthday card” — Fri 27 Nov, 11:00",
        ),
        (
            "תזכיר לי להתקשר לאבא היום ב-18:00",
            "תזכיר לי לקנות כרטיס ביום שישי ב-11",
            "תזיז את זה לשבע",
            "„להתקשר לאבא” — יום א׳ 22.11 בשעה 19:00",
            "„לקנות כרטיס” — יום ו׳ 27.11 בשעה 11:00",
        ),
    ],
)
def test_it_quoting_your_own_request_is_what_that_request_did(
    dana: Conversation, first: str, second: str, said: str, changed: str, kept: str
) -> None:
    # "make it 7" quoting "remind me to call dad…" moved the birthday card reminder set after it.
    asked = _sent(dana, first)
    _sent(dana, second)
    _reply_to_own(dana, asked, said)
    listed = dana.say("מה התזכורות שלי?" if "„" in changed else "show my reminders")
    assert changed in listed and kept in listed


def test_a_list_item_quoting_your_own_add_is_that_item(dana: Conversation) -> None:
    # Quoting "add olive oil…", "make it 2 bottles of olive oil" renamed the paper towels added after.
    oil = _sent(dana, "add olive oil to the shopping list")
    _sent(dana, "add paper towels to the shopping list")
    assert "“olive oil”" in _reply_to_own(dana, oil, "actually make it 2 bottles of olive oil")
    towels = _sent(dana, "add dish soap to the shopping list")
    assert "dish soap" in _reply_to_own(dana, towels, "תמחק את זה")
    shown = dana.say("show the shopping list")
    assert "2 bottles of olive oil" in shown and "paper towels" in shown
    assert "dish soap" not in shown and "• olive oil" not in shown


def test_a_quote_of_your_own_message_that_did_nothing_is_the_latest_action(dana: Conversation) -> None:
    hello = _sent(dana, "hi")
    _sent(dana, "remind me to call mom today at 5pm")
    assert _reply_to_own(dana, hello, "move it to 8pm") == (
        "Updated the reminder “call mom” — now for Sun 22 Nov, 20:00."
    )


@pytest.mark.parametrize(
    ("request_", "answer", "set_"),
    [
        ("remind me to buy a gift", "tomorrow at 10", "⏰ Reminder set: “buy a gift” for Mon 23 Nov, 10:00."),
        ("remind me to call the bank", "at 4pm", "⏰ Reminder set: “call the bank” for Sun 22 Nov, 16:00."),
        ("תזכיר לי לקנות מתנה", "מחר ב-10", "⏰ קבעתי תזכורת „לקנות מתנה” ליום ב׳ 23.11 בשעה 10:00."),
    ],
)
def test_a_time_quoting_your_own_request_whose_question_was_set_aside_answers_it(
    dana: Conversation, request_: str, answer: str, set_: str
) -> None:
    # "When should I remind you?" was set aside by another request; "tomorrow at 10" quoting the
    # request was "I'm not sure I understood".
    asked = _sent(dana, request_)
    _sent(dana, "add milk to the shopping list")
    assert _reply_to_own(dana, asked, answer) == set_
    assert set_.split("”")[0].split("“" if "“" in set_ else "„")[1] in dana.say("show my reminders")


def test_words_quoting_a_message_that_asked_nothing_are_still_not_understood(dana: Conversation) -> None:
    hello = _sent(dana, "hi")
    assert _reply_to_own(dana, hello, "tomorrow at 10").startswith("I'm not sure I understood")
    assert dana.say("show my reminders") == "You have no upcoming reminders."
