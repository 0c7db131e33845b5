"""An answer to a delete's approval that says another item was meant: "no, actually delete the milk",
"no, the milk one instead", "no wait, I meant milk", "לא, דווקא את החלב", "לא, התכוונתי לחלב".

Such an answer rejects what was shown and asks for another delete. It is never a rejection with a
reason ("Thanks for telling me why"), and it never deletes by itself: the delete it names is planned
as a request of its own (`switch_intent`), so it is resolved and approved like any other, and the
item shown stays. Only an answer that says so is read this way: a correction word first ("no",
"wait", "actually", "לא", "בעצם") and then either a delete request ("delete the milk") or a name
marked as the one meant ("the milk one", "I meant milk", "... instead", "דווקא את", "התכוונתי ל").
"no, I still need them" marks nothing: it stays a rejection with its reason.
"""

from __future__ import annotations

import re
from datetime import datetime

from memo.domain import PendingHITL, TurnState
from memo.hitl.another_day import a_weekday_alone
from memo.hitl.complete_request import is_complete_request
from memo.hitl.fastpath import is_way_out
from memo.hitl.plan_edits import origin_step
from memo.planner.base import Planner
from memo.text.language import detect_language
from memo.text.months import MONTHS_EN, MONTHS_HE

_CORRECTION = re.compile(
    r"^\W*(?:no|nope|nah|not\s+(?:that|this)(?:\s+one)?|wrong\s+one|לא|לא\s+זה|לא\s+את\s+זה)\b[\s,!.:;-]*"
    r"(?:(?:wait|actually|sorry|oops|רגע|בעצם|סליחה|אופס)\b[\s,!.:;-]*)*(?P<rest>\S.*)$",
    re.I,
)
#: A name marked as the one meant; `what` is the name.
_MEANT = (
    re.compile(
        r"^(?:i\s+meant?|i\s+was\s+talking\s+about)\s+(?:the\s+)?(?P<what>.+?)(?:\s+one)?(?:\s+instead)?$",
        re.I,
    ),
    re.compile(r"^(?:the\s+)?(?P<what>.+?)\s+one(?:\s+instead)?$", re.I),
    re.compile(r"^(?:the\s+)?(?P<what>.+?)\s+instead$", re.I),
    re.compile(
        r"^(?:התכוונתי|התכוונתי\s+על|דיברתי\s+על)\s*(?:ל|על\s+)?(?:ה)?(?P<what>\S.*?)(?:\s+במקום(?:\s+זה)?)?$"
    ),
    re.compile(r"^דווקא\s+(?:את\s+)?(?:ה)?(?P<what>\S.*?)(?:\s+במקום(?:\s+זה)?)?$"),
    re.compile(r"^(?:את\s+)?(?:ה)?(?P<what>\S.*?)\s+במקום(?:\s+זה)?$"),
)
_DELETES = re.compile(r"^(?:delete|remove|cancel|erase|תמחק|תמחקי|תבטל|תבטלי|מחק|בטל)\b", re.I)
_MAX_NAME_WORDS = 5
#: Words no item's name is said with, but a reason is ("no, I need that one", "לא, אני צריך אותה").
_REASON_WORDS = frozenset(
    {"i", "i'm", "im", "me", "my", "we", "need", "want", "keep", "still", "it", "them", "this", "that", "these",
     "those", "אני", "אנחנו", "צריך", "צריכה", "רוצה", "אותו", "אותה", "אותם", "אותן", "זה", "עדיין"}
)  # fmt: skip
_NOUNS = {
    ("reminders", "en"): "reminder",
    ("reminders", "he"): "התזכורת",
    ("notes", "en"): "note",
    ("notes", "he"): "הפתק",
}


