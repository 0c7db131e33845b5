"""Corrections, cancels and messages Memo did not understand, in a real conversation: signed payloads
through the webhook, in English and Hebrew, each followed by what the person does next; the items are
read back after.

- A correction ("instead", "no wait", "actually") never touches another item: with a question open it
  revises that request or takes the new one; with none open it acts on the latest action only when it
  fits; a request it cannot place is asked.
- "cancel the X reminder" while another question is open is a request of its own, not a "no".
- Words not understood are never offered as a reminder, note or list item.
- "undo" after a read still undoes the last delete.
"""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation


def _bullets(shown: str) -> list[str]:
    return sorted(line.strip(" •") for line in shown.splitlines() if line.strip().startswith("•"))


def _reminders(chat: Conversation, language: str = "en") -> list[str]:
    shown = chat.say("show my reminders" if language == "en" else "תראה לי את התזכורות")
    return sorted(line.split("—")[0].strip() for line in _bullets(shown))


def _shopping(chat: Conversation) -> list[str]:
    return _bullets(chat.say("show my shopping list"))


def _react(chat: Conversation, emoji: str) -> list[str]:
    """A reaction to Memo's latest message."""
    latest = chat.stack.sink.messages(to=chat.user.wa_id)[-1]
    return chat.deliver(
        chat.user.message("reaction", {"reaction": {"message_id": latest.message_id, "emoji": emoji}})
    )


# --- 1. a correction never touches another item ------------------------------------------------

EXISTING = {"en": "remind me to call mom tomorrow at 5pm", "he": "תזכיר לי להתקשר לאמא מחר ב-17:00"}
KEPT = {"en": ["“call mom”"], "he": ["„להתקשר לאמא”"]}
#: The open question each correction is said to: (the request, how the question starts).
OPEN = {
    "what time": {
        "en": ("remind me to buy flowers", "When should I remind you?"),
        "he": ("תזכיר לי לקנות פרחים", "מתי"),
    },
    "what about": {"en": ("remind me at 9pm", "What should I remind you about?"), "he": ("תזכיר לי ב-21:00", "על מה")},
    "just to check": {
        "en": ("we're out of milk", "Just to check"),
        "he": ("נגמרו לנו הביצים", "רק מוודא"),
    },
}  # fmt: skip
#: A new request said as a correction of the open one.
NEW_INSTEAD = {
    "en": [
        "wait no, forget the flowers. add napkins to the shopping list instead",
        "no wait, add napkins to the shopping list instead",
        "actually, add napkins to the shopping list instead",
        "instead add napkins to the shopping list",
    ],
    "he": [
        "רגע לא, תשכח מזה. תוסיף מפיות לרשימת הקניות במקום",
        "לא, תוסיף מפיות לרשימת הקניות במקום",
        "בעצם, תוסיף מפיות לרשימת הקניות במקום",
    ],
}
NAPKINS = {"en": "napkins", "he": "מפיות"}

NEW_REQUEST_CASES = [
    (lang, kind, said) for lang, lines in NEW_INSTEAD.items() for kind in OPEN for said in lines
]


@pytest.mark.parametrize(("language", "kind", "said"), NEW_REQUEST_CASES)
def test_a_new_request_said_as_a_correction_replaces_the_open_question_and_touches_nothing_else(
    talk: Conversation, language: str, kind: str, said: str
) -> None:
    talk.say(EXISTING[language])
    request, start = OPEN[kind][language]
    assert talk.say(request).startswith(start)
    answer = talk.say(said)
    assert NAPKINS[language] in answer and "⏰" not in answer, answer
    assert _shopping(talk) == [NAPKINS[language]]  # napkins only: the open request is dropped
    assert _reminders(talk, language) == KEPT[language]  # the other reminder untouched, no new one


TIME_FIXES = {
    "en": ["no wait, 7pm", "actually, 7pm", "wait, at 7pm", "sorry i meant 7pm"],
    "he": ["רגע לא, ב-19:00", "בעצם ב-19:00", "לא רגע, בשבע בערב"],
}
TITLES = {"en": ("to buy flowers", "“buy flowers”"), "he": ("לקנות פרחים", "„לקנות פרחים”")}
AT_SEVEN = {"en": "19:00", "he": "19:00"}
TIME_CASES = [
    (lang, kind, said)
    for lang, lines in TIME_FIXES.items()
    for kind in ("what time", "what about")
    for said in lines
]


