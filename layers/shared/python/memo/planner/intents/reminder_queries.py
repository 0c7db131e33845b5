"""Asking about reminders: "what are my reminders?", "reminders for tomorrow", "when is the rent
reminder?", and the days a period names ("next week")."""

from __future__ import annotations

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from memo.planner.base import PlannerInput
from memo.planner.intents.daily import days_of, listing
from memo.planner.lexicon import (
    DELETE_EN,
    DELETE_HE,
    HOW_MANY,
    MOVE_EN,
    MOVE_HE,
    REMINDER_EN,
    as_title,
    clean,
    has_hebrew,
    named_in,
    the_one_named,
)
from memo.planner.match import CONFIDENT, SHOWN_ONLY, Match, is_ref, parse_when
from memo.planner.when.days import MONTHS_HE
from memo.planner.when.periods import month_period

_RE_REMINDER_LIST = (
    re.compile(
        rf"^(?:what|which|show|list|see|view|get|tell|read|give|check|do i have|any|are there|what's|whats|how\s+many)\b.*\b{REMINDER_EN}\b",
        re.I,
    ),
    re.compile(rf"^(?:my|all(?:\s+my)?)\s+{REMINDER_EN}\b", re.I),
    re.compile(rf"^{REMINDER_EN}\s*\??$", re.I),
    # "reminders for next month", "reminders this week", "my reminders in january"
    re.compile(r"^(?:my\s+)?reminders\s+(?:for|in|on|during|this|next)\b", re.I),
    re.compile(r"^(?:מה|אילו|איזה|אלו|תראה|תראי|הראה|תציג|תציגי|תגיד|תפרט|יש לי|רשימת|כל|כמה)\b.*תזכורות"),
    re.compile(r"^(?:ה)?תזכורות\s+(?:שלי|להיום|למחר)"),
    re.compile(rf"^(?:ה)?תזכורות\s+(?:של\s+|ל|ב)?(?:ה?חודש|ה?שבוע|{MONTHS_HE})"),
)


#: "what did I ask you to remind me about?", "what are you reminding me about?", "על מה ביקשתי
#: שתזכיר לי?": a question about the reminders, though it says "remind me".
_RE_ASKED_TO_REMIND = re.compile(
    r"^(?:what|which\s+things?)\s+(?:did|have)\s+i\s+(?:ask(?:ed)?|tell|told)\s+you\s+to\s+remind\s+me(?:\s+(?:about|of))?\b"
    r"|^what\s+(?:are|were)\s+you\s+(?:reminding|supposed\s+to\s+remind)\s+me\b"
    r"|^what\s+am\s+i\s+supposed\s+to\s+remember\b"
    r"|^על\s+מה\s+(?:ביקשתי|אמרתי\s+לך)\s+ש?(?:תזכיר|להזכיר)\s+לי",
    re.I,
)


#: "when is the rent reminder?", "what time is my reminder about mom?", "מתי התזכורת של השכירות?"
_RE_WHEN_IS = re.compile(
    r"^(?:when(?:'s|’s|\s+is|\s+was)?|what\s+time\s+is|at\s+what\s+time\s+is)\s+(?:the\s+|my\s+|that\s+)?"
    r"(?:reminder\s+(?:about|for|to|of)\s+(?P<a>.+?)|(?P<b>.+?)\s+reminder)\s*[?.!]*$"
    r"|^(?:מתי|באיזו\s+שעה)\s+(?:יש\s+לי\s+)?(?:את\s+)?(?:ה)?תזכורת\s+(?:של\s+|על\s+|ל-?)?(?P<he>\S.*?)\s*[?.!]*$",
    re.I,
)


#: "what's my next reminder?", "when is my next reminder", "my next 3 reminders", "מה התזכורת הבאה?":
#: the next one (or the next few) only.
_RE_NEXT = re.compile(
    r"^(?:(?:what(?:'s|’s|\s+is|\s+are)|whats|when(?:'s|’s|\s+is)|show(?:\s+me)?|tell\s+me|list)\s+)?"
    r"(?:my|the)?\s*next\s+(?:(?P<n>\d{1,2}|two|three|four|five)\s+)?reminders?\s*[?.!]*$"
    r"|^(?:(?:מה|מתי|תראה\s+לי|תראי\s+לי|הראה\s+לי)\s+)?(?:את\s+)?(?:ה)?תזכורת\s+ה(?:באה|קרובה)(?:\s+שלי)?\s*[?.!]*$",
    re.I,
)
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


def next_ones(text: str, inp: PlannerInput) -> Match | None:
    """ "what's my next reminder?": the next upcoming reminder; "my next 3 reminders": three."""
    found = _RE_NEXT.match(text.strip())
    if found is None:
        return None
    if found.group("n") is None and re.search(r"\breminders\b", text, re.I):
        return listing({}, "reminders:next")  # "my next reminders": every one to come, in time order
    said = (found.group("n") or "1").lower()
    count = _COUNT_WORDS.get(said) or int(said)
    return listing({"first": max(1, min(count, 10))}, "reminders:next")


