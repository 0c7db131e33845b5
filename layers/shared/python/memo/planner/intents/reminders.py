"""Creating a reminder: "remind me to X at T", "תזכיר לי ...", and the title an answer names."""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.month_series import MONTH_DAY_REQUIRED, SAID_MONTH, MonthSaid, month_without_day
from memo.planner.lexicon import DAY_SAID, HOUR_SAID, as_title, at_the_hour, clean, has_hebrew
from memo.planner.match import CONFIDENT, GUESS, Match, iso, parse_when

_RE_REMIND = (
    re.compile(
        r"^(?:remind\s+me|set\s+(?:up\s+)?(?:a\s+|an\s+|me\s+a\s+)?reminder|create\s+(?:a\s+)?reminder|"
        r"add\s+(?:a\s+)?reminder|new\s+reminder|make\s+(?:a\s+)?reminder|reminder|"
        r"don'?t\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t\s+forget\s+|remember\s+(?=to\s))?|"
        # "tell me at 5 to call mom": a time, then what to do ("tell me my reminders" is no reminder)
        r"tell\s+me(?=\s+(?:at|in|on|tomorrow|tonight|every|this|next)\b.*\bto\s)|"
        # "don't forget to buy milk", "i need to remember to call bob": said to Memo, a reminder
        r"(?:please\s+)?(?:don'?t|do\s+not)\s+forget(?:\s+to\s+remind\s+me)?(?=\s+to\s)|"
        r"remember\s+to\s+remind\s+me|(?:(?:i\s+)?(?:need|have)\s+to\s+)?remember(?=\s+to\s)|"
        r"(?:ping|nudge|buzz|text|message|alert|notify)\s+me)\b[:,]?\s*(?P<rest>.*)$",
        re.I,
    ),
    re.compile(r"^(?P<rest>.+?)[,.]?\s+remind\s+me\b[.!]?$", re.I),
    re.compile(
        r"^(?:תזכיר|תזכירי|הזכר|תזכרי|להזכיר)\s+לי\s*(?P<rest>.*)$"
        r"|^(?:תקבע|תקבעי|קבע|תיצור|צור|תוסיף|הוסף|תגדיר|הגדר)\s+(?:לי\s+)?תזכורת\s*(?P<rest2>.*)$"
        r"|^תזכורת\s*[:\-]?\s*(?P<rest3>.*)$"
        r"|^(?:(?:אל\s+תיתן|אל\s+תתן|אל\s+תני)\s+לי\s+לשכוח|אל\s+(?:תשכח|תשכחי)\s+להזכיר\s+לי)\s*(?P<rest4>.*)$"
        # "תדאג שאזכור להתקשר לאמא", and with a time said: "תגיד לי מחר בחמש ...", "תרשום לי להתקשר ... מחר"
        r"|^(?:תדאג|תדאגי|דאג)\s+ש(?:אזכור|לא\s+אשכח)\s*(?P<rest5>.*)$"
        r"|^(?:תגיד|תגידי)\s+לי\s+(?=(?:מחר|היום|הערב|בעוד|ביום|ב-?\d))(?P<rest6>.*)$"
        r"|^(?:תרשום|תרשמי)\s+לי\s+(?=ל\S)(?=.*(?:\sמחר|\sהיום|\sהערב|\sבעוד|\sביום|\sבשעה|\sב-?\d))(?P<rest7>.*)$"
    ),
)


#: "in 20 minutes remind me to ...", "מחר בשמונה תזכיר לי ...": the time comes first.
_RE_TIME_FIRST = re.compile(
    r"^(?P<pre>.{1,60}?)[,:]?\s+(?:remind\s+me|תזכיר\s+לי|תזכירי\s+לי)\b[:,]?\s*(?P<rest>.+)$", re.I
)

#: The question a time problem asks first (then the time itself, `reminder_time_required`).
TIME_PROBLEMS = {
    "invalid_time": "time_invalid",
    "past": "time_in_past",
    "too_long": "repeat_too_long",
    "unschedulable": "repeat_unsupported",
    "unplaced_day": "day_unclear",
    "over_midnight": "repeat_over_midnight",
}


