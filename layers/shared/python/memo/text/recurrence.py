"""Recurring times: "every day at 8am", "every Monday", "כל יום ראשון", "every 2 hours until Friday".

`find_recurrence(text)` finds the repetition phrase of a message (English and Hebrew) and returns
a `Recurrence` with the spans to remove from the title; the time of day ("at 8am") is left for the
time parser (`memo.planner.timeparse`), which calls this module first. A `Recurrence` is the RRULE
(RFC 5545) of the repetition without its start; `memo.text.series` stores it with its first
occurrence and evaluates it, `memo.text.series_words` words it for the user.

Weekdays: "weekdays" are Monday to Friday, and Sunday to Thursday in Israel (Asia/Jerusalem).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time

from memo.text.months import month_names
from memo.text.recurrence_days import (
    EN_ORDINAL_DAYS,
    EN_WEEKDAY_WORDS,
    HE_ORDINAL_DAYS,
    HE_WEEKDAY_WORDS,
    month_day,
    weekday_list,
    weekend,
    workweek,
)
from memo.text.recurrence_ends import HE_COUNT_WORDS, count_word, find_end
from memo.text.recurrence_units import HE_DUALS, PART_WORDS, Frequency, Window, find_window, unit_freq

_FLAGS = re.IGNORECASE
#: RRULE weekday codes, Monday first (`date.weekday()` order).
WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")

_EN_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|weds|wed|thurs|thu|fri|sat|sun)"
#: A weekday in the plural ("on mondays"); "tues" and "weds" are one day, shortened ("on weds at 10").
_EN_DAYS = rf"(?!(?:tues|weds)\b){_EN_DAY}s"
#: ... though in a list with a plural, they are days of the repetition too ("on weds and fridays").
_EN_DAYS_OR_SHORT = rf"(?:{_EN_DAYS}|tues|weds)"
_AND = r"\s*(?:,|and|&)\s*"
_EN_FULL_DAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s"
_HE_DAY = r"(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)"
_EN_MONTHS = month_names(hebrew=False)
_HE_MONTHS = month_names(hebrew=True)


@dataclass(frozen=True)
class Recurrence:
    """A repetition without its start: the RRULE's parts. `part` is a part of the day the phrase
    named ("every morning"), for the time parser's defaults."""

    freq: Frequency
    interval: int = 1
    weekdays: tuple[int, ...] = ()  # 0 = Monday
    month_day: int | None = None
    #: With one weekday, a monthly repetition's week: 1 to 4, or -1 for the last ("the first Monday
    #: of every month": BYDAY=1MO).
    week_of_month: int | None = None
    count: int | None = None
    until: date | None = None
    until_at: time | None = None  # a repetition within a day stops at this time of `until`
    window: Window | None = None  # ... or comes at these hours of each day ("from 9 to 5")
    part: str | None = None

    @property
    def needs_time_of_day(self) -> bool:
        return self.freq not in ("MINUTELY", "HOURLY")

    @property
    def rule(self) -> str:
        """The RRULE value, e.g. "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=5"."""
        freq, interval = self.freq, self.interval
        if self.window is not None:  # the hours of each day, or of the days said
            freq, interval = ("WEEKLY" if self.weekdays else "DAILY"), 1
        parts = [f"FREQ={freq}"] + ([f"INTERVAL={interval}"] if interval > 1 else [])
        if self.weekdays:
            nth = "" if self.week_of_month is None else str(self.week_of_month)
            parts.append("BYDAY=" + ",".join(nth + WEEKDAY_CODES[d] for d in sorted(self.weekdays)))
        if self.window is not None:
            parts += self.window.by_parts(self.freq, self.interval)
        if self.month_day is not None:
            parts.append(f"BYMONTHDAY={self.month_day}")
        if self.count is not None:
            parts.append(f"COUNT={self.count}")
        if self.until is not None:
            at = (
                self.until_at
                if self.until_at is not None and not self.needs_time_of_day
                else time(23, 59, 59)
            )
            parts.append(f"UNTIL={self.until:%Y%m%d}T{at:%H%M%S}")
        return ";".join(parts)


@dataclass(frozen=True)
class RecurrenceMatch:
    recurrence: Recurrence
    spans: tuple[tuple[int, int], ...]


