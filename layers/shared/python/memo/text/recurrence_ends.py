"""The end of a repetition: "10 times", "for 3 weeks", "until friday", "10 פעמים", "למשך שבועיים",
"עד יום שישי": a count of occurrences or the last day (the RRULE's COUNT or UNTIL), found in what is
left of the message once the repetition itself is taken out (`memo.text.recurrence`)."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, time

from memo.text.months import MONTH_NUMBERS, month_names

_FLAGS = re.IGNORECASE
_HE_START = r"(?:(?<=\s)|^)"
_EN_COUNT_WORDS = {"other": 2, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twelve": 12}
#: "כל שמונה שעות", "כל שלושה ימים": Hebrew counts in words (both genders), two to twelve.
HE_COUNT_WORDS = {
    "שתי": 2, "שני": 2, "שלוש": 3, "שלושה": 3, "ארבע": 4, "ארבעה": 4, "חמש": 5, "חמישה": 5,
    "שש": 6, "שישה": 6, "שבע": 7, "שבעה": 7, "שמונה": 8, "תשע": 9, "תשעה": 9, "עשר": 10, "עשרה": 10,
    "אחת עשרה": 11, "אחד עשר": 11, "שתים עשרה": 12, "שנים עשר": 12,
}  # fmt: skip


def count_word(word: str) -> int:
    """ "3", "three", "other" (2): a count said in digits or words."""
    word = " ".join(word.lower().split())
    if word in HE_COUNT_WORDS:
        return HE_COUNT_WORDS[word]
    return _EN_COUNT_WORDS[word] if word in _EN_COUNT_WORDS else int(word)


#: "10 times", "for 3 weeks", "10 פעמים", "למשך שבועיים": a count of occurrences, or a span from
#: today that ends the repetition (read as its UNTIL). Any number is read, so that a count past the
#: bound is refused rather than left in the title.
_EN_NUMBER = r"\d+|two|three|four|five|six|ten|twelve"
_EN_COUNT = re.compile(
    rf"\b(?:for\s+)?(?P<n>{_EN_NUMBER})\s+times\b"
    rf"|\bfor\s+(?:the\s+next\s+)?(?P<n2>{_EN_NUMBER}|a|one)\s+(?P<unit>days?|weeks?|months?|years?)\b",
    _FLAGS,
)
_HE_COUNT = re.compile(
    _HE_START
    + r"(?P<n>\d+)\s+פעמים"
    + r"|"
    + _HE_START
    + r"(?:ל|ב)משך\s+(?:(?P<n2>\d+)\s+(?P<unit>ימים|שבועות|חודשים|שנים)"
    + r"|(?P<dual>יומיים|שבועיים|חודשיים|שנתיים)|(?P<one>יום|שבוע|חודש|שנה))(?=\s|$|[,.!?])"
)
_SPAN_UNITS = {
    "day": "days", "week": "weeks", "month": "months", "year": "years", "ימים": "days", "יום": "days",
    "שבועות": "weeks", "שבוע": "weeks", "חודשים": "months", "חודש": "months", "שנים": "years",
    "שנה": "years",
}  # fmt: skip
_HE_DUAL_SPANS = {"יומיים": "days", "שבועיים": "weeks", "חודשיים": "months", "שנתיים": "years"}
_EN_UNTIL = re.compile(r"\b(?:until|till|through|thru)\s+(?P<what>[^,.;!?]+?)(?=\s*(?:[,.;!?]|$))", _FLAGS)
_HE_UNTIL = re.compile(_HE_START + r"עד\s+(?P<what>[^,.;!?]+?)(?=\s*(?:[,.;!?]|$))")


@dataclass(frozen=True)
class End:
    """How a repetition ends (neither: it does not), and the spans of the words that said it."""

    count: int | None = None
    until: date | None = None
    #: "until 8pm": the time of day on `until` the repetition stops at (else the day's end)
    until_at: time | None = None
    spans: tuple[tuple[int, int], ...] = ()


def find_end(text: str, *, now_local: datetime, language: str) -> End:
    """The end the words of `text` give a repetition: a count or a span first, else "until …"."""
    for pattern in (_EN_COUNT, _HE_COUNT):
        match = pattern.search(text)
        if match is None:
            continue
        ended = _count_or_span(match.groupdict(), now_local.date())
        if ended is not None:
            count, until = ended
            return End(count=count, until=until, spans=(match.span(),))
    return _until(text, now_local=now_local, language=language)


def _until(text: str, *, now_local: datetime, language: str) -> End:
    """ "until friday", "עד יום שישי": the longest run of up to four words after it that is a day to
    come ("the end of next month": five)."""
    for pattern in (_EN_UNTIL, _HE_UNTIL):
        match = pattern.search(text)
        if match is None:
            continue
        words = match.group("what").split()
        # ("the end of next year" is five words; a longer run is never read, by dateparser or not)
        ended = _end_of(" ".join(words[:5]), now_local.date()) if len(words) >= 5 else None
        sizes = [5] if ended is not None else range(min(len(words), 4), 0, -1)
        for size in sizes:
            moment = _until_moment(" ".join(words[:size]), now_local=now_local, language=language)
            if moment is None:
                continue
            until, at = moment.date(), moment.time()
            tail = re.match(
                r"\s*" + r"\s+".join(re.escape(w) for w in words[:size]), text[match.start("what") :]
            )
            end = match.start("what") + (tail.end() if tail else len(match.group("what")))
            return End(until=until, until_at=at if at != time(0) else None, spans=((match.start(), end),))
    return End()


def _count_or_span(groups: dict[str, str | None], today: date) -> tuple[int | None, date | None] | None:
    """ "10 times" is COUNT=10; "for 3 weeks", "למשך שבועיים" end the repetition that many units from
    today (UNTIL, the day included)."""
    if groups.get("n"):
        count = count_word(groups["n"] or "")
        return (count, None) if count > 0 else None
    if groups.get("dual"):
        return None, span_end(today, 2, _HE_DUAL_SPANS[groups["dual"] or ""])
    if groups.get("one"):
        return None, span_end(today, 1, _SPAN_UNITS[groups["one"] or ""])
    word = (groups.get("n2") or "").lower()
    n = 1 if word in ("a", "one") else count_word(word)
    unit = (groups.get("unit") or "").lower()
    unit = _SPAN_UNITS.get(unit, _SPAN_UNITS.get(unit.rstrip("s"), unit))
    return (None, span_end(today, n, unit)) if n > 0 else None


def span_end(today: date, n: int, unit: str) -> date:
    """The day `n` days, weeks, months or years after `today` (the 29th of February, a year on, is the
    28th); a span past the calendar's end is its last day (refused by the bound in any case)."""
    if unit == "days":
        return _capped(today.toordinal() + n)
    if unit == "weeks":
        return _capped(today.toordinal() + 7 * n)
    months = n * 12 if unit == "years" else n
    index = today.year * 12 + today.month - 1 + months
    year, month = divmod(index, 12)
    if year > date.max.year:
        return date.max
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(today.day, last))


