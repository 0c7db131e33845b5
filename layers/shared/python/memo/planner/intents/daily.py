"""Questions and requests people send every day that are not phrased as a command on a noun:
"what do I have tomorrow?", "תזכורות", "set an alarm for 6am", "wake me up at 7", "תעיר אותי ב-6".

An agenda question lists the reminders of the day it names (Memo's reminders are the user's
agenda; there is no calendar adapter). An alarm is a reminder: its title is what the message says
it is for, else "alarm" ("השכמה" in Hebrew).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from memo.planner.base import PlannerInput
from memo.planner.lexicon import as_title, clean, has_hebrew
from memo.planner.match import CONFIDENT, Match, iso, parse_when
from memo.planner.when.day_phrases import first_weekday, next_week_start
from memo.planner.when.periods import month_period, weekend_period

_RE_AGENDA = (
    re.compile(
        r"^(?:(?:what(?:'s|’s|\s+is)?|whats)\s+(?:(?:do\s+)?i\s+have|have\s+i\s+got|is\s+on|on|planned|happening|up|"
        r"my\s+(?:day|schedule|plan|agenda)(?:\s+look\s+like)?|(?:my\s+)?plan)|what\s+have\s+i\s+got|"
        r"(?:is\s+there\s+|have\s+i\s+got\s+|got\s+)?anything(?:\s+(?:on|planned|for\s+me))?|do\s+i\s+have\s+anything(?:\s+(?:on|planned))?|"
        r"am\s+i\s+(?:free|busy)|what'?s\s+(?:the\s+)?plan|how\s+does\s+my\s+day\s+look|"
        r"what\s+am\s+i\s+(?:doing|up\s+to)|what'?s\s+(?:planned|happening|coming\s+up)|show\s+me)\b(?P<rest>.*)$",
        re.I,
    ),
    re.compile(
        r"^(?:מה\s+(?:יש\s+לי|קורה|מתוכנן|על\s+הלו\"?״?ז|התוכניות\s+שלי|בתוכנית|הלו\"?״?ז\s+שלי)|"
        r"יש\s+(?:לי\s+)?משהו|אני\s+פנוי|אני\s+פנויה)(?P<rest>.*)$"
    ),
)
#: What may remain of an agenda question once its day is read: nothing that names something else.
_AGENDA_REST = re.compile(
    r"^(?:for\b\s*)?(?:me|planned|scheduled|on|today|then|my\s+plate|my\s+schedule|my\s+agenda)?\s*$", re.I
)
_AGENDA_REST_HE = re.compile(r"^(?:לי|בתוכנית|מתוכנן)?\s*$")


#: "this week", "השבוע": the days from today to the end of this week (the next week's are its own);
#: "the next 7 days", "the coming week", "בשבוע הקרוב" (`seven`): the seven days from today.
_WEEK = re.compile(
    r"^(?:for\s+|in\s+|on\s+)?(?:this\s+week|the\s+rest\s+of\s+the\s+week"
    r"|(?P<seven>this\s+coming\s+week|the\s+(?:next|coming)\s+(?:7|seven)\s+days|the\s+coming\s+week))\s*$"
    r"|^(?:ב|ל)?(?:השבוע(?:\s+הזה)?|שבוע\s+הזה|(?P<seven_he>ה?שבוע\s+הקרוב))\s*$",
    re.I,
)
_NEXT_WEEK = re.compile(
    r"^(?:for\s+|in\s+|on\s+)?(?:next\s+week|(?P<after>(?:the\s+)?week\s+after\s+next))\s*$"
    r"|^(?:ב|ל)?(?:שבוע\s+הבא|(?P<he_after>שבוע\s+שאחרי\s+(?:ה?שבוע\s+)?הבא))\s*$",
    re.I,
)
#: "what's coming up?", "what's next?", "anything upcoming?", "מה הלאה?": everything still to come.
_RE_UPCOMING = re.compile(
    r"^(?:what(?:'s|’s|\s+is)?|whats|anything|is\s+there\s+anything)\s+(?:coming\s+up|next|upcoming|ahead)"
    r"(?:\s+for\s+me)?\s*\??$|^(?:my\s+)?upcoming(?:\s+reminders)?\s*\??$|^מה\s+(?:הלאה|בהמשך|הבא|מחכה\s+לי)\s*\??$",
    re.I,
)


def days_of(text: str, day: date | None, inp: PlannerInput) -> dict[str, object]:
    """A listing's constraints for the `day` read from `text`: that day, or the whole weekend when
    the day was "the weekend"'s Saturday; none: every reminder."""
    if day is None:
        return {}
    weekend = weekend_period(text, day, inp.timezone)
    if weekend is not None:
        return {"day": weekend[0].isoformat(), "until": weekend[1].isoformat()}
    return {"day": day.isoformat()}