#: Problems of the day or the repetition, not the hour: the hour said is kept for the answer.
KEEPS_THE_HOUR = frozenset({"too_long", "unschedulable", "unplaced_day", "over_midnight"})
#: The step's constraint holding that hour ("09:00") while the question is open.
SAID_TIME = "saidTime"


#: "daily reminder at 10pm to take pills", "weekly reminder: team sync", "תזכורת יומית ב-8 לקחת כדורים":
#: the repetition said before the word "reminder" (kept as the time words of the rest).
_RE_KIND_FIRST = re.compile(
    r"^(?:(?:set|add|create|make|new)\s+(?:me\s+)?(?:an?\s+)?)?(?P<kind>daily|weekly|monthly|yearly|annual)\s+"
    r"reminders?\b[:,]?\s*(?P<rest>.*)$"
    r"|^(?:(?:תקבע|תקבעי|קבע|תיצור|צור|תוסיף|הוסף|תגדיר|הגדר)\s+(?:לי\s+)?)?תזכורת\s+(?P<he>יומית|שבועית|חודשית|שנתית)"
    r"\s*[:\-]?\s*(?P<he_rest>.*)$",
    re.I,
)
_KIND_WORDS = {
    "daily": "every day",
    "weekly": "every week",
    "monthly": "every month",
    "yearly": "every year",
    "annual": "every year",
    "יומית": "כל יום",
    "שבועית": "כל שבוע",
    "חודשית": "כל חודש",
    "שנתית": "כל שנה",
}


def _remind_rest(text: str, inp: PlannerInput) -> str | None:
    kind = _RE_KIND_FIRST.match(text)
    if kind is not None:
        word = (kind.group("kind") or kind.group("he")).lower()
        return f"{kind.group('rest') or kind.group('he_rest') or ''} {_KIND_WORDS[word]}"
    match = _RE_TIME_FIRST.match(text)
    if match:
        pre = parse_when(match.group("pre"), inp)
        # Only time words before "remind me": "I have a meeting tomorrow so remind me ..." is a
        # sentence about something else, then the request (the planner reads that clause alone).
        if pre.found and not re.sub(r"[\W_]+", "", pre.remainder):
            return f"{match.group('rest')} {match.group('pre')}"
    for pattern in _RE_REMIND:
        match = pattern.search(text)
        if match:
            return next((g for g in match.groups() if g is not None), "")
    return None


#: "set a reminder for 5 to call mom": right after the reminder words, "for" and a bare hour is the
#: time ("for 5 minutes" is not: a unit follows).
_FOR_HOUR = re.compile(
    r"^for\s+(?=\d{1,2}(?:[:.]\d{2})?(?!\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|%|\d))\b)", re.I
)


#: Words that name no task: "remind me again in 20 minutes" with no reminder to repeat is not a
#: reminder titled "again" (what to remind about is asked).
_NO_TITLE_WORD = (
    r"(?:again|once\s+more|later|(?:about\s+)?(?:it|that|this)|"
    r"שוב|עוד\s+פעם|אחר\s+כך|(?:על\s+)?(?:זה|זאת))"
)
_NO_TITLE = re.compile(rf"^{_NO_TITLE_WORD}(?:\s+{_NO_TITLE_WORD})*$", re.I)


def names_nothing(words: str, title: str) -> bool:
    """The words left for a title are only "again" / "about it" / "שוב" (before the title's own
    trimming, which could make "שוב שוב" into something), or only a number ("1": an answer to
    another question, not a task)."""
    return bool(_NO_TITLE.match(clean(words)) or _NO_TITLE.match(title) or _ONLY_NUMBERS.match(title))


_ONLY_NUMBERS = re.compile(r"^[\d\W_]*$")


def after_remind_words(text: str) -> str:
    """An answer to a reminder's question without "remind me" said again ("remind me to call the
    bank" -> "to call the bank"); the text as it is otherwise."""
    words = clean(text)
    found = next((m for m in (p.search(words) for p in _RE_REMIND) if m), None)
    return next((g for g in found.groups() if g is not None), "") if found is not None else words


