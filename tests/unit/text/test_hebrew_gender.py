"""Hebrew replies do not assume the user's gender: what Memo says to the user uses
impersonal, plural or first-person forms, never a masculine-only or feminine-only "you"."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from memo.conversation import smalltalk
from memo.domain import RoutingSuggestion
from memo.hitl import templates
from memo.text.timezones import timezone_set_reply

#: Second-person forms that name the user's gender (masculine or feminine).
GENDERED = re.compile(
    r"(?:^|\s)(?:תרצה|תרצי|ספר לי|ספרי לי|תגיד|תגידי|כתוב לי|כתבי לי|תכתוב|תכתבי|אתה|את רוצה|בחר|בחרי|תבחר|תבחרי|"
    r"לחץ|לחצי|רצית\s+ש|שלח|שלחי)(?=\s|$|[,.?!])"
)

NOW = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)
KINDS = ("greeting", "how_are_you", "thanks", "identity", "goodbye", "affirmation")


def hebrew_replies() -> list[str]:
    texts = [smalltalk.reply(kind, language="he", local_now=NOW, name="דנה") for kind in KINDS]  # type: ignore[arg-type]
    texts += [
        smalltalk.not_understood("he"),
        smalltalk.unsupported_type("he"),
        templates.stale_reply("he"),
        templates.cancelled("he"),
        templates.intent_unclear_question("he", []),
        templates.intent_unclear_question(
            "he",
            [RoutingSuggestion(capability="reminders", action="create", confidence=0.4, reason="keyword")],
        ),
        timezone_set_reply("Europe/London", "he", NOW),
    ]
    return texts


@pytest.mark.parametrize("text", hebrew_replies())
def test_hebrew_replies_do_not_assume_the_users_gender(text: str) -> None:
    assert not GENDERED.search(text), text