def meant_instead(
    raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner
) -> str | None:
    """The delete request an answer to a delete's approval says instead of it (see the module's doc),
    as the words to plan; None when the answer says no such thing."""
    step = origin_step(state, pending)
    if pending.kind != "approval" or step is None or step.action not in ("delete", "delete_all"):
        return None
    corrected = _CORRECTION.match(raw.strip())
    if corrected is None:
        return None
    rest = corrected.group("rest").strip(" .!")
    language = detect_language(rest, state.input.language)
    noun = _NOUNS.get((step.capability, language))
    if noun is None:
        return None
    if _DELETES.match(rest):
        request = rest
    else:
        what = _meant(rest)
        if what is None:
            return None
        request = f"תמחק את {noun} {what}" if language == "he" else f"delete the {what} {noun}"
    planned = is_complete_request(
        request, now=now, timezone=state.input.timezone, language=language, allow_guess=True, rules=rules
    )
    return request if planned else None


def _meant(rest: str) -> str | None:
    for pattern in _MEANT:
        found = pattern.match(rest)
        if found is not None:
            what = found.group("what").strip(" ,.!")
            words = what.lower().split()
            if words and len(words) <= _MAX_NAME_WORDS and not _REASON_WORDS.intersection(words):
                return what
    return None


#: "When should I remind you?" for "call mom" -> "actually call dad", "no, I meant call dad",
#: "בעצם להתקשר לאבא": another reminder meant, its time still to ask.
_RETITLED = re.compile(
    r"^\W*(?:(?:actually|no|nope|sorry|oops|wait|i\s+mean[t]?|בעצם|לא|סליחה|אופס|רגע|התכוונתי)\b[\s,!.:;-]*)+"
    r"(?:to\s+)?(?P<rest>\S.*?)(?:[\s,]+(?:instead|במקום(?:\s+זה)?))?\s*[.!]*$",
    re.I,
)


def retitled_reminder(
    raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner
) -> str | None:
    """The reminder an answer to "when?" says was meant instead ("actually call dad"), as the request
    to plan (its time asked again); None for anything else. Before, it was "Sorry, I didn't catch
    that", and the time said next set the reminder the person had just taken back."""
    step = origin_step(state, pending)
    missing = (pending.context.missing_fields if pending.context else None) or []
    if (
        pending.reason != "missing_fields"
        or step is None
        or (step.capability, step.action) != ("reminders", "create")
        or "reminder_time_required" not in missing
    ):
        return None
    said = _RETITLED.match(raw.strip())
    if said is None or _DELETES.match(said.group("rest")):
        return None
    rest = said.group("rest")
    from memo.planner.intents.corrections import names_a_time  # the planner's reading of a time

    if names_a_time(rest, now) or is_way_out(rest) or a_weekday_alone(rest):
        # "actually tomorrow at 5", "בעצם שלישי": the answer, a time or a day; "no, never mind": out
        return None
    language = detect_language(rest, state.input.language)
    tz = state.input.timezone
    if is_complete_request(rest, now=now, timezone=tz, language=language, allow_missing=True, rules=rules):
        return None  # "no wait, add napkins to the list instead": that request (`corrects_with_a_request`)
    request = f"תזכיר לי {rest}" if language == "he" else f"remind me to {rest}"
    day = step.constraints.get("day")
    if isinstance(day, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        # "remind me tomorrow to pay rent" -> "What time on Tue?" -> "I meant pay the bill": that day still
        _, month, date_ = (int(part) for part in day.split("-"))
        he, en = MONTHS_HE[month - 1], MONTHS_EN[month - 1]
        request += f" ב-{date_} ב{he}" if language == "he" else f" on {date_} {en}"
    if not is_complete_request(
        request, now=now, timezone=tz, language=language, allow_missing=True, rules=rules
    ):
        return None
    return request


def meant_request(
    raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner
) -> str | None:
    """The request an answer says was meant instead of what it was asked about: another delete
    (`meant_instead`) or another reminder (`retitled_reminder`); None when it says neither."""
    return meant_instead(raw, state, pending, now, rules) or retitled_reminder(
        raw, state, pending, now, rules
    )