def answered_title(answer: str) -> str | None:
    """What "What should I remind you about?" was answered with, as a title ("remind me to call the
    bank" -> "call the bank"); None when the words name nothing ("again", "about it", "שוב"), and
    the question is asked again."""
    words = after_remind_words(answer)
    title = as_title(words)
    return None if not title or names_nothing(words, title) else title


def lead_title(title: str, event_time: str) -> str:
    """ "15 minutes before my 3pm meeting": set for 14:45, titled with what is at 15:00."""
    return f"{title} ב-{event_time}" if has_hebrew(title) else f"{title} at {event_time}"


#: "remind me in a bit to check the pasta", "remind me later to call mom": no time said, and no
#: part of the title either (the time is asked).
_VAGUE = (
    r"(?:in\s+a\s+(?:bit|while|little\s+while|sec|second|moment|jiffy|"
    r"few(?!\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b))|later(?:\s+on)?|soon|sometime|some\s+time|at\s+some\s+point|"
    r"afterwards|(?:(?:at|by|before|around|towards?)\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?(?:work\s*|business\s+)?day|eod|"
    r"אחר\s+כך|עוד\s+מעט|בהמשך|מאוחר\s+יותר|(?:עד\s+|לקראת\s+)?ב?סוף\s+היום)"
)
_VAGUE_TIME = re.compile(
    rf"^{_VAGUE}(?=\s|$|[,.!?])|(?<=\s){_VAGUE}(?=\s*(?:today|היום)?\s*[.!?]*$)", re.I
)  # "... later today": the day stays
#: "remind me tomorrow end of day to send it", "מחר בסוף היום לשלוח": the end of the day after a day,
#: before what to do (in a title, "the end of the day chapter", it stays).
_END_OF_DAY = re.compile(
    r"(?:(?<=\s)|^)(?:(?:at|by|before|around|towards?)\s+)?(?:the\s+)?(?:end\s+of\s+(?:the\s+)?(?:work\s*|business\s+)?day|eod)"
    r"(?=\s+to\s|\s*[.!?]*$)|(?:(?<=\s)|^)(?:עד\s+|לקראת\s+)?ב?סוף\s+היום(?=\s+ל|\s*[.!?]*$)",
    re.I,
)

#: "remind me before bed to take my pills", "... to call grandma when i get home", "תזכיר לי אחרי העבודה
#: לקנות חלב": a moment of the person's day, no time; at the start, before what to do or at the end it is
#: no part of the title (the time is asked, as for "later").
_MOMENT = (
    r"(?:(?:right|just)\s+)?(?:before\s+(?:bed|bedtime|sleep|i\s+(?:go\s+to\s+(?:bed|sleep)|sleep))|at\s+bedtime|"
    r"after\s+(?:work|school|class|the\s+gym)|when\s+i\s+(?:get|come)\s+(?:home|back)|when\s+i\s+wake\s+up|"
    r"once\s+i(?:'m|\s+am)\s+home)"
    r"|לפני\s+(?:ה?שינה|שאני\s+(?:הולך|הולכת)\s+לישון|שאלך\s+לישון)|אחרי\s+(?:ה?עבודה|בית\s+הספר|הלימודים)|"
    r"(?:כשאני\s+(?:מגיע|מגיעה|חוזר|חוזרת)|כשאגיע|כשאחזור)\s+הביתה|כשאני\s+(?:קם|קמה|מתעורר|מתעוררת)|כשאתעורר"
)
_A_MOMENT = re.compile(rf"(?:(?<=\s)|^)(?:{_MOMENT})(?=\s+to\s|\s+ל|\s*[.!?]*$)|^(?:{_MOMENT})(?=\s)", re.I)
_A_MOMENT_AT_THE_END = re.compile(rf"\s+(?:{_MOMENT})\s*[.!?]*$", re.I)

#: "remind me again to call dad at 5", "תזכיר לי שוב להתקשר לאבא": "again" is no part of the title.
_AGAIN_TO = re.compile(r"^(?:again|once\s+more)\s+(?=to\s)|^(?:שוב|עוד\s+פעם)\s+(?=ל)", re.I)


