"""Answers to an approval that refuse the set shown and keep some of it, or keep all of it, and a new
request sent instead of an answer. Signed payloads through the webhook on the local stack, English
and Hebrew, each followed by what the person says next; the reminders are read back after.

- "no, only tomorrow's", "nope, just mom", "לא, רק של מחר": the kept items are shown again for
  approval and nothing runs on that answer (it was a rejection whose "reason" was noted).
- "keep all", "not all", "תשאיר את כולם": nothing is deleted ("all" named “call mom”, and the rest
  was deleted).
- A new request while a question is open: the question's request is said to be set aside, at the
  end of the new request's reply, or, when the new request only runs (its reply comes from the
  steps, and one message gets one reply), to the "yes" that follows. A new question says nothing
  more: it is the one open now.
"""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation

SET = {
    "en": [
        "remind me to buy bread at 6pm",
        "remind me to call mom tomorrow at 5pm",
        "remind me to call dad tomorrow at 7pm",
    ],
    "he": [
        "תזכיר לי לקנות לחם ב-18:00",
        "תזכיר לי להתקשר לאמא מחר ב-17:00",
        "תזכיר לי להתקשר לאבא מחר ב-19:00",
    ],
}
DELETE_ALL = {"en": "delete all my reminders", "he": "תמחק את כל התזכורות"}
TITLES = {
    "en": ["buy bread", "call dad", "call mom"],
    "he": sorted(["לקנות לחם", "להתקשר לאבא", "להתקשר לאמא"]),
}


def _titles(chat: Conversation, language: str) -> list[str]:
    shown = chat.say("show my reminders" if language == "en" else "תראה לי את התזכורות")
    lines = [line.strip(" •") for line in shown.splitlines() if line.strip().startswith("•")]
    return sorted(line.split(" — ")[0].strip("“”„") for line in lines)


def _asked_to_delete_all(chat: Conversation, language: str) -> str:
    for said in SET[language]:
        chat.say(said)
    return chat.say(DELETE_ALL[language])


@pytest.mark.parametrize(
    ("language", "answer", "kept_for_deletion"),
    [
        ("en", "no, only tomorrow's", ["call dad", "call mom"]),
        ("en", "no, just the ones for tomorrow", ["call dad", "call mom"]),
        ("en", "nope, just mom", ["call mom"]),
        ("en", "no just the bread", ["buy bread"]),
        ("en", "no, not the bread", ["call dad", "call mom"]),
        ("en", "no, keep the bread", ["call dad", "call mom"]),
        ("he", "לא, רק של מחר", ["להתקשר לאבא", "להתקשר לאמא"]),
        ("he", "לא, רק את הלחם", ["לקנות לחם"]),
    ],
)
def test_no_with_a_narrowing_asks_again_over_the_kept_items(
    talk: Conversation, language: str, answer: str, kept_for_deletion: list[str]
) -> None:
    _asked_to_delete_all(talk, language)
    again = talk.say(answer)
    # It was "OK, cancelled. Nothing was changed. Thanks for telling me why — I've noted it."
    assert "noted" not in again
    shown = sorted(
        line.split(". ", 1)[1].split(" — ")[0].strip("“”„")
        for line in again.splitlines()
        if line[:2] in ("1.", "2.", "3.")
    )
    assert shown == kept_for_deletion
    assert _titles(talk, language) == TITLES[language]  # nothing ran on the "no, ..."
    talk.say("yes" if language == "en" else "כן")
    assert _titles(talk, language) == sorted(set(TITLES[language]) - set(kept_for_deletion))


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", "keep all"),
        ("en", "not all"),
        ("en", "keep everything"),
        ("en", "no, keep all"),
        ("he", "תשאיר את כולם"),
        ("he", "תשאיר הכל"),
    ],
)
def test_keeping_all_deletes_nothing(talk: Conversation, language: str, answer: str) -> None:
    _asked_to_delete_all(talk, language)
    talk.say(answer)  # "all" named “call mom” and “call dad”: “buy bread” was deleted
    assert _titles(talk, language) == TITLES[language]