# --- finding the phrase ---------------------------------------------------------------------------

_EN_EVERY = r"(?:every|each|once\s+(?:a|every|per))"
_EN_ORDINAL_DAY = "(?:" + "|".join(EN_ORDINAL_DAYS) + ")"
_HE_MONTH_DAY = r"(?:\d{1,2}|" + "|".join(HE_ORDINAL_DAYS) + ")"
#: The day of the month a monthly repetition names apart from it: "every month ... on the 1st".
_ON_MONTH_DAY = re.compile(
    rf"\bon\s+the\s+(?P<en>\d{{1,2}}(?:st|nd|rd|th)|{_EN_ORDINAL_DAY})\b"
    rf"|(?:(?<=\s)|^)ב-?(?P<he>{_HE_MONTH_DAY})\s+(?:ל|ב|של\s+)(?:ה)?חודש(?=\s|$|[,.!?])",
    _FLAGS,
)
#: "כל חודש ב-15": a bare number right after a Hebrew "every month" is its day, not a clock time
#: ("כל חודש ב-15:00", "ב-9 בבוקר", "ב-9am" are times).
_HE_DAY_AFTER_MONTH = re.compile(
    r"\s+ב-?(?P<he>\d{1,2})(?=\s|$|[,!?])"
    r"(?!\s+(?:בבוקר|בערב|בצהריים|בצהרים|בלילה|אחה\"?צ|אחה״צ|אחרי\s+הצהריים|לפנות|בדיוק|(?:a|p)\.?m\b))",
    _FLAGS,
)
#: The weekday a repetition in weeks names beside it: "every 2 weeks on friday", "פעם בשבועיים ביום שישי".
_ON_WEEKDAY = re.compile(
    rf"\b(?:on\s+)?(?P<en>{_EN_DAY})s?\b|(?:(?<=\s)|^)ב?(?:יום\s+)?(?P<he>{_HE_DAY})(?=\s|$|[,.!?])",
    _FLAGS,
)
_EN_NTH = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1,
}  # fmt: skip
_HE_NTH = {"הראשון": 1, "השני": 2, "השלישי": 3, "הרביעי": 4, "האחרון": -1}
_EN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        # Before the weekdays and "every month": "the first monday of every month", "every last friday".
        "month_week",
        re.compile(
            rf"\b(?:(?:on\s+)?(?:the\s+)?(?P<nth>{'|'.join(_EN_NTH)})\s+(?P<wd>{_EN_DAY})\s+(?:of|in)\s+(?:every|each)\s+month"
            rf"|(?:every|each)\s+(?P<nth2>{'|'.join(_EN_NTH)})\s+(?P<wd2>{_EN_DAY})(?:\s+(?:of|in)\s+(?:the|every|each)\s+month)?)\b",
            _FLAGS,
        ),
    ),
    (
        "weekdays",
        re.compile(
            r"\b(?:(?:every|each|on)\s+weekdays?|every\s+work\s*day|on\s+work\s*days|weekdays)\b", _FLAGS
        ),
    ),
    (
        # "every weekend", "on weekends" (never "on the weekend", which is the coming one)
        "weekend",
        re.compile(r"\b(?:(?:every|each)\s+weekend|on\s+weekends)\b", _FLAGS),
    ),
    (
        # "every march 5", "each 5th of may": a day of the year, read by the time parser (only "every"
        # is the repetition's word)
        "yearly_date",
        re.compile(
            rf"\b(?:every|each)\s+(?=(?:{_EN_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
            rf"|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_EN_MONTHS})\b)",
            _FLAGS,
        ),
    ),
    (
        "weekly_days",
        re.compile(
            rf"\b(?:(?:every|each)\s+(?P<other>other\s+)?(?P<days>{_EN_DAY}(?:(?:\s*(?:,|and|&)\s*|\s+){_EN_DAY})*)"
            rf"|on\s+(?P<plural>{_EN_DAYS}(?:{_AND}{_EN_DAYS_OR_SHORT})*"
            rf"|(?:tues|weds)(?:{_AND}(?:tues|weds))*{_AND}{_EN_DAYS}(?:{_AND}{_EN_DAYS_OR_SHORT})*))\b",
            _FLAGS,
        ),
    ),
    (
        "every_n",
        re.compile(
            r"\bevery\s+(?P<n>\d{1,3}|other|two|three|four|five|six|ten|twelve)\s+"
            r"(?P<unit>minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b",
            _FLAGS,
        ),
    ),
    (
        "month_end",
        re.compile(
            r"\b(?:(?:at|on|by)\s+)?(?:the\s+)?(?:end|last\s+day)\s+of\s+(?:every|each)\s+month"
            r"|(?:every|each)\s+month\s+on\s+the\s+last\s+day|monthly\s+on\s+the\s+last\s+day\b",
            _FLAGS,
        ),
    ),
    (
        "month_day",
        re.compile(
            rf"\b(?:(?:on\s+)?the\s+(?P<d1>\d{{1,2}}|{_EN_ORDINAL_DAY})(?:st|nd|rd|th)?\s+(?:of\s+)?(?:every|each)\s+month"
            rf"|(?:every|each)\s+month\s+on\s+the\s+(?P<d5>{_EN_ORDINAL_DAY})"
            r"|(?:every|each)\s+month\s+on\s+the\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?"
            r"|monthly\s+on\s+the\s+(?P<d3>\d{1,2})(?:st|nd|rd|th)?"
            r"|(?:every|each)\s+(?P<d4>\d{1,2})(?:st|nd|rd|th))\b",
            _FLAGS,
        ),
    ),
    (
        "every_part",
        re.compile(r"\b(?:every|each)\s+(?P<part>morning|afternoon|evening|night)\b", _FLAGS),
    ),
    (
        "every_unit",
        re.compile(
            rf"\b(?:{_EN_EVERY}\s+(?P<unit>minute|hour|day|week|month|year)"
            r"|(?P<adverb>hourly|daily|weekly|monthly|yearly|annually|quarterly|fortnightly)"
            r"|every\s+(?P<quarter>quarter))\b",
            _FLAGS,
        ),
    ),
    (
        # "mondays at 9", "to saturdays": a weekday's full name in the plural is every such day,
        # "on" or not (shortened ones, "sats", "suns", need the "on" above), when a time, an end or
        # another clause follows it ("mondays meeting", "sundays paper" are no repetition)
        "weekly_days",
        re.compile(
            rf"(?<![\w'’])(?<!except )(?<!but )(?<!not )(?<!no )(?<!and )(?<!, )(?<!without )(?<!besides )"
            rf"(?P<plural>{_EN_FULL_DAYS}(?:{_AND}{_EN_FULL_DAYS})*)"
            r"(?=\s*(?:$|[,.;:!?)]|(?:at|@|in|from|until|till|starting|to|and|instead|please|too|only)\b|\d))",
            _FLAGS,
        ),
    ),
)