def listing(constraints: dict[str, object], pattern: str) -> Match:
    """The reminders list: every upcoming reminder, or those of `constraints`' day(s)."""
    return Match(
        capability="reminders",
        action="list",
        confidence=CONFIDENT,
        risk="low",
        constraints=constraints,
        pattern=pattern,
    )


_ASKS_WHAT_I_HAVE = re.compile(
    r"^(?:what(?:'s|’s|\s+is)?|whats)\s+(?:do\s+i\s+have|have\s+i\s+got|(?:is\s+)?on\s+my\s+(?:plate|schedule|agenda)|"
    r"my\s+(?:schedule|agenda|plan))|^what\s+have\s+i\s+got|^do\s+i\s+have\s+anything|^מה\s+(?:יש\s+לי|מתוכנן|הלו)",
    re.I,
)


#: "tell me what I have tomorrow", "can you tell me what's on friday", "תגיד לי מה יש לי מחר": the question.
_TELL_ME = re.compile(
    r"^(?:(?:can|could)\s+you\s+)?tell\s+me\s+(?=what|if\s+i\s+have|whether\s+i\s+have)|^(?:תגיד|תגידי)\s+לי\s+(?=מה)",
    re.I,
)


def agenda(text: str, inp: PlannerInput) -> Match | None:
    """ "what do I have tomorrow?" -> the reminders of that day; "... this week?" -> of the days left
    of this week."""
    text = _TELL_ME.sub("", clean(text), count=1)  # "tell me what I have tomorrow"
    for pattern in _RE_AGENDA:
        match = pattern.search(clean(text))
        if not match:
            continue
        this = _WEEK.match(clean(match.group("rest")))
        if this is not None:
            today = inp.now.astimezone(ZoneInfo(inp.timezone)).date()
            end = next_week_start(today, first_weekday(inp.timezone, hebrew=has_hebrew(text)))
            last = (
                today + timedelta(days=6)
                if this.group("seven") or this.group("seven_he")
                else end - timedelta(days=1)
            )
            return listing({"day": today.isoformat(), "until": last.isoformat()}, "reminders:agenda")
        later = _NEXT_WEEK.match(clean(match.group("rest")))
        if later is not None:
            # "what do I have next week?": the seven days of the week after this one ("the week
            # after next": of the one after it)
            today = inp.now.astimezone(ZoneInfo(inp.timezone)).date()
            first = next_week_start(today, first_weekday(inp.timezone, hebrew=has_hebrew(text)))
            if later.group("after") or later.group("he_after"):
                first += timedelta(days=7)
            following: dict[str, object] = {
                "day": first.isoformat(),
                "until": (first + timedelta(days=6)).isoformat(),
            }
            return listing(following, "reminders:agenda")
        month = month_period(clean(match.group("rest")), inp.now.astimezone(ZoneInfo(inp.timezone)).date())
        if month is not None and (_AGENDA_REST_HE if has_hebrew(text) else _AGENDA_REST).match(month.rest):
            # "what do I have in january?": the days of that month still to come
            return listing(
                {"day": month.first.isoformat(), "until": month.last.isoformat()}, "reminders:agenda"
            )
        parsed = parse_when(match.group("rest"), inp)
        day = parsed.day or (parsed.when.date() if parsed.when else None)
        rest = clean(parsed.remainder)
        if not (_AGENDA_REST_HE if has_hebrew(text) else _AGENDA_REST).match(rest):
            return None
        if day is None:
            # "what do I have?", "what's on my plate?", "מה יש לי?": everything still to come (never
            # "what's up?" / "מה קורה?", which greet).
            return listing({}, "reminders:agenda") if _ASKS_WHAT_I_HAVE.match(clean(text)) else None
        return listing(days_of(text, day, inp), "reminders:agenda")
    return None


