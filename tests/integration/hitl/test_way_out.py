"""Every question Memo asks has a way out: "no", "keep it", "leave it", "never mind", "cancel" (and
their Hebrew) change nothing and say so, whatever was asked: which one, approve the delete, what
time, what about. Signed payloads through the webhook; the reminders are read back after."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation

NOTHING_CHANGED = {"en": "OK, cancelled. Nothing was changed.", "he": "בסדר, ביטלתי. לא שיניתי כלום."}
WAYS_OUT = {
    "en": ["no", "nope", "Keep it!", "leave it as is", "don't", "never mind.", "Actually no", "no wait"],
    "he": ["לא", "לא תודה", "תשאיר את זה", "אל תמחק", "לא משנה", "עזוב", "בעצם לא", "תשאירי אותה"],
}  # fmt: skip

SETUP = {
    "en": ["remind me to call mom tomorrow at 5pm", "remind me to call dad tomorrow at 6pm"],
    "he": ["תזכיר לי להתקשר לאמא מחר ב-17:00", "תזכיר לי להתקשר לאבא מחר ב-18:00"],
}
# Each kind of question, asked in each language: (the request, a start every such question has).
QUESTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "which one": {
        "en": ("delete the call reminder", "Which one do you mean?"),
        "he": ("תמחק את התזכורת להתקשר", "לאיזה מהם התכוונת?"),
    },
    "approve the delete": {
        "en": ("delete all my reminders", "Before I go ahead"),
        "he": ("תמחק את כל התזכורות שלי", "רגע לפני"),
    },
    "what time": {
        "en": ("move the call mom reminder", "What time"),
        "he": ("תזיז את התזכורת להתקשר לאמא", ""),
    },
}


def _asked(stack: LocalStack, number: int, language: str, question: str) -> Conversation:
    chat = Conversation(stack=stack, user=WhatsAppUser(wa_id=f"97250{number:07d}"))
    for line in SETUP[language]:
        chat.say(line)
    request, start = QUESTIONS[question][language]
    asked = chat.say(request)
    assert asked.startswith(start), asked
    return chat


def _reminders(chat: Conversation, language: str) -> list[str]:
    shown = chat.say("show my reminders" if language == "en" else "תראה לי את התזכורות")
    return sorted(line.split("—")[0].strip(" •") for line in shown.splitlines() if "—" in line)


KEPT = {"en": ["“call dad”", "“call mom”"], "he": ["„להתקשר לאבא”", "„להתקשר לאמא”"]}


CASES = [
    (language, question, way) for language, ways in WAYS_OUT.items() for question in QUESTIONS for way in ways
]


@pytest.fixture(scope="module")
def shared_stack() -> Callable[[], LocalStack]:
    with LocalStack(start_poller=False) as stack:
        yield lambda: stack


@pytest.mark.parametrize(("language", "question", "way"), CASES)
def test_a_way_out_of_any_question_changes_nothing_and_says_so(
    shared_stack: Callable[[], LocalStack], language: str, question: str, way: str
) -> None:
    chat = _asked(shared_stack(), CASES.index((language, question, way)), language, question)
    assert chat.say(way) == NOTHING_CHANGED[language]
    # The question is closed: a "yes" after it is no answer to it, and changes nothing either.
    chat.say("yes" if language == "en" else "כן")
    assert _reminders(chat, language) == KEPT[language]