@pytest.mark.parametrize(("language", "kind", "said"), TIME_CASES)
def test_a_time_said_as_a_correction_is_the_open_requests_time(
    talk: Conversation, language: str, kind: str, said: str
) -> None:
    talk.say(EXISTING[language])
    request, start = OPEN[kind][language]
    assert talk.say(request).startswith(start)
    answer = talk.say(said)
    if kind == "what about":  # the time changes; the title is still asked, and never the words said
        assert answer.startswith(start), answer
        answer = talk.say(TITLES[language][0])
    assert answer.startswith("⏰"), answer
    assert TITLES[language][1] in answer and AT_SEVEN[language] in answer, answer
    assert "wait" not in answer and "רגע" not in answer
    assert _reminders(talk, language) == sorted([*KEPT[language], TITLES[language][1]])


#: With nothing open after a reminder was set: a request of another kind said as a correction.
OTHER_KIND = {
    "en": [
        "no, add eggs to the shopping list instead",
        "no wait, add eggs to the shopping list instead",
        "actually add eggs to the shopping list instead",
        "oops, add eggs to the shopping list instead",
    ],
    "he": [
        "לא, תוסיף ביצים לרשימת הקניות במקום",
        "רגע, תוסיף ביצים לרשימת הקניות במקום",
        "בעצם תוסיף ביצים לרשימת הקניות במקום",
    ],
}
EGGS = {"en": "eggs", "he": "ביצים"}
YES = {"en": "yes", "he": "כן"}


@pytest.mark.parametrize(
    ("language", "said"), [(lang, said) for lang, lines in OTHER_KIND.items() for said in lines]
)
def test_a_correction_of_another_kind_never_renames_the_reminder_just_set(
    talk: Conversation, language: str, said: str
) -> None:
    talk.say(EXISTING[language])
    answer = talk.say(said)
    if answer.startswith(("Just to check", "רק מוודא")):  # asked: fine, and a yes adds the eggs
        answer = talk.say(YES[language])
    assert EGGS[language] in answer and "⏰" not in answer, answer
    assert _reminders(talk, language) == KEPT[language]
    assert _shopping(talk) == [EGGS[language]]


@pytest.mark.parametrize(
    "said", ["no, delete the milk instead", "no wait, remove the bread instead", "לא, תמחק את החלב במקום"]
)
def test_a_request_that_cannot_be_placed_is_never_a_new_title(talk: Conversation, said: str) -> None:
    talk.say(EXISTING["en"])
    answer = talk.say(said)
    assert "Updated the reminder" not in answer and "עדכנתי" not in answer, answer
    assert _reminders(talk) == KEPT["en"]


EXCHANGES = {
    "en": [
        ("add milk to the shopping list", "instead add oat milk", "oat milk"),
        ("add milk to the shopping list", "no wait, add oat milk instead", "oat milk"),
        ("add milk to the shopping list", "actually, add oat milk to the shopping list instead", "oat milk"),
    ],
    "he": [
        ("תוסיף חלב לרשימת הקניות", "לא, תוסיף חלב סויה במקום", "חלב סויה"),
        ("תוסיף חלב לרשימת הקניות", "רגע, תוסיף חלב סויה לרשימת הקניות במקום", "חלב סויה"),
    ],
}


@pytest.mark.parametrize(
    ("language", "first", "said", "new"),
    [(lang, *case) for lang, cases in EXCHANGES.items() for case in cases],
)
def test_another_item_instead_of_the_one_just_added_replaces_it_once_confirmed(
    talk: Conversation, language: str, first: str, said: str, new: str
) -> None:
    talk.say(first)
    asked = talk.say(said)
    assert asked.startswith(("Just to check", "רק מוודא")), asked  # the exchange is asked first
    assert _shopping(talk) == ["milk" if language == "en" else "חלב"]  # nothing changed yet
    talk.say(first)
    talk.say(said)
    talk.say(YES[language])
    assert _shopping(talk) == [new]


def test_a_no_to_the_exchange_keeps_what_was_added(talk: Conversation) -> None:
    talk.say("add milk to the shopping list")
    talk.say("instead add oat milk")
    assert talk.say("no") == "OK, cancelled. Nothing was changed."
    assert _shopping(talk) == ["milk"]


# --- 2. cancel means what it names -----------------------------------------------------------------

CANCEL_NAMED = {
    "en": ("remind me to call dad tomorrow at 6pm", "cancel the call dad reminder", "Before I go ahead"),
    "he": ("תזכיר לי להתקשר לאבא מחר ב-18:00", "תבטל את התזכורת של אבא", "רגע לפני"),
}
YES_NO_OPEN = {"en": "we're out of milk", "he": "נגמרו לנו הביצים"}


@pytest.mark.parametrize("language", ["en", "he"])
@pytest.mark.parametrize("open_in", ["en", "he"])
def test_cancel_naming_a_reminder_while_a_yes_no_question_is_open_deletes_that_reminder(
    talk: Conversation, language: str, open_in: str
) -> None:
    setup, said, approval = CANCEL_NAMED[language]
    talk.say(setup)
    talk.say(EXISTING[language])
    assert talk.say(YES_NO_OPEN[open_in]).startswith(("Just to check", "רק מוודא"))
    asked = talk.say(said)
    assert asked.startswith(approval), asked  # the delete, asked as usual; not "cancelled"
    talk.say(YES[language])
    assert _reminders(talk, language) == KEPT[language]  # only the one named went
    assert _shopping(talk) == []  # and the guessed add never ran


