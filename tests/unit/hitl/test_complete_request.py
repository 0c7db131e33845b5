"""Whether words said while a question is open only look: answered as a request of their own, while
the question stays open."""

from __future__ import annotations

import pytest

from memo.hitl.complete_request import default_rules, only_looks
from tests.unit.hitl.conftest import NOW, TZ

RULES = default_rules()


def _looks(text: str) -> bool:
    language = "he" if any("\u0590" <= c <= "\u05ff" for c in text) else "en"
    return only_looks(text, now=NOW, timezone=TZ, language=language, rules=RULES)


@pytest.mark.parametrize(
    "text",
    [
        "what reminders do i have?", "show my reminders", "what do I have tomorrow?", "what's on my shopping list?",
        "show my lists", "search my notes for wifi", "מה התזכורות שלי?", "מה יש ברשימת הקניות?",
    ],
)  # fmt: skip
def test_a_request_to_be_shown_something_only_looks(text: str) -> None:
    assert _looks(text)


@pytest.mark.parametrize(
    "text",
    [
        "delete the cat reminder", "remind me to call mom at 5", "add milk to my list", "yes", "no", "",
        "what time is it?", "thanks", "תמחק את התזכורת",
    ],
)  # fmt: skip
def test_anything_that_changes_something_or_is_no_request_does_not(text: str) -> None:
    assert not _looks(text)