_HE_START = r"(?:(?<=\s)|^)"
_HE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        # "כל יום שני הראשון בחודש", "ביום שישי האחרון של כל חודש": before the days of the month ("הראשון של כל חודש") and the weekdays.
        "month_week",
        re.compile(
            _HE_START
            + rf"(?:(?:[בל])?כל\s+יום\s+(?P<hw>{_HE_DAY})\s+(?P<hnth>{'|'.join(_HE_NTH)})\s+(?:ב|של\s+)(?:ה|כל\s+)?חודש"
            + rf"|[בל]?-?יום\s+(?P<hw2>{_HE_DAY})\s+(?P<hnth2>{'|'.join(_HE_NTH)})\s+(?:ב|של\s+)כל\s+חודש)(?=\s|$|[,.!?])"
        ),
    ),
    (
        # Before the weekdays: "בכל ראשון לחודש" is the 1st of the month, not every Sunday.
        "month_day",
        re.compile(
            _HE_START + rf"(?:(?:ב-?|ה-?)(?P<d1>{_HE_MONTH_DAY})\s+(?:ל|ב|של\s+)כל\s+(?:ה)?חודש"
            rf"|(?:[בל])?כל\s+(?:ה-?)?(?P<d6>{_HE_MONTH_DAY})\s+(?:ל|ב|של\s+)(?:ה)?חודש)(?=\s|$|[,.!?])"
        ),
    ),
    ("weekdays", re.compile(_HE_START + r"(?:(?:[בל])?כל\s+יום\s+חול|בימי\s+חול|בימות\s+השבוע)")),
    (
        "weekend",
        re.compile(
            _HE_START
            + r"(?:(?:[בל])?כל\s+(?:סוף\s+(?:ה)?שבוע|סופ\"?ש|סופ״ש)|בסופי\s+(?:ה)?שבוע|בסופ\"?שים)(?=\s|$|[,.!?])"
        ),
    ),
    (
        "yearly_date",
        re.compile(_HE_START + rf"(?:[בל])?כל\s+(?=\d{{1,2}}\s+(?:ב|ל)-?(?:{_HE_MONTHS})(?=\s|$|[,.!?]))"),
    ),
    (
        "weekly_days",
        re.compile(
            _HE_START
            + rf"(?:(?:[בל])?כל\s+(?P<other>שבועיים\s+ב)?(?:יום\s+)?(?P<days>{_HE_DAY}(?:(?:\s*(?:,|ו)\s*|\s+)(?:יום\s+)?{_HE_DAY})*)"
            + rf"|[בל]ימי\s+(?P<plural>{_HE_DAY}(?:\s*(?:,|ו)\s*{_HE_DAY})*))(?=\s|$|[,.!?])"
        ),
    ),
    (
        "every_n",
        re.compile(
            _HE_START
            + r"(?:(?:[בל])?כל|פעם\s+ב-?)\s*(?:(?P<n>\d{1,3}|"
            + "|".join(sorted(HE_COUNT_WORDS, key=len, reverse=True))
            + r")\s+(?P<unit>דקות|שעות|ימים|שבועות|חודשים|שנים)"
            + r"|(?P<dual>רבע\s+שעה|חצי\s+שעה|שעתיים|יומיים|שבועיים|חודשיים|שנתיים))(?=\s|$|[,.!?])"
        ),
    ),
    (
        "month_end",
        re.compile(
            _HE_START
            + r"(?:ב)?(?:סוף\s+כל\s+חודש|כל\s+סוף\s+חודש|יום\s+האחרון\s+של\s+כל\s+חודש)(?=\s|$|[,.!?])"
        ),
    ),
    ("every_part", re.compile(_HE_START + r"(?:[בל])?כל\s+(?P<part>בוקר|ערב|לילה|צהריים)(?=\s|$|[,.!?])")),
    (
        "every_unit",
        re.compile(
            _HE_START
            + r"(?:(?:[בל])?כל\s+(?P<unit>שעה|יום|שבוע|חודש|שנה)|מדי\s+(?P<unit2>שעה|יום|שבוע|חודש|שנה)"
            + r"|פעם\s+ב(?P<unit3>שעה|יום|שבוע|חודש|שנה))(?=\s|$|[,.!?])"
        ),
    ),
)


