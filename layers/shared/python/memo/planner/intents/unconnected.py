"""Calendar and email requests. There are no adapters for them: the capability check refuses them."""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.lexicon import THE_X_ONE
from memo.planner.match import Match

_RE_CALENDAR = re.compile(
    r"\b(?:calendar|meeting|meetings|appointment|appointments|event|events|agenda|schedule\s+a)\b|יומן|פגישה|פגישות|אירוע|אירועים|(?<!\S)(?:ה)?תור(?:ים)?(?!\S)",
    re.I,
)
_RE_CALENDAR_CREATE = re.compile(
    r"\b(?:add|schedule|book|set\s+up|create|put|arrange|plan)\b|תקבע|תקבעי|קבע|תזמין|תזמיני|תוסיף|הוסף|תיצור|צור|תכניס",
    re.I,
)
_RE_EMAIL = re.compile(r"\b(?:e-?mails?|inbox|gmail|outlook)\b|מייל|אימייל|דוא\"ל|דואר\s+אלקטרוני", re.I)
_RE_EMAIL_SEND = re.compile(
    r"\b(?:send|write|reply|compose|draft|forward)\b|תשלח|שלח|תכתוב|כתוב|תענה|ענה", re.I
)


#: "move the meeting with the accountant to wednesday", "תבטל את הפגישה עם רואה החשבון": with no
#: calendar connected, a change of a meeting is of the reminder Memo holds for it (or of none, said).
_RE_CHANGE = re.compile(
    r"^(?:please\s+)?(?:move|cancel|delete|remove|change|reschedule|postpone|push|snooze|rename)\b"
    r"|^(?:תעביר|תעבירי|העבר|תזיז|תזיזי|הזז|תבטל|תבטלי|בטל|תמחק|תמחקי|מחק|תשנה|תשני|שנה|תדחה|תדחי|דחה)(?=\s|$)",
    re.I,
)

_RE_SAYS_CALENDAR = re.compile(r"\bcalendar\b|יומן", re.I)


def calendar(text: str, inp: PlannerInput) -> Match | None:
    of_a_reminder = _RE_CHANGE.search(text.strip()) and not _RE_SAYS_CALENDAR.search(text)
    if not _RE_CALENDAR.search(text) or THE_X_ONE.search(text) or of_a_reminder:
        # "move the meeting one to 4": a reminder named by its word, not the calendar.
        return None
    create = bool(_RE_CALENDAR_CREATE.search(text))
    return Match(
        capability="calendar",
        action="create_event" if create else "list_events",
        confidence=0.8,
        risk="medium" if create else "low",
        constraints={"text": text},
        pattern="calendar",
    )


def email(text: str, inp: PlannerInput) -> Match | None:
    if not _RE_EMAIL.search(text) or THE_X_ONE.search(text):
        # "push the email one to friday": a reminder named by its word, not the inbox.
        return None
    send = bool(_RE_EMAIL_SEND.search(text))
    return Match(
        capability="email",
        action="send" if send else "list",
        confidence=0.8,
        risk="high" if send else "low",
        constraints={"text": text},
        pattern="email",
    )