_RE_REMINDERS_WORD = re.compile(r"^(?:ה)?תזכורות(?:\s+שלי)?\s*\??$|^(?:my\s+)?reminders\s*\??$", re.I)


def reminders_word(text: str, inp: PlannerInput) -> Match | None:
    """ "תזכורות" / "reminders?" alone, or "what's coming up?": every upcoming reminder."""
    bare = clean(text)
    if _RE_REMINDERS_WORD.match(bare) or _RE_UPCOMING.match(bare):
        return listing({}, "reminders:list")
    return None


_RE_ALARM = (
    re.compile(
        r"^(?:set|make|put|create|add)\s+(?:me\s+)?(?:an?\s+|my\s+)?alarm(?:\s+clock)?\b(?P<rest>.*)$"
        r"|^alarm\b[:,]?(?P<rest2>.*)$"
        r"|^wake\s+me(?:\s+up)?\b(?P<rest3>.*)$",
        re.I,
    ),
    re.compile(
        r"^(?:(?:תכוון|תכווני|כוון|תגדיר|תגדירי|הגדר|תשים|תשימי|שים)\s+(?:לי\s+)?(?:שעון\s+)?(?:מעורר|התראה|אזעקה)(?P<rest>.*)$"
        r"|^(?:תעיר|תעירי|הער)\s+אותי(?P<rest2>.*)$|^שעון\s+מעורר(?P<rest3>.*)$)"
    ),
)


_DAYTIME_MARK = re.compile(
    r"\d\s*(?:a\.?m|p\.?m)\b|\b(?:morning|evening|night|tonight|afternoon|noon|midnight)\b"
    r"|בבוקר|בערב|בלילה|אחה|בצהריים|הערב",
    re.I,
)
_BARE_HOUR = re.compile(
    r"(?<![\d:/.])((\d{1,2})(?::\d{2})?)(?![\d:/.]|\s*(?:minutes?|hours?|min|h\b|דקות|שעות))"
)


def alarm(text: str, inp: PlannerInput) -> Match | None:
    """ "set an alarm for 6am" / "wake me up at 7" / "תעיר אותי ב-6": a reminder at that time."""
    for pattern in _RE_ALARM:
        match = pattern.search(clean(text))
        if not match:
            continue
        rest = next((g for g in match.groups() if g is not None), "")
        rest = re.sub(r"(?:^|(?<=\s))(?:for|at|to|ל-?|ב-?)\s*(?=\d)", " at ", rest, flags=re.I)
        # An alarm at "7", "7:00" or "בשבע" is 7 in the morning unless the words say otherwise.
        morning = not _DAYTIME_MARK.search(rest)
        if morning:
            rest = _BARE_HOUR.sub(  # "set alarm 7": a bare number is the hour
                lambda m: f"{m.group(1)}am" if int(m.group(2)) <= 12 else m.group(1), rest, count=1
            )
        parsed = parse_when(rest, inp)
        if morning and parsed.named_time:
            parsed = parse_when(f"{rest} {'בבוקר' if has_hebrew(text) else 'in the morning'}", inp)
        title = as_title(
            re.sub(r"^(?:up|so\s+(?:that\s+)?i\s+can)\s+", "", clean(parsed.remainder), flags=re.I)
        )
        if not title:
            title = "השכמה" if has_hebrew(text) else "alarm"
        constraints: dict[str, object] = {"title": title}
        if parsed.recurrence is not None:
            # "wake me up every weekday at 7", "תעיר אותי כל בוקר בשש": the alarm repeats.
            constraints["recurrence"] = parsed.recurrence
        missing: tuple[str, ...] = ()
        if parsed.when is not None and parsed.when > inp.now:
            constraints["when"] = iso(parsed.when)
        else:
            if parsed.day is not None:
                constraints["day"] = parsed.day.isoformat()
            missing = ("reminder_time_required",)
        return Match(
            capability="reminders",
            action="create",
            confidence=CONFIDENT,
            risk="low",
            constraints=constraints,
            missing=missing,
            pattern="reminders:alarm",
        )
    return None
