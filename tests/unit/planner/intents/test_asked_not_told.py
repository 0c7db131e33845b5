"""Questions that carry a command's words are answered as questions, and change nothing; the same
words asked as a request (a time, no question) still are one."""

from __future__ import annotations

import pytest

from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

_CHANGES = frozenset({"create", "add", "delete", "delete_all", "update", "remove", "save", "clear"})

_QUESTIONS = [
    # (the question, what answers it)
    ("did i add milk?", ("lists", "show")),
    ("did I add milk to the shopping list?", ("lists", "show")),
    ("have we put eggs on the list yet?", ("lists", "show")),
    ("have i added bread yet", ("lists", "show")),
    ("is milk on my shopping list?", ("lists", "show")),
    ("are eggs on my list", ("lists", "show")),
    ("did you remind me to call mom?", ("reminders", "list")),
    ("did i ask you to remind me about the dentist", ("reminders", "list")),
    ("is the dentist reminder still on?", ("reminders", "list")),
    ("how do i delete a reminder", ("general", "reply")),
    ("how can I add to a list?", ("general", "reply")),
    ("why did you remind me", ("general", "reply")),
    ("can you set reminders in hebrew?", ("general", "reply")),
    ("can you delete reminders?", ("general", "reply")),
    ("איך מוחקים תזכורת?", ("general", "reply")),
    ("למה הזכרת לי?", ("general", "reply")),
    ("אתה יכול להזכיר לי דברים?", ("general", "reply")),
    ("יש חלב ברשימת הקניות?", ("lists", "show")),
    ("האם חלב ברשימה?", ("lists", "show")),
    ("הוספתי חלב?", ("lists", "show")),
    ("הוספתי חלב לרשימת הקניות?", ("lists", "show")),
]


#: Each English question also after a greeting or an "ok" (the Hebrew ones as asked).
_ASKED = [
    (lead + question, answer)
    for question, answer in _QUESTIONS
    for lead in (("", "hi memo, ", "ok ") if question.isascii() else ("", "היי, ", "שלום! "))
]


@pytest.mark.parametrize(("message", "answer"), _ASKED)
def test_a_question_with_a_command_s_words_changes_nothing(message: str, answer: tuple[str, str]) -> None:
    # "did i add milk?" put milk on the shopping list; "how do i delete a reminder" looked for one named "a".
    output = RulePlanner().plan(pin(message)).output
    assert [(s.capability, s.action) for s in output.plan] == [answer], message
    assert not any(s.action in _CHANGES for s in output.plan)


@pytest.mark.parametrize(
    ("request_", "action"),
    [
        ("can you remind me to call mom at 5?", "create"),
        ("will you remind me about mom tomorrow at 5?", "create"),
        ("can you remind me tomorrow at 9 to call mom?", "create"),
        ("אתה יכול להזכיר לי מחר ב-5 להתקשר לאמא?", "create"),
        ("can you delete all my reminders?", "delete_all"),
        ("can you delete all my reminders", "delete_all"),
        ("can you delete my reminders?", "delete_all"),
        ("can you add milk to my list?", "add"),
        ("add milk", "add"),
        ("תוסיף חלב לרשימת הקניות", "add"),
        ("אורז לרשימת הקניות", "add"),
    ],
)
def test_a_request_asked_politely_is_still_the_request(request_: str, action: str) -> None:
    (step,) = RulePlanner().plan(pin(request_)).output.plan
    assert step.action == action, request_


def test_how_many_or_what_on_a_list_is_still_that_question() -> None:
    (step,) = RulePlanner().plan(pin("כמה דברים יש ברשימת הקניות?")).output.plan
    assert step.constraints == {"listName": "קניות", "howMany": True}
    (step,) = RulePlanner().plan(pin("מה יש ברשימת הקניות?")).output.plan
    assert step.constraints == {"listName": "קניות"}


def test_the_list_asked_about_is_the_one_shown() -> None:
    (step,) = RulePlanner().plan(pin("is milk on my shopping list?")).output.plan
    assert step.constraints == {"listName": "shopping"}
    (step,) = RulePlanner().plan(pin("did you remind me to call mom?")).output.plan
    assert step.constraints == {"about": "call mom"}


@pytest.mark.parametrize("lead", ["", "hi, ", "hello ", "hey! ", "ok "])
@pytest.mark.parametrize(
    "verb", ["set", "make", "keep", "do", "remind me of", "remind me about", "help me with"]
)
@pytest.mark.parametrize("things", ["reminders", "notes", "lists", "things", "stuff"])
@pytest.mark.parametrize("asked", ["can you", "could you", "do you", "will you"])
def test_asked_what_memo_does_of_things_in_general_is_answered_with_or_without_a_question_mark(
    lead: str, verb: str, things: str, asked: str
) -> None:
    # "hi! can you remind me of stuff?" set a reminder titled "stuff" and asked when.
    for message in (f"{lead}{asked} {verb} {things}", f"{lead}{asked} {verb} {things}?"):
        (step,) = RulePlanner().plan(pin(message)).output.plan
        assert (step.capability, step.action) == ("general", "reply"), message


@pytest.mark.parametrize("lead", ["", "היי, ", "שלום ", "בוקר טוב! "])
@pytest.mark.parametrize("who", ["אתה יכול", "את יכולה", "אתה יודע", "את יודעת"])
@pytest.mark.parametrize("ask", ["להזכיר לי דברים", "לקבוע תזכורות", "לשמור פתקים", "לנהל רשימות"])
def test_the_same_in_hebrew_after_a_greeting(lead: str, who: str, ask: str) -> None:
    # With a greeting before it, "אתה יכול להזכיר" was read as "תזכיר" and the time was asked.
    for message in (f"{lead}{who} {ask}", f"{lead}{who} {ask}?"):
        (step,) = RulePlanner().plan(pin(message)).output.plan
        assert (step.capability, step.action) == ("general", "reply"), message