CLEAR_OPEN = {
    "en": ("add milk to the shopping list", "clear the shopping list", ["milk"]),
    "he": ("תוסיף חלב לרשימת הקניות", "תנקה את רשימת הקניות", ["חלב"]),
}


@pytest.mark.parametrize("language", ["en", "he"])
def test_cancel_naming_a_reminder_while_a_list_clear_approval_is_open_deletes_that_reminder(
    talk: Conversation, language: str
) -> None:
    # Was: "I couldn't tell which of them you mean" and the list question again: a removal's
    # approval read the cancel as a narrowing of the list's items.
    setup, said, approval = CANCEL_NAMED[language]
    added, clear, items = CLEAR_OPEN[language]
    talk.say(setup)
    talk.say(EXISTING[language])
    talk.say(added)
    assert talk.say(clear).startswith(approval)
    asked = talk.say(said)
    assert asked.startswith(approval) and ("dad" in asked or "אבא" in asked), asked
    assert "milk" not in asked and "חלב" not in asked
    talk.say(YES[language])
    assert _reminders(talk, language) == KEPT[language]  # only the one named went
    assert _shopping(talk) == items  # and the list was never cleared


def test_removing_an_item_the_list_clear_shows_still_narrows_it(talk: Conversation) -> None:
    talk.say("add milk and eggs to the shopping list")
    talk.say("clear the shopping list")
    talk.say("remove the milk")  # the clear, narrowed to the milk it shows: not a request of its own
    assert _shopping(talk) == ["eggs"]


@pytest.mark.parametrize(
    ("request_", "said"),
    [("remind me to buy flowers", "cancel the flowers"), ("תזכיר לי לקנות פרחים", "תבטל את הפרחים")],
)
def test_cancel_naming_the_open_request_itself_cancels_it(
    talk: Conversation, request_: str, said: str
) -> None:
    talk.say(request_)
    assert talk.say(said) in ("OK, cancelled. Nothing was changed.", "בסדר, ביטלתי. לא שיניתי כלום.")
    assert _reminders(talk) == []


@pytest.mark.parametrize(
    ("open_in", "said", "reply"),
    [
        ("en", "לא", "בסדר, ביטלתי. לא שיניתי כלום."),
        ("en", "לא תודה", "בסדר, ביטלתי. לא שיניתי כלום."),
        ("he", "no", "OK, cancelled. Nothing was changed."),
        ("he", "never mind", "OK, cancelled. Nothing was changed."),
    ],
)
def test_a_no_is_answered_in_its_own_language(
    talk: Conversation, open_in: str, said: str, reply: str
) -> None:
    assert talk.say(YES_NO_OPEN[open_in]).startswith(("Just to check", "רק מוודא"))
    assert talk.say(said) == reply
    assert _shopping(talk) == []


# --- 3. nothing not understood is offered as data ----------------------------------------------------

NOT_UNDERSTOOD_FIRST = ["in an hour", "בעוד שעה", "hmm", "at 5"]
NOT_UNDERSTOOD_NEXT = [
    "asdkjh qwpoeiru zzz",
    "sorry wrong chat",
    "oops wrong person",
    "סליחה טעות",
    "qwerty uiop",
]


@pytest.mark.parametrize("first", NOT_UNDERSTOOD_FIRST)
@pytest.mark.parametrize("then", NOT_UNDERSTOOD_NEXT)
def test_words_after_a_message_not_understood_are_never_offered_as_a_reminder(
    talk: Conversation, first: str, then: str
) -> None:
    talk.say(first)
    answer = talk.say(then)
    assert not answer.startswith(("Just to check", "רק מוודא", "⏰")), answer
    assert then not in answer  # never quoted back as a title, a note or an item
    _react(talk, "👍")  # a thumbs-up is no yes to anything
    assert _reminders(talk) == []
    assert _shopping(talk) == []


# --- 4. undo after a read ---------------------------------------------------------------------------

READS = ["show my reminders", "show my shopping list", "תראה לי את התזכורות", "what are my reminders?"]
UNDO_WORDS = ["undo", "bring it back", "אופס תחזיר", "תחזיר את הכל", "תחזיר"]


@pytest.mark.parametrize("read", READS)
@pytest.mark.parametrize("undo", UNDO_WORDS)
def test_undo_after_a_read_still_undoes_the_last_delete(talk: Conversation, read: str, undo: str) -> None:
    talk.say(EXISTING["en"])
    assert talk.say("delete the call mom reminder").startswith("Before I go ahead")
    talk.say("yes")
    assert _reminders(talk) == []
    talk.say(read)
    answer = talk.say(undo)
    assert answer.startswith("↩️"), answer
    assert _reminders(talk) == KEPT["en"]