def _capped(ordinal: int) -> date:
    return date.fromordinal(min(ordinal, date.max.toordinal()))


#: "the end of december", "the end of the month", "end of next year", "סוף דצמבר", "סוף החודש הבא".
_END_OF = re.compile(
    rf"^(?:the\s+)?end\s+of\s+(?:(?P<month>{month_names(hebrew=False)})|(?:the\s+|this\s+|(?P<next>next)\s+)(?P<unit>month|year))$"
    rf"|^סוף\s+(?:(?P<hmonth>{month_names(hebrew=True)})|ה?(?P<hunit>חודש|שנה)(?P<hnext>\s+(?:הבא|הבאה))?)$",
    _FLAGS,
)


def _end_of(words: str, today: date) -> date | None:
    """The last day "the end of ..." names: a month's (its next occurrence), this or next month's, or
    this or next year's."""
    found = _END_OF.match(words.strip())
    if found is None:
        return None
    named = found.group("month") or found.group("hmonth")
    if named:
        month = MONTH_NUMBERS[named.lower()]
        year = today.year if month >= today.month else today.year + 1
        return date(year, month, calendar.monthrange(year, month)[1])
    later = bool(found.group("next") or found.group("hnext"))
    if (found.group("unit") or "").lower() == "year" or found.group("hunit") == "שנה":
        return date(today.year + later, 12, 31)
    index = today.year * 12 + today.month - 1 + later
    year, month = divmod(index, 12)
    return date(year, month + 1, calendar.monthrange(year, month + 1)[1])


def _until_moment(words: str, *, now_local: datetime, language: str) -> datetime | None:
    """The day (and the time of day, when one is said: "8pm", "8 בערב") the words end on."""
    import dateparser

    ended = _end_of(words, now_local.date())
    if ended is not None:
        return datetime.combine(ended, time(0))
    cleaned = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", words.strip(), flags=_FLAGS)
    cleaned = re.sub(r"^(?:the|next|this|ה?שעה|בשעה)\s+", "", cleaned, flags=_FLAGS)  # "עד השעה 20:00"
    parsed = dateparser.parse(
        cleaned,
        languages=["he", "en"] if language == "he" else ["en", "he"],
        settings={"RELATIVE_BASE": now_local.replace(tzinfo=None), "PREFER_DATES_FROM": "future"},
    )
    if parsed is None or parsed.date() < now_local.date():
        return None
    return parsed
