"""A reminder's title and a list item have a length (`MEMO_TITLE_MAX_CHARS`, 500 by default).

Through the webhook with signed payloads, on the local stack, in English and Hebrew: a title or an
item at the limit is kept whole; one character more refuses the whole request before anything is
saved or started, and says how long it was, the limit and what to do instead. The items sent with a
long one are not added either. The limit is configuration.
"""

from __future__ import annotations

from typing import Any

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.settings import DEFAULT_TITLE_MAX_CHARS
from memo.wiring.webhook import WebhookRuntime
from tests.support.conversation import Conversation

LIMIT = DEFAULT_TITLE_MAX_CHARS
ASK = "remind me tomorrow at 9am to "
ASK_HE = "תזכיר לי מחר ב-9 בבוקר "
# Words with no "and", "then" or Hebrew "ו-" (where a message may hold a second request).
WORDS = "call the bank about the card "
HEBREW = "להתקשר לבנק בעניין הכרטיס "


def _text(chars: int, filler: str = WORDS) -> str:
    """`chars` characters of `filler` over and over, ending in a digit (nothing for a reader to strip)."""
    return (filler * (chars // len(filler) + 1))[: chars - 1] + "7"


def _reminders(chat: Conversation) -> list[Any]:
    return WebhookRuntime.current().items.list_reminders(chat.user.wa_id)


def _executions(stack: LocalStack) -> list[dict[str, Any]]:
    assert stack.stepfunctions is not None
    sfn = stack.stepfunctions.sfn
    return list(sfn.list_executions(stateMachineArn=stack.stepfunctions.state_machine_arn)["executions"])


def _too_long_en(chars: int, limit: int = LIMIT) -> str:
    return (
        f"That reminder's text is {chars:,} characters long, and I keep reminders of up to {limit:,} "
        "characters, so I didn't set it. Could you shorten it, or save the details as a note?"
    )


@pytest.mark.parametrize("chars", [LIMIT - 1, LIMIT])
def test_a_title_up_to_the_limit_is_kept_whole(chat: Conversation, chars: int) -> None:
    title = _text(chars)
    assert chat.say(ASK + title).startswith("⏰ Reminder set: “call the bank about the card")
    (reminder,) = _reminders(chat)
    assert reminder.title == title


@pytest.mark.parametrize("chars", [LIMIT + 1, 2 * LIMIT, 4_000])
def test_a_title_past_the_limit_is_refused_and_nothing_is_set(
    chat: Conversation, stack: LocalStack, chars: int
) -> None:
    assert chat.say(ASK + _text(chars)) == _too_long_en(chars)
    assert _reminders(chat) == [] and _executions(stack) == []
    # The next request is taken as usual.
    assert chat.say(ASK + "call the bank").startswith("⏰ Reminder set: “call the bank”")


def test_a_title_past_the_limit_in_hebrew(chat: Conversation, stack: LocalStack) -> None:
    assert chat.say(ASK_HE + _text(LIMIT, HEBREW)).startswith("⏰ קבעתי תזכורת „להתקשר לבנק")
    refused = chat.say(ASK_HE + _text(LIMIT + 1, HEBREW))
    assert refused == (
        f"הטקסט של התזכורת ארוך מדי: {LIMIT + 1:,} תווים, ואני שומר תזכורות של עד {LIMIT:,} תווים, "
        "אז לא קבעתי אותה. אפשר לקצר אותו, או לשמור את הפרטים כפתק?"
    )
    assert len(_reminders(chat)) == 1


def test_a_long_title_given_in_an_answer_is_refused_too(chat: Conversation) -> None:
    """The day is asked first; the answer brings nothing longer, but the title was already too long:
    a request completed by an answer is refused like one sent whole."""
    asked = chat.say("remind me tomorrow to " + _text(LIMIT + 1))
    assert asked.startswith("What time on")
    assert chat.say("at 9am") == _too_long_en(LIMIT + 1)
    assert _reminders(chat) == []


def test_an_item_past_the_limit_refuses_every_item_of_the_message(chat: Conversation) -> None:
    at_limit = _text(LIMIT, "oat milk, the barista one ")
    assert chat.say(f"add {at_limit} to my shopping list").startswith("Added")
    refused = chat.say(f"add eggs, bread, {_text(LIMIT + 1, 'rye bread ')} to my shopping list")
    assert refused == (
        f"One of those items is {LIMIT + 1:,} characters long, and I keep list items of up to {LIMIT:,} "
        "characters, so I didn't add anything. Could you shorten it, or save it as a note?"
    )
    shown = chat.say("what's on my shopping list")
    assert "oat milk" in shown and "eggs" not in shown and "bread" not in shown


def test_an_item_past_the_limit_in_hebrew(chat: Conversation) -> None:
    refused = chat.say(f"תוסיף {_text(LIMIT + 1, 'חלב שקדים ')} לרשימת הקניות")
    assert refused == (
        f"הפריט ארוך מדי: {LIMIT + 1:,} תווים, ואני שומר פריטים ברשימה של עד {LIMIT:,} תווים, "
        "אז לא הוספתי כלום. אפשר לקצר אותו, או לשמור אותו כפתק?"
    )


@pytest.mark.parametrize("limit", [12, 1_024])
def test_the_title_limit_is_configuration(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    monkeypatch.setenv("MEMO_TITLE_MAX_CHARS", str(limit))
    with LocalStack(start_poller=False) as stack:
        chat = Conversation(stack=stack, user=WhatsAppUser())
        assert chat.say(ASK + _text(limit + 1)) == _too_long_en(limit + 1, limit)
        assert chat.say(ASK + _text(limit)).startswith("⏰ Reminder set:")
        (reminder,) = _reminders(chat)
        assert len(reminder.title) == limit