#: BYMONTHDAY of "at the end of every month": the month's last day, whatever its length.
LAST_DAY = -1


def _from_match(kind: str, match: re.Match[str], timezone: str) -> Recurrence | None:
    groups = match.groupdict()
    if kind == "weekdays":
        return Recurrence("WEEKLY", weekdays=workweek(timezone))
    if kind == "weekend":
        return Recurrence("WEEKLY", weekdays=weekend(timezone))
    if kind == "yearly_date":
        return Recurrence("YEARLY")
    if kind == "month_week":
        if groups.get("hw") or groups.get("hw2"):
            day, nth = (
                HE_WEEKDAY_WORDS[groups["hw"] or groups["hw2"]],
                _HE_NTH[groups["hnth"] or groups["hnth2"]],
            )
        else:
            day = EN_WEEKDAY_WORDS[(groups["wd"] or groups["wd2"]).lower()]
            nth = _EN_NTH[(groups["nth"] or groups["nth2"]).lower()]
        return Recurrence("MONTHLY", weekdays=(day,), week_of_month=nth)
    if kind == "weekly_days":
        words = groups.get("days") or groups.get("plural") or ""
        table = HE_WEEKDAY_WORDS if re.search(r"[\u0590-\u05ff]", words) else EN_WEEKDAY_WORDS
        days = weekday_list(words, table)
        if not days:
            return None
        other = bool(groups.get("other"))
        if other and len(days) > 1:
            return None  # "every other Monday and Tuesday": one schedule cannot say it
        return Recurrence("WEEKLY", interval=2 if other else 1, weekdays=days)
    if kind == "every_n":
        if groups.get("dual"):
            freq, n = HE_DUALS[" ".join(groups["dual"].split())]
            return Recurrence(freq, interval=n)
        n = count_word(groups["n"])
        freq = unit_freq(groups["unit"])
        if n < 1 or (freq == "MINUTELY" and n < 5):
            return None  # more often than every 5 minutes is not a reminder
        return Recurrence(freq, interval=n)
    if kind == "month_end":
        return Recurrence("MONTHLY", month_day=LAST_DAY)
    if kind == "month_day":
        said = next(groups[k] for k in ("d1", "d2", "d3", "d4", "d5", "d6") if groups.get(k))
        day = month_day(said)
        return Recurrence("MONTHLY", month_day=day) if 1 <= day <= 31 else None
    if kind == "every_part":
        part = groups["part"].lower()
        return Recurrence("DAILY", part=PART_WORDS.get(part, part))
    adverb = (groups.get("adverb") or "").lower()
    if adverb == "quarterly" or groups.get("quarter"):
        return Recurrence("MONTHLY", interval=3)
    if adverb == "fortnightly":
        return Recurrence("WEEKLY", interval=2)
    unit = groups.get("unit") or groups.get("unit2") or groups.get("unit3") or adverb
    freq = unit_freq(unit)
    if freq == "MINUTELY":
        return None
    return Recurrence(freq)