#: "tomorrow 9 to call mom", "מחר 9 להתקשר": a bare hour right after its day, before what to do, is its
#: time. At the end it is not: "remind me tomorrow" -> "1" (meant for another question) is no time.
_DAY_BARE_HOUR = re.compile(
    rf"(?:(?<=\s)|^)(?P<day>{DAY_SAID})\s+(?P<h>{HOUR_SAID})(?=\s+(?:to|about|that)\s|\s+ל)", re.I
)
#: "remind me that i need to call mom", "תזכיר לי שאני צריך להתקשר לאמא": the need is no part of the task.
_NEED_TO = re.compile(
    r"^(?:i\s+(?:need|have|must|should|got)\s+to|i\s+gotta|(?:ש)?(?:אני\s+)?(?:צריך|צריכה|חייב|חייבת))\s+(?=\S+\s*\S)",
    re.I,
)


def create(text: str, inp: PlannerInput) -> Match | None:
    rest = _remind_rest(text, inp)
    if rest is None:
        return None
    rest = _A_MOMENT.sub(" ", _END_OF_DAY.sub(" ", rest)).strip()
    rest = _FOR_HOUR.sub("at ", _AGAIN_TO.sub("", _VAGUE_TIME.sub(" ", rest)))
    rest = _DAY_BARE_HOUR.sub(lambda m: at_the_hour(m.group("day"), m.group("h")), rest)
    month = month_without_day(rest)
    if isinstance(month, MonthSaid):
        return _month_asked(month, inp)
    if month is not None:
        rest = month  # "every march on the 5th": "every march 5"
    parsed = parse_when(rest, inp)
    # "that i need to call mom"; "call mom after work" (the day said after it: "... tomorrow")
    title = _A_MOMENT_AT_THE_END.sub("", _NEED_TO.sub("", as_title(parsed.remainder), count=1))
    if names_nothing(parsed.remainder, title):
        title = ""
    if title and parsed.lead_for:
        title = lead_title(title, parsed.lead_for)
    constraints: dict[str, object] = {"title": title} if title else {}
    missing: list[str] = []
    if not title:
        missing.append("reminder_title_required")
    if parsed.recurrence is not None:
        constraints["recurrence"] = parsed.recurrence
    if parsed.problem is not None:
        missing += [TIME_PROBLEMS[parsed.problem], "reminder_time_required"]
        if parsed.problem in KEEPS_THE_HOUR and parsed.said_time:
            # "every 5 months at 9", "on christmas at 10": the answer to the question need not say
            # the hour again ("every 6 months" is at 9).
            constraints[SAID_TIME] = parsed.said_time
    elif parsed.when is not None and parsed.when > inp.now:
        constraints["when"] = iso(parsed.when)
    else:
        if parsed.day is not None:
            constraints["day"] = parsed.day.isoformat()
        missing.append("reminder_time_required")
    return Match(
        capability="reminders",
        action="create",
        # "next tuesday" on a Monday: tomorrow is the reading, shown to be confirmed (`near_next`).
        confidence=GUESS if parsed.near_next and not missing else CONFIDENT,
        risk="low",
        constraints=constraints,
        missing=tuple(missing),
        pattern="reminders:create",
    )


def _month_asked(said: MonthSaid, inp: PlannerInput) -> Match:
    """ "every march at 9 to renew insurance": a yearly reminder whose day of March is asked (and
    its time, when not said); the month and the hour wait in the step for the answer."""
    parsed = parse_when(said.rest, inp)
    title = as_title(parsed.remainder)
    if names_nothing(parsed.remainder, title):
        title = ""
    constraints: dict[str, object] = {"title": title} if title else {}
    constraints |= {"recurrence": "FREQ=YEARLY", SAID_MONTH: said.month}
    if parsed.said_time and parsed.day is None and parsed.recurrence is None:
        constraints[SAID_TIME] = parsed.said_time
    missing = ([] if title else ["reminder_title_required"]) + [MONTH_DAY_REQUIRED, "reminder_time_required"]
    return Match(
        capability="reminders",
        action="create",
        confidence=CONFIDENT,
        risk="low",
        constraints=constraints,
        missing=tuple(missing),
        pattern="reminders:create",
    )