_NOT_NAMES = frozenset({"next", "upcoming", "first", "soonest", "earliest", "הבאה", "הקרובה", "הראשונה"})


#: "when is my dentist appointment?", "what time is the parents' meeting?", "when do I have the
#: dentist?", "מתי התור לרופא שיניים?", "מתי הארנונה?": a question about a thing's time, answered from
#: the reminders (no calendar is connected). Someone's thing ("when is mom's birthday?", "מתי הטיסה
#: של אבא") is a question about the notes (`notes.recall`).
_RE_WHEN_IS_MY = re.compile(
    r"^(?:when(?:'s|’s|\s+is|\s+are)|what\s+time\s+(?:is|are)|at\s+what\s+time\s+is|what\s+day\s+is)\s+"
    r"(?:my|the|our)\s+(?P<x>[^?]+?)\s*[?.!]*$"
    r"|^when\s+(?:do|should|must)\s+i\s+(?:have\s+to\s+|need\s+to\s+|have\s+)(?P<y>[^?]+?)\s*[?.!]*$"
    r"|^(?:מתי|באיזו\s+שעה|באיזה\s+יום)\s+(?:יש\s+לי\s+(?:את\s+)?)?(?:אני\s+(?:צריך|צריכה)\s+)?"
    r"(?P<he>(?!(?:זה|זאת|היא|הוא|הבאה|הבא)(?:\s|$)|ה?תזכור|ש)[^?]+?)\s*[?.!]*$",
    re.I,
)
#: The words that say it is an appointment, not what it is about ("dentist appointment", "התור לרופא").
_APPOINTMENT = re.compile(
    r"\s+appointments?$|^(?:next|upcoming)\s+(?=\S)|^(?:ה)?תור\s+(?:ל|אצל\s+)?(?=\S)", re.I
)


_ONE = re.compile(r"(?:(?:next|upcoming|first|last|other)\s+)?one|it|that|this", re.I)


def _asked_about(text: str) -> str | None:
    found = _RE_WHEN_IS.match(text)
    if found is not None:
        return found.group("a") or found.group("b") or found.group("he") or ""
    found = _RE_WHEN_IS_MY.match(text)
    if found is None:
        return None
    said = found.group("x") or found.group("y") or found.group("he") or ""
    if re.search(r"['’]s\b|(?:^|\s)של\s", said) or _ONE.fullmatch(said):
        return None  # someone's thing: the notes; "when's the next one?": the reminder just set
    return _APPOINTMENT.sub("", said)


def when_is(text: str, inp: PlannerInput) -> Match | None:
    """The reminders whose titles have the words named, with their times."""
    said = _asked_about(text)
    if said is None:
        return None
    about = as_title(the_one_named(said))
    if not about or is_ref(about):
        return None
    # "when is my next reminder": every one, in time order
    return listing({} if about.lower() in _NOT_NAMES else {"about": about}, "reminders:when_is")


#: "when is it?", "what time is that set for?", "when's the next one?", "מתי זה?", "לאיזו שעה קבעת?":
#: the time of the reminder just set or changed (the clock itself is "what time is it?", no question
#: of a reminder).
_RE_WHEN_IS_IT = re.compile(
    r"^(?:and\s+|so\s+|ok(?:ay)?,?\s+)?(?:"
    r"when(?:'s|’s|\s+is|\s+was|\s+will)?\s+(?:it|that|this|the\s+next\s+one)(?:\s+(?:one|reminder))?"
    r"(?:\s+(?:set\s+)?for|\s+(?:going\s+to\s+)?(?:go\s+off|ring|fire|be))?"
    r"|what\s+time\s+(?:is|was|did\s+you\s+set)\s+(?:it|that|this)(?:\s+(?:one|reminder))?\s+(?:set\s+)?for"
    r"|what\s+time\s+(?:is|was)\s+(?:it|that|this)\s+set|when\s+will\s+you\s+remind\s+me"
    # "what time is this?" (quoting the reminder): "this", "that" are no clock ("what time is it?" is)
    r"|what\s+time(?:\s+is|\s+was|'s|’s)\s+(?:that|this)(?:\s+(?:one|reminder))?"
    r"|for\s+when\s+(?:is\s+)?(?:it|that)(?:\s+set)?)\s*[?.!]*$"
    r"|^ו?(?:מתי|לאיזו\s+שעה|לאיזה\s+יום|באיזו\s+שעה|למתי)\s+"
    r"(?:זה|היא|הבאה|קבעת(?:\s+(?:את\s+)?זה|\s+אותה)?|התזכורת(?:\s+הזאת|\s+הבאה)?|תזכיר\s+לי)\s*[?.!]*$",
    re.I,
)


