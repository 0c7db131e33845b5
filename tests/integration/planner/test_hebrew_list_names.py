"""A list's name in a Hebrew reply, through the webhook: the article goes on the name after "רשימת"
("לרשימת הקניות", never "לרשימת קניות"), the list is kept under its name without it ("קניות",
"הוצאות", "טיול"), an English name in a Hebrew reply takes none ("לרשימת hardware"), and a list every
language names is said in Hebrew ("shopping": "לרשימת הקניות")."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation


def test_the_shopping_list_is_named_with_its_article(chat: Conversation) -> None:
    assert chat.say("תוסיף קפה ולחם לרשימת הקניות") == "הוספתי קפה, לחם לרשימת הקניות."
    assert chat.say("מה ברשימת הקניות?") == "רשימת הקניות:\n• קפה\n• לחם"
    assert chat.say("תוריד את הלחם") == "הורדתי לחם מרשימת הקניות."
    assert chat.say("מה הרשימות שלי") == "הרשימות שלך:\n• קניות (פריט אחד)"


@pytest.mark.parametrize(
    ("add", "show", "added", "shown"),
    [
        # The list's own ה is no article: "הוצאות" is "רשימת ההוצאות".
        (
            "תוסיף 200 שקל חשמל לרשימת ההוצאות",
            "מה יש ברשימת ההוצאות?",
            "הוספתי 200 שקל חשמל לרשימת ההוצאות.",
            "רשימת ההוצאות:\n• 200 שקל חשמל",
        ),
        # Named without the article, answered with it.
        (
            "תוסיף דרכון לרשימת טיול",
            "מה ברשימת הטיול?",
            "הוספתי דרכון לרשימת הטיול.",
            "רשימת הטיול:\n• דרכון",
        ),
        # An English name in a Hebrew reply takes no article.
        (
            "תוסיף מסמרים לרשימת hardware",
            "מה ברשימת hardware?",
            "הוספתי מסמרים לרשימת hardware.",
            "רשימת hardware:\n• מסמרים",
        ),
        # A list every language names is said in Hebrew, whatever it was called.
        (
            "תוסיף חלב לרשימת shopping",
            "מה ברשימת shopping?",
            "הוספתי חלב לרשימת הקניות.",
            "רשימת הקניות:\n• חלב",
        ),
    ],
)
def test_a_list_is_named_after_the_list_word_as_hebrew_says_it(
    chat: Conversation, add: str, show: str, added: str, shown: str
) -> None:
    assert chat.say(add) == added
    assert chat.say(show) == shown


def test_the_approval_of_a_clear_names_the_list_with_its_article(chat: Conversation) -> None:
    chat.say("תוסיף 200 שקל חשמל לרשימת ההוצאות")
    assert chat.say("תנקה את רשימת ההוצאות").startswith(
        "רגע לפני: אני עומד לנקות את רשימת ההוצאות (פריט אחד):\n1. „200 שקל חשמל”"
    )
    assert chat.tap(1) == "הורדתי 200 שקל חשמל מרשימת ההוצאות."


@pytest.mark.parametrize(
    ("first", "more", "named"),
    [
        ("תוסיף חלב לרשימת הקניות", "גם ביצים", "לרשימת הקניות"),
        ("add milk to the shopping list", "תוסיף גם ביצים", "לרשימת הקניות"),
        ("add call the bank to my todo list", "תוסיף גם לתקן את הברז", "לרשימת המשימות"),
    ],
)
def test_a_list_every_language_names_is_said_in_hebrew(
    chat: Conversation, first: str, more: str, named: str
) -> None:
    # "גם ביצים" after "…לרשימת הקניות" answered "הוספתי ביצים לרשימת shopping"; "תוסיף גם …" after
    # an add to the to-do list asked about the shopping list.
    chat.say(first)
    reply = chat.say(more)
    if reply.startswith("רק מוודא"):
        assert named in reply, reply
        reply = chat.say("כן")
    assert named in reply and "shopping" not in reply and "todo" not in reply, reply


@pytest.mark.parametrize(
    ("add", "asked", "shown"),
    [
        ("תוסיף לרשימת הקנית חלב", "מה ברשימת הקניות?", "רשימת הקניות:\n• חלב"),
        ("תוסיף חלב לרשימת הקנית", "what's on my shopping list?", "Your shopping list:\n• חלב"),
        ("תוסיף לרשימת המשימת לתקן את הברז", "מה ברשימת המשימות?", "רשימת המשימות:\n• לתקן את הברז"),
    ],
)
def test_a_list_word_typed_one_letter_off_is_that_list(
    chat: Conversation, add: str, asked: str, shown: str
) -> None:
    # "לרשימת הקנית" made a second list „קנית”, and the shopping list was empty.
    assert "הקנית." not in chat.say(add)
    assert chat.say(asked) == shown
