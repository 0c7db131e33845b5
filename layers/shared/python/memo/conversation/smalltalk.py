"""Small talk: greetings, thanks, "how are you", "who are you", goodbyes — in English and Hebrew.

Replies are friendly, use the user's WhatsApp profile name when Meta sent one, and greet by the time
of day in the user's timezone.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from memo.conversation.model import Language

SmallTalk = Literal["greeting", "how_are_you", "thanks", "identity", "goodbye", "affirmation"]

_PATTERNS: tuple[tuple[SmallTalk, re.Pattern[str]], ...] = (
    (
        "how_are_you",
        re.compile(
            r"how are (you|u)|how'?s it going|how do you do|what'?s up|מה שלומ|מה נשמע|מה קורה|מה העניינים|איך אתה",
            re.I,
        ),
    ),
    ("thanks", re.compile(r"\b(thanks|thank you|thx|ty|cheers|appreciate it)\b|תודה|תנקס", re.I)),
    (
        "goodbye",
        re.compile(r"\b(bye|goodbye|see you|good night|cya|later)\b|ביי|להתראות|לילה טוב|יאללה ביי", re.I),
    ),
    (
        "identity",
        re.compile(
            r"who are you|what are you|what can you do|help\b|^\s*menu\s*$|מי אתה|מה אתה יודע|מה אתה יכול|עזרה",
            re.I,
        ),
    ),
    (
        "greeting",
        re.compile(
            r"^\W*(hi+|hello+|hey+|hiya|yo|howdy|good (morning|afternoon|evening)|morning|shalom)\b|^\W*(שלום|היי|הי|אהלן|הלו|בוקר טוב|ערב טוב|צהריים טובים|מה הולך)",
            re.I,
        ),
    ),
    (
        "affirmation",
        re.compile(r"^\W*(cool|nice|great|awesome|ok(ay)?|👍|😊|🙏|אחלה|מגניב|סבבה|יופי)\W*$", re.I),
    ),
)

_CAPABILITIES = {
    "en": "I can set reminders, keep notes and manage your lists — just tell me what you need.",
    "he": "אני יכול לקבוע תזכורות, לשמור פתקים ולנהל רשימות — פשוט תגיד לי מה צריך.",
}


def classify(text: str) -> SmallTalk | None:
    for kind, pattern in _PATTERNS:
        if pattern.search(text):
            return kind
    return None


def _part_of_day(local: datetime, language: Language) -> str:
    hour = local.hour
    if language == "he":
        return (
            "בוקר טוב"
            if 5 <= hour < 12
            else "צהריים טובים"
            if 12 <= hour < 17
            else "ערב טוב"
            if 17 <= hour < 22
            else "לילה טוב"
        )
    return "Good morning" if 5 <= hour < 12 else "Good afternoon" if 12 <= hour < 17 else "Good evening"


def reply(kind: SmallTalk, *, language: Language, local_now: datetime, name: str | None) -> str:
    first = (name or "").split()[0] if name and name.strip() else ""
    if language == "he":
        hello = f"{_part_of_day(local_now, 'he')}{', ' + first if first else ''}!"
        texts = {
            "greeting": f"{hello} כאן Memo 👋 {_CAPABILITIES['he']}",
            "how_are_you": "מצוין, תודה ששאלת! 😊 איך אני יכול לעזור היום?",
            "thanks": "בכיף! אני כאן אם צריך עוד משהו.",
            "identity": f"אני Memo, העוזר שלך בוואטסאפ. {_CAPABILITIES['he']}",
            "goodbye": "להתראות! כתוב לי מתי שתרצה.",
            "affirmation": "👍 אם צריך משהו — אני כאן.",
        }
        return texts[kind]
    hello = f"{_part_of_day(local_now, 'en')}{', ' + first if first else ''}!"
    texts = {
        "greeting": f"{hello} I'm Memo 👋 {_CAPABILITIES['en']}",
        "how_are_you": "Doing great, thanks for asking! 😊 How can I help today?",
        "thanks": "You're welcome! I'm here if you need anything else.",
        "identity": f"I'm Memo, your WhatsApp assistant. {_CAPABILITIES['en']}",
        "goodbye": "Bye for now! Message me any time.",
        "affirmation": "👍 Just say the word if you need anything.",
    }
    return texts[kind]


def unsupported_type(language: Language) -> str:
    if language == "he":
        return "כרגע אני קורא רק הודעות טקסט 🙏 אפשר לכתוב לי את זה במילים?"
    return "For now I can only read text messages 🙏 Could you type that for me?"


def not_understood(language: Language) -> str:
    if language == "he":
        return "לא בטוח שהבנתי 🤔 " + _CAPABILITIES["he"]
    return "I'm not sure I understood 🤔 " + _CAPABILITIES["en"]