@pytest.mark.parametrize(
    ("language", "said", "answered", "aside"),
    [
        (
            "en",
            "delete the gym reminder",
            "I couldn't find a reminder matching “gym”.",
            "I've set aside the earlier request (delete all your reminders); nothing was done about it.",
        ),
        (
            "he",
            "תמחק את התזכורת של חדר כושר",
            "",
            "את הבקשה הקודמת (למחוק את כל התזכורות שלך) הנחתי בצד, ולא עשיתי בה כלום.",
        ),
    ],
)
def test_a_new_request_answered_at_once_says_the_question_was_set_aside(
    talk: Conversation, language: str, said: str, answered: str, aside: str
) -> None:
    _asked_to_delete_all(talk, language)
    reply = talk.say(said)
    assert reply.startswith(answered) and reply.endswith(f"\n{aside}")
    assert _titles(talk, language) == TITLES[language]
    assert talk.say("yes").startswith("I'm not waiting on a question right now")


def test_a_new_question_instead_of_an_answer_is_the_one_open(talk: Conversation) -> None:
    talk.say("remind me to call mom tomorrow at 5pm")
    talk.say("remind me to call mom tomorrow at 7pm")
    assert talk.say("delete the call mom reminder").startswith("Which one do you mean?")
    assert talk.say("remind me to buy bread").startswith("When should I remind you?")
    assert talk.say("6pm").startswith("⏰ Reminder set: “buy bread”")
    assert _titles(talk, "en") == ["buy bread", "call mom", "call mom"]


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_yes_after_a_request_that_set_the_question_aside_is_told_so(
    talk: Conversation, language: str
) -> None:
    _asked_to_delete_all(talk, language)
    new = {"en": "add eggs to my shopping list", "he": "תוסיף ביצים לרשימת הקניות"}[language]
    done = talk.say(new)  # one message, one reply: the list's own
    assert "set aside" not in done and "בצד" not in done
    stale = talk.say("yes" if language == "en" else "כן")
    said = {
        "en": "I'm not waiting on a question right now: the earlier one was set aside when you sent a new request",
        "he": "אני לא מחכה לתשובה כרגע: את השאלה הקודמת הנחתי בצד כששלחת בקשה חדשה",
    }[language]
    assert stale.startswith(said)
    assert _titles(talk, language) == TITLES[language]
    # An approval answered, then a yes: no question was set aside.
    talk.say(DELETE_ALL[language])
    talk.say("yes" if language == "en" else "כן")
    assert "set aside" not in talk.say("yes") and "בצד" not in talk.say("כן")


def test_a_time_of_day_is_asked_again_never_taken_for_its_day(talk: Conversation) -> None:
    _asked_to_delete_all(talk, "en")
    # "the ones at 5pm" kept every item of today, the day 5pm falls on: “buy bread” at 18:00 went.
    again = talk.say("only the ones at 5pm")
    assert again.startswith("I couldn't tell which of them you mean, so I haven't done anything.")
    assert _titles(talk, "en") == TITLES["en"]


def test_the_delete_said_again_with_all_but(talk: Conversation) -> None:
    _asked_to_delete_all(talk, "en")
    # It was a new request to delete all, asked from the start.
    assert talk.say("delete all but 1") == "Deleted 2 reminders: “call mom”, “call dad”."
    assert _titles(talk, "en") == ["buy bread"]


def _shopping(chat: Conversation) -> list[str]:
    shown = chat.say("what's on my shopping list?")
    return sorted(line.strip(" •") for line in shown.splitlines() if line.strip().startswith("•"))


@pytest.mark.parametrize(
    ("answer", "left"),
    [
        ("just the almond milk", ["bread", "eggs", "milk"]),  # it removed the milk too
        ("only the milk", ["almond milk", "bread", "eggs"]),  # it removed the almond milk too
        ("keep the milk", ["almond milk", "milk"]),  # what is kept spares every milk
    ],
)
def test_a_title_inside_another_is_told_apart(talk: Conversation, answer: str, left: list[str]) -> None:
    talk.say("add milk, eggs, bread and almond milk to my shopping list")
    assert talk.say("clear my shopping list").startswith("Before I go ahead")
    talk.say(answer)
    assert _shopping(talk) == left