def find_recurrence(
    text: str, *, timezone: str, now_local: datetime, language: str = "en"
) -> RecurrenceMatch | None:
    """The repetition phrase of `text`, if any, with its end ("until Friday", "5 times"); a
    repetition within the hours of a day comes on the days said beside it ("every hour from 9 to 5
    on weekdays", "כל שעה בין 9 ל-5 בימי חול")."""
    found = _find(text, timezone=timezone, now_local=now_local, language=language)
    if found is None:
        return None
    if _every_day(found.recurrence):
        # "כל יום כל שעה מ-9 עד 17": the hours of each day said after "every day" (whose end
        # "עד 17" would otherwise be "until the 17th").
        within = _find(
            _blanked(text, found.spans[0]), timezone=timezone, now_local=now_local, language=language
        )
        if within is not None and within.recurrence.window is not None and not within.recurrence.weekdays:
            return RecurrenceMatch(within.recurrence, (found.spans[0], *within.spans))
    rest = text
    for span in found.spans:
        rest = _blanked(rest, span)
    more = _find(rest, timezone=timezone, now_local=now_local, language=language)
    if more is None:
        return found
    hours, days = (found.recurrence, more.recurrence)[:: 1 if found.recurrence.window else -1]
    if hours.window is None or hours.weekdays or days.interval > 1:
        return found
    if _every_day(days):
        # "every day between 10 and 6 every 2 hours": the window's hours come every day already;
        # the words are the repetition's, not the reminder's.
        both = replace(hours, count=hours.count or days.count, until=hours.until or days.until)
        return RecurrenceMatch(both, found.spans + more.spans)
    if days.freq != "WEEKLY" or not days.weekdays:
        return found
    both = replace(
        hours, weekdays=days.weekdays, count=hours.count or days.count, until=hours.until or days.until
    )
    return RecurrenceMatch(both, found.spans + more.spans)