def when_is_it(text: str, inp: PlannerInput) -> Match | None:
    """The reminder just set or changed, with its time; None with no such reminder."""
    if _RE_WHEN_IS_IT.match(text) is None:
        return None
    # The latest change, a listing or a search skipped: "it" is no reminder after a list add.
    latest = next((a for a in inp.latest_actions if a.action not in SHOWN_ONLY), None)
    about = (
        as_title(named_in(latest.summary)) if latest is not None and latest.capability == "reminders" else ""
    )
    return listing({"about": about}, "reminders:when_is_it") if about else None


_I_SET = re.compile(
    r"^(?=(?:what|which|how\s+many|show|list)\b).*?\b(?:did|have)\s+i\s+(?:set|made?)\b|\bi(?:'ve|\s+have)?\s+set\s+up\b",
    re.I,
)


def show(text: str, inp: PlannerInput) -> Match | None:
    if _RE_ASKED_TO_REMIND.search(text):
        # "what did I ask you to remind me about on friday?": that day's
        return listing(shown_days(text, inp), "reminders:list")
    # "what reminders did I set for friday?" asks; "set the reminder for friday" moves one.
    asked = _I_SET.sub(" ", text)
    if re.search(rf"\b(?:{DELETE_EN}|{MOVE_EN}|remind me)\b|{DELETE_HE}|{MOVE_HE}|תזכיר", asked, re.I):
        return None
    for pattern in _RE_REMINDER_LIST:
        if pattern.search(text):
            constraints: dict[str, object] = shown_days(text, inp)
            if HOW_MANY.match(text):
                constraints["howMany"] = True
            return Match(
                capability="reminders",
                action="list",
                confidence=CONFIDENT,
                risk="low",
                constraints=constraints,
                pattern="reminders:list",
            )
    return None


def shown_days(text: str, inp: PlannerInput) -> dict[str, object]:
    """The days a listing asks about: "tomorrow" is that day, "this week" the days from today to its
    end (as "what do I have this week?"), "next week" the week after this one, "in january" the days of
    that month still to come; none: every reminder."""
    month = month_period(text, inp.now.astimezone(ZoneInfo(inp.timezone)).date())
    if month is not None:
        return {"day": month.first.isoformat(), "until": month.last.isoformat()}
    week = _WEEK.search(text)
    if week is not None:
        if _later_week(week):
            period, _ = days_named(text, inp)
            last = date.fromisoformat(period["until"]) - timedelta(days=1)
            return {"day": period["from"], "until": last.isoformat()}
        period, _ = days_named(text, inp)  # this week: from today to the day before the next one's
        last = date.fromisoformat(period["until"]) - timedelta(days=1)
        return {"day": period["from"], "until": last.isoformat()}
    parsed = parse_when(text, inp)
    day = parsed.day or (parsed.when.date() if parsed.when else None)
    return days_of(text, day, inp)


_WEEK = re.compile(
    r"(?P<after>\b(?:the\s+)?week\s+after\s+next\b|(?:ב|ה|ל)?שבוע\s+שאחרי\s+(?:ה?שבוע\s+)?הבא)"
    r"|\b(?P<en>this|next)\s+week\b|(?P<he_next>(?:ב|ה|ל)?שבוע\s+הבא)|(?P<he_this>(?:ב|ל)?השבוע|(?:ב|ל)שבוע\s+הזה)",
    re.I,
)


def _later_week(week: re.Match[str]) -> bool:
    """ "next week", "the week after next": a calendar week after this one (not the days from today)."""
    return (week.group("en") or "").lower() == "next" or bool(week.group("he_next") or week.group("after"))


def days_named(text: str, inp: PlannerInput) -> tuple[dict[str, str], str]:
    """The days words name ("next week", "next month", "tomorrow", "friday": what a skip asks about),
    as {"from", "until"} (dates, the end excluded), and the words without them."""
    zone = ZoneInfo(inp.timezone)
    today = inp.now.astimezone(zone).date()
    month = month_period(text, today)  # "skip next month", "in december"
    if month is not None:
        return {
            "from": month.first.isoformat(),
            "until": (month.last + timedelta(days=1)).isoformat(),
        }, clean(month.rest)
    week = _WEEK.search(text)
    if week is not None:
        # A week starts on Sunday in Israel (and in Hebrew), else on Monday.
        sunday = inp.timezone == "Asia/Jerusalem" or has_hebrew(text)
        start_weekday = 6 if sunday else 0
        next_start = today + timedelta(days=(start_weekday - today.weekday() - 1) % 7 + 1)
        if week.group("after") is not None:  # "the week after next": a week later still
            next_start += timedelta(days=7)
        nxt = _later_week(week)
        first, end = (next_start, next_start + timedelta(days=7)) if nxt else (today, next_start)
        rest = text[: week.start()] + " " + text[week.end() :]
        return {"from": first.isoformat(), "until": end.isoformat()}, clean(rest)
    parsed = parse_when(text, inp)
    day = parsed.day or (parsed.when.astimezone(zone).date() if parsed.when is not None else None)
    if day is None or parsed.recurrence is not None:
        return {}, text
    return {"from": day.isoformat(), "until": (day + timedelta(days=1)).isoformat()}, parsed.remainder
