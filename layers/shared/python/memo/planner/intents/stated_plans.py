"""Plans told with their time, offered as a reminder to confirm: "I have a dentist appointment on
thursday at 4", "meeting with dan tomorrow at 3", "call the bank tomorrow at 10"."""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.reminders import names_nothing
from memo.planner.lexicon import MOVE_EN, MOVE_HE, as_title, clean
from memo.planner.match import GUESS, Match, iso, parse_when

#: "I need to call the bank tomorrow at 10", "I have a dentist appointment on thursday at 4", "צריך
#: להתקשר לבנק מחר בעשר", "יש לי תור לרופא ביום חמישי בארבע": a plan told with its time, no request.
_STATED = (
    re.compile(
        r"^(?:i|we)(?:['’](?:ve|m|re)|\s+have|\s+am|\s+are)?\s+"
        r"(?:(?:got|have|need|must|should|gotta)\s+(?:to\s+)?|going\s+to\s+|have\s+got\s+)(?P<what>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?:אני\s+|אנחנו\s+)?(?:צריך|צריכה|צריכים|חייב|חייבת|חייבים|יש\s+לי|יש\s+לנו)\s+(?P<what>.+)$"
    ),
)
#: The same said as a bare noun phrase: "meeting with dan tomorrow at 3", "dentist at 4 on thursday".
_STATED_NOUN = re.compile(
    r"^(?:a\s+|my\s+|the\s+)?(?:(?!call\b|remind\b|add\b|set\b)\w+\s+)?(?:meeting|appointment|dinner|lunch|"
    r"breakfast|class|lesson|interview|party|flight|practice|training|date)\b"
    r"|^(?:פגישה|תור|ארוחת|שיעור|ראיון|מסיבה|טיסה|אימון)",
    re.I,
)


def stated_plan(text: str, inp: PlannerInput) -> Match | None:
    """A plan told with its time ("I have a dentist appointment on thursday at 4", "meeting with dan
    tomorrow at 3"): Memo offers a reminder at that time, a guess the person confirms ("Just to
    check — ...?"), never set unasked. Without a time of day it is no such offer."""
    said = _without_lead(text, inp)
    if said == text and not _STATED_NOUN.match(text):
        return None
    return _offered(said, inp)


#: Words that name no plan ("yes but at 6pm", "ok then at 5", "אבל ב-6"): the time is an answer
#: or a change, not a thing to be reminded of.
_NO_THING = re.compile(
    r"^(?:(?:yes|yeah|ok|okay|no|but|and|so|then|also|only|just|maybe|it|that|this|one|make\s+it|change\s+it|"
    r"move\s+it|actually|instead|please|כן|לא|אבל|ו?אז|רק|אולי|זה|את\s+זה|בעצם|במקום)\b[\s,.!]*)+$",
    re.I,
)


#: A change said with a time ("but change the time to 6", "תשנה את השעה ל-18:00"): an edit, never
#: a thing to be reminded of.
_A_CHANGE = re.compile(
    rf"^(?:(?:yes|ok|but|and|so|כן|אבל|ו)\s*,?\s*)*(?:{MOVE_EN}|{MOVE_HE}|make|set|update|edit|fix)\b",
    re.I,
)


#: Words said to someone, not plans: "see you at 6", "I'll be there at 5", "נתראה בשמונה".
_SOCIAL = re.compile(
    r"^(?:see\s+(?:you|ya)|talk\s+(?:to\s+you|later)|ttyl|bye|good\s*night|i['’]?ll\s+be\s+there|be\s+there|"
    r"on\s+my\s+way|omw|meet\s+you|נתראה|ביי|לילה\s+טוב|אני\s+בדרך|אהיה\s+שם)\b",
    re.I,
)


def timed_phrase(text: str, inp: PlannerInput) -> Match | None:
    """Anything else said with a time of day, that nothing else read ("call the bank tomorrow at 10",
    "I need to pick up the kids at 4" once "I need to" is dropped, "מחר בשמונה יש לי פגישה עם דני"
    with the time first): offered as a reminder, a guess."""
    return _offered(_without_lead(text, inp), inp)


def _without_lead(text: str, inp: PlannerInput) -> str:
    """The text without "I have/need ...", "יש לי ...", wherever the time words put it."""
    words, lead = text, _lead(text)
    if lead is None and _LEAD_WORD.search(text):
        # "tomorrow at 3 I have a meeting": the time first (read only when a lead word is there).
        words = parse_when(text, inp).remainder
        lead = _lead(words)
    if lead is None:
        return text
    said = words[: lead.start("what")]
    return clean(text.replace(said, " ", 1)) if said in text else lead.group("what")


def _lead(words: str) -> re.Match[str] | None:
    return next((m for m in (p.match(words) for p in _STATED) if m is not None), None)


_LEAD_WORD = re.compile(
    r"\b(?:i|we)\b|(?:^|\s)(?:אני\s+|אנחנו\s+)?(?:צריך|צריכה|צריכים|חייב|חייבת|חייבים|יש\s+לי|יש\s+לנו)(?=\s)",
    re.I,
)


def _offered(said: str, inp: PlannerInput) -> Match | None:
    if "?" in said:
        return None
    parsed = parse_when(said, inp)
    if parsed.when is None or parsed.recurrence is not None or parsed.problem or parsed.when <= inp.now:
        return None
    # "add dentist on friday at 3": the thing, without the verb that asked for it, or its article;
    # "my flight is tomorrow at 6am": without the "is" the time took its place after.
    title = as_title(
        re.sub(
            r"\s+(?:is|are|was|starts|begins|הוא|היא|זה)$",
            "",
            re.sub(
                r"^(?:(?:add|put|schedule|book|set)\s+)?(?:(?:a|an|the|my|our)\s+)?",
                "",
                clean(parsed.remainder),
                flags=re.I,
            ),
            flags=re.I,
        )
    )
    if (
        not title
        or names_nothing(parsed.remainder, title)
        or _NO_THING.match(title)
        or _A_CHANGE.match(title)
        or _SOCIAL.match(title)
    ):
        return None
    return Match(
        capability="reminders",
        action="create",
        confidence=GUESS,
        risk="low",
        constraints={"title": title, "when": iso(parsed.when)},
        pattern="reminders:stated",
    )