def _find(text: str, *, timezone: str, now_local: datetime, language: str) -> RecurrenceMatch | None:
    for table in (_HE_PATTERNS, _EN_PATTERNS):
        for kind, pattern in table:
            match = pattern.search(text)
            if match is None:
                continue
            recurrence = _from_match(kind, match, timezone)
            if recurrence is None:
                continue
            spans = [match.span()]
            masked = _blanked(text, match.span())
            if recurrence.freq == "WEEKLY" and not recurrence.weekdays:
                # "every 2 weeks on friday": the weekday said beside it is the repetition's.
                day = _ON_WEEKDAY.search(masked)
                if day is not None:
                    word = (day.group("en") or day.group("he")).lower()
                    weekday = EN_WEEKDAY_WORDS.get(word, HE_WEEKDAY_WORDS.get(word))
                    if weekday is not None:
                        recurrence = replace(recurrence, weekdays=(weekday,))
                        spans.append(day.span())
                        masked = _blanked(masked, day.span())
            if recurrence.freq == "MONTHLY" and recurrence.month_day is None and kind == "every_unit":
                # "every month to pay rent on the 1st": the day said beside it is the repetition's.
                day_of_month = _ON_MONTH_DAY.search(masked) or _HE_DAY_AFTER_MONTH.match(masked, match.end())
                if day_of_month is not None:
                    words = day_of_month.groupdict()
                    said = month_day(words.get("en") or words["he"])
                    if 1 <= said <= 31:
                        recurrence = replace(recurrence, month_day=said)
                        spans.append(day_of_month.span())
                        masked = _blanked(masked, day_of_month.span())
            excepted = _EXCEPT_DAYS.search(masked)
            if excepted is not None:
                # "every day except saturday", "כל יום חוץ משבת": those days are left out, never
                # dropped from the words (the reminder would fire on them).
                kept = _without_days(recurrence, excepted, timezone)
                if kept is None:
                    continue
                recurrence = kept
                spans.append(excepted.span())
                masked = _blanked(masked, excepted.span())
            window = (
                None
                if recurrence.needs_time_of_day
                else find_window(masked, recurrence.freq, recurrence.interval)
            )
            if window is not None:  # "every hour between 9am and 5pm"
                recurrence = replace(recurrence, window=window[0])
                spans.append(window[1])
                masked = _blanked(masked, window[1])
            end = find_end(masked, now_local=now_local, language=language)
            recurrence = replace(recurrence, count=end.count, until=end.until, until_at=end.until_at)
            return RecurrenceMatch(recurrence=recurrence, spans=tuple(spans) + end.spans)
    return None


def _every_day(recurrence: Recurrence) -> bool:
    """ "every day", "daily", "כל יום", whatever its end."""
    return replace(recurrence, count=None, until=None, until_at=None) == Recurrence("DAILY")


def _blanked(text: str, span: tuple[int, int]) -> str:
    return text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


#: Days left out of a daily or weekly repetition ("every day at 7 except sunday").
_EXCEPT_DAYS = re.compile(
    r"(?:(?<=\s)|^),?\s*(?:(?:except|but\s+not|apart\s+from|other\s+than|excluding|not\s+on)\s+(?:on\s+)?(?:the\s+)?"
    rf"(?P<en>weekends?|{_EN_DAY}s?(?:\s*(?:,|and|or|&)\s*{_EN_DAY}s?)*)\b"
    r"|(?:חוץ\s+מ-?|מלבד\s+|פרט\s+ל-?|בלי\s+|לא\s+ב-?)(?:יום\s+|ימי\s+|ה)?"
    rf"(?P<he>סופ\"?ש|סוף\s+השבוע|סופי\s+שבוע|{_HE_DAY}(?:\s*(?:,|ו)\s*(?:יום\s+)?{_HE_DAY})*)(?=\s|$|[,.!?]))",
    _FLAGS,
)


def _without_days(recurrence: Recurrence, excepted: re.Match[str], timezone: str) -> Recurrence | None:
    """The repetition without the days `excepted` names; None when that leaves no day, or the
    repetition is not by days (every 2 days, monthly)."""
    words = excepted.group("en") or excepted.group("he")
    if re.match(r"weekend|סופ|סוף", words, re.I):
        out: tuple[int, ...] = weekend(timezone)
    else:
        table = HE_WEEKDAY_WORDS if excepted.group("he") else EN_WEEKDAY_WORDS
        out = weekday_list(words, table)
    if recurrence.interval != 1 or not out:
        return None
    if recurrence.freq == "DAILY":
        days: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)
    elif recurrence.freq == "WEEKLY" and recurrence.weekdays:
        days = recurrence.weekdays
    else:
        return None
    left = tuple(d for d in days if d not in out)
    return replace(recurrence, freq="WEEKLY", weekdays=left) if left else None