def test_undo_after_a_read_undoes_the_add_before_it(talk: Conversation) -> None:
    talk.say("add milk to the shopping list")
    talk.say("show my shopping list")
    assert talk.say("undo") == "↩️ Undone: “milk” is off your shopping list again."
    assert _shopping(talk) == []


MOVE_ANOTHER = {
    "en": (
        "remind me to buy milk tomorrow at 5pm",
        "I need to call the bank tomorrow at 10",
        "move the milk to 6pm",
        "Updated the reminder “buy milk”",
        "what are my reminders?",
        "18:00",
    ),
    "he": (
        "תזכיר לי מחר ב-5 בערב לקנות חלב",
        "צריך להתקשר לבנק מחר בעשר",
        "תעביר את החלב לשש בערב",
        "עדכנתי את התזכורת „לקנות חלב”",
        "מה התזכורות שלי?",
        "18:00",
    ),
}


@pytest.mark.parametrize("language", ["en", "he"])
def test_moving_another_reminder_while_a_yes_no_question_is_open_moves_that_one_only(
    talk: Conversation, language: str
) -> None:
    """It set the guessed reminder ("call the bank") at the new time: an answer read as an edit of
    a question it was not about, changing data nobody confirmed."""
    setup, guessed, move, moved, listing, time = MOVE_ANOTHER[language]
    talk.say(setup)
    assert talk.say(guessed).startswith(("Just to check", "רק מוודא"))
    assert talk.say(move).startswith(moved)
    listed = talk.say(listing)
    assert time in listed and "bank" not in listed and "לבנק" not in listed, listed
    assert talk.say(YES[language]).startswith(("I'm not waiting", "אני לא מחכה"))


@pytest.mark.parametrize(
    ("first", "second", "delete_all", "narrowing", "listing", "kept"),
    [
        ("remind me to call the bank tomorrow at 9", "remind me to buy a gift tomorrow at 10",
         "delete all my reminders for tomorrow", "wait, no, only the first", "show my reminders", "buy a gift"),
        ("תזכיר לי מחר ב-9 להתקשר לבנק", "תזכיר לי מחר ב-10 לקנות מתנה", "תמחק את כל התזכורות של מחר",
         "רגע לא, רק את הראשונה", "מה התזכורות שלי", "לקנות מתנה"),
    ],
)  # fmt: skip
def test_a_second_thought_then_no_then_a_limit_narrows_the_delete(
    talk: Conversation, first: str, second: str, delete_all: str, narrowing: str, listing: str, kept: str
) -> None:
    # "רגע לא, רק את הראשונה" was answered "לא הבנתי" ("לא, רק את הראשונה" narrowed).
    talk.say(first)
    talk.say(second)
    talk.say(delete_all)
    shown = talk.say(narrowing)
    assert kept not in shown and ("1." in shown), shown
    talk.tap(1)
    listed = talk.say(listing)
    assert kept in listed and len(_bullets(listed)) == 1


@pytest.mark.parametrize(
    ("language", "move", "moved", "listing"),
    [
        ("en", "move call mom to friday", "Updated the reminder “call mom”", "show my reminders"),
        ("he", "תעביר את להתקשר לאמא ליום שישי", "עדכנתי את התזכורת „להתקשר לאמא”", "מה התזכורות שלי?"),
    ],
)
def test_a_move_naming_another_reminder_while_a_delete_is_asked_is_its_own_request(
    talk: Conversation, language: str, move: str, moved: str, listing: str
) -> None:
    # "move call mom to friday" while "delete the plumber?" was open answered "There's no time to
    # change on a delete" and the move was lost.
    if language == "en":
        talk.say("remind me to call mom tomorrow at 5pm")
        talk.say("remind me to call the plumber on thursday at 9am")
        assert talk.say("delete the plumber reminder").startswith("Before I go ahead")
    else:
        talk.say("תזכיר לי מחר ב-17:00 להתקשר לאמא")
        talk.say("תזכיר לי ביום חמישי ב-9 להתקשר לשרברב")
        assert talk.say("תמחק את התזכורת של השרברב").startswith("רגע לפני")
    assert talk.say(move).startswith(moved)
    listed = talk.say(listing)
    assert len(_bullets(listed)) == 2  # the plumber is not deleted


def test_move_it_while_a_delete_is_asked_stays_with_the_question(talk: Conversation) -> None:
    talk.say("remind me to call the plumber on thursday at 9am")
    talk.say("delete the plumber reminder")
    assert not talk.say("move it to friday").startswith("Updated")
    assert len(_bullets(talk.say("show my reminders"))) == 1
