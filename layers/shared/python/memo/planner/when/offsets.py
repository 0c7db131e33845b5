"""Amounts of time counted from a point: "in 2 hours", "בעוד שעתיים" (from now), "a week before
dec 20", "יומיים לפני ה-20" (back from a day), "15 minutes before my 3pm meeting" (back from a time)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from memo.planner.when.month_phrases import months_after
from memo.planner.when.scan import FLAGS, Scan
from memo.text.amounts import HE_AMOUNT_WORDS

EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "ten": 10,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "a couple of": 2,
    "a few": 3,
}

_EN_REL_HALF = re.compile(r"\bin\s+(?:an|one)\s+hour\s+and\s+a\s+half\b", FLAGS)
_EN_REL = re.compile(
    r"\bin\s+(?P<n>\d+(?:\.\d+)?|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|"
    r"a couple of|a few|half an)(?P<half>\s+and\s+a\s+half)?\s*(?P<unit>minutes?|mins?|hours?|hrs?|h|days?|weeks?)"
    r"(?:\b|(?<=h)(?=\d))",
    FLAGS,
)
#: The minutes after hours: "in 1 hour 30 minutes", "in 2 hours and 15 mins", "in 1h 30m", "in 1h30".
_EN_MORE_MINUTES = re.compile(
    r"\s*,?\s*(?:and\s+)?(?P<n>\d{1,2}|five|ten|fifteen|twenty|thirty|forty|forty[- ]five|fifty)\s*"
    r"(?P<unit>minutes?|mins?|m)\b|(?<=h)(?P<bare>[0-5]\d)\b(?![:.]\d|\s*(?:am|pm|a\.m|p\.m))",
    FLAGS,
)
_MINUTE_WORDS = {"five": 5, "ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
HE_AMOUNT = "|".join(sorted(HE_AMOUNT_WORDS, key=len, reverse=True))
_HE_REL = re.compile(
    rf"(?:ב)?עוד\s+(?:(?P<n>\d+|{HE_AMOUNT})\s*(?P<unit>דקות|דק'|דק׳|דקה|דק(?![\u05D0-\u05EA])|שעות|שעה|ימים|יום|שבועות|שבוע)|"
    r"(?P<word>שלושה רבעי שעה|שלושת רבעי שעה|חצי שעה|רבע שעה|שעה וחצי|שעתיים|שעה|דקה|יומיים|יום|שבועיים|שבוע))"
    r"(?P<half>\s+וחצי)?",
)

_BEFORE = re.compile(
    r"\b(?:on\s+)?(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|ten|the)\s+(?P<unit>days?|weeks?|months?)\s+before\b"
    r"(?!\s+(?:yesterday|last)\b)"
    r"|(?:(?<=\s)|^)(?P<he>יום|יומיים|שבוע|שבועיים|חודש|חודשיים|(?P<hn>\d{1,2})\s+(?P<hu>ימים|שבועות|חודשים))"
    r"\s+לפני(?=\s)",
    re.I,
)
_BEFORE_WORDS = {
    "the": 1,  # "the day before dec 12"
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "ten": 10,
}
#: "15 minutes before my 3pm meeting", "רבע שעה לפני הפגישה בשלוש": a lead time before the time of day
#: said (the same durations as "in 15 minutes" / "בעוד רבע שעה"; `_en_rel_delta`, `_he_rel_delta`).
_EN_LEAD = re.compile(
    r"\b(?P<n>\d+|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|a couple of|a few|half an)"
    r"\s*(?P<unit>minutes?|mins?|hours?|hrs?|h)\s+(?:before|ahead\s+of|prior\s+to)\b",
    FLAGS,
)
_HE_LEAD = re.compile(
    rf"(?:(?<=\s)|^)(?:(?P<n>\d+|{HE_AMOUNT})\s*(?P<unit>דקות|דק'|דק׳|דק(?![\u05D0-\u05EA])|שעות)|(?P<word>חצי שעה|רבע שעה|שעה וחצי|שעתיים|שעה))"
    r"\s+(?:לפני|קודם)(?=\s)"
)


def _number(word: str) -> float:
    word = word.lower().strip()
    if word == "half an":
        return 0.5
    if word in EN_NUMBERS:
        return float(EN_NUMBERS[word])
    return float(word)


_HE_DURATIONS = {
    "שלושה רבעי שעה": (timedelta(minutes=45), True),
    "שלושת רבעי שעה": (timedelta(minutes=45), True),
    "חצי שעה": (timedelta(minutes=30), True),
    "רבע שעה": (timedelta(minutes=15), True),
    "שעה וחצי": (timedelta(minutes=90), True),
    "שעתיים": (timedelta(hours=2), True),
    "שעה": (timedelta(hours=1), True),
    "דקה": (timedelta(minutes=1), True),
    "יומיים": (timedelta(days=2), False),
    "יום": (timedelta(days=1), False),
    "שבועיים": (timedelta(weeks=2), False),
    "שבוע": (timedelta(weeks=1), False),
}


def _he_rel_delta(match: re.Match[str]) -> tuple[timedelta, bool]:
    """The amount a Hebrew offset says, and whether it is in minutes or hours (an instant)."""
    amount, instant = _he_amount(match)
    if match.re is _HE_REL and match.group("half") and instant and amount >= timedelta(hours=1):
        amount += timedelta(minutes=30)  # "בעוד שעתיים וחצי", "בעוד 3 שעות וחצי"
    return amount, instant


def _he_amount(match: re.Match[str]) -> tuple[timedelta, bool]:
    word = match.group("word")
    if word:
        return _HE_DURATIONS[word]
    said = match.group("n")
    n = HE_AMOUNT_WORDS[said] if said in HE_AMOUNT_WORDS else int(said)
    unit = match.group("unit")
    if unit.startswith("דק"):
        return timedelta(minutes=n), True
    if unit.startswith("שע"):
        return timedelta(hours=n), True
    if unit in ("ימים", "יום"):
        return timedelta(days=n), False
    return timedelta(weeks=n), False


#: The minutes after Hebrew hours: "בעוד שעה ועשרים דקות", "בעוד שעתיים ורבע", "בעוד 3 שעות ו-10 דקות".
_HE_MORE_MINUTES = re.compile(
    rf"\s+ו-?(?:(?P<quarter>רבע)|(?P<n>\d{{1,2}}|{HE_AMOUNT})\s*(?:דקות|דק'|דק׳|דק))(?=\s|$|[,.!?])"
)


def _en_rel_delta(match: re.Match[str]) -> tuple[timedelta, bool]:
    """The amount an English offset says, and whether it is in minutes or hours (an instant)."""
    n = _number(match.group("n"))
    if match.groupdict().get("half"):
        n += 0.5  # "in two and a half hours"
    unit = match.group("unit").lower()
    if unit.startswith("m"):
        return timedelta(minutes=n), True
    if unit.startswith("h"):
        return timedelta(hours=n), True
    if unit.startswith("d"):
        return timedelta(days=n), False
    return timedelta(weeks=n), False


#: "remind me in 10 to call mom", "call mom in 5": a bare number after "in" is minutes (at most an
#: hour), when nothing follows it but the task's "to" or the end.
_EN_BARE_MINUTES = re.compile(r"\bin\s+(?P<n>[1-9]\d?)(?=\s+to\s|\s*[.!?]*$)", FLAGS)


def take_offset(scan: Scan) -> tuple[timedelta, bool] | None:
    """ "in 2 hours", "בעוד שעתיים": the amount from now, and whether it names an instant (minutes or
    hours) rather than a day; taken out of `scan`."""
    match = _EN_REL_HALF.search(scan.text)
    if match:
        scan.take(match)
        return timedelta(minutes=90), True
    bare = _EN_BARE_MINUTES.search(scan.text)
    if bare is not None and int(bare.group("n")) <= 60:
        scan.take(bare)
        return timedelta(minutes=int(bare.group("n"))), True
    for pattern, conv in ((_HE_REL, _he_rel_delta), (_EN_REL, _en_rel_delta)):
        match = pattern.search(scan.text)
        if match:
            amount, instant = conv(match)
            end = match.end()
            more = (_EN_MORE_MINUTES if pattern is _EN_REL else _HE_MORE_MINUTES).match(scan.text, end)
            whole_hours = instant and amount >= timedelta(hours=1) and not amount % timedelta(hours=1)
            if more is not None and whole_hours and not match.group("half"):
                amount += timedelta(minutes=_more_minutes(more))
                end = more.end()
            scan.take_span(match.start(), end)
            return amount, instant
    return None


def _more_minutes(match: re.Match[str]) -> int:
    if match.re is _HE_MORE_MINUTES:
        said = match.group("n")
        return 15 if match.group("quarter") else HE_AMOUNT_WORDS.get(said) or int(said)
    said = (match.group("n") or match.group("bare")).lower()
    if said.startswith("forty") and said != "forty":
        return 45
    return _MINUTE_WORDS.get(said) or int(said)


def find_before(text: str) -> re.Match[str] | None:
    """ "a week before", "יומיים לפני": days counted back from the day named (taken only with one)."""
    return _BEFORE.search(text)


def counted_back(day: date, match: re.Match[str]) -> date:
    """`day`, less the days, weeks or months a `find_before` match counts back ("3 months before
    june 5" is march 5; a day the month lacks is its last)."""
    if match.group("n"):
        raw = match.group("n").lower()
        n, unit = _BEFORE_WORDS.get(raw) or int(raw), match.group("unit").lower().rstrip("s")
    else:
        word = match.group("he")
        fixed = {"יום": (1, "day"), "יומיים": (2, "day"), "שבוע": (1, "week"), "שבועיים": (2, "week"),
                 "חודש": (1, "month"), "חודשיים": (2, "month")}  # fmt: skip
        n, unit = fixed.get(word) or (
            int(match.group("hn")),
            {"ימים": "day", "שבועות": "week", "חודשים": "month"}[match.group("hu")],
        )
    if unit == "month":
        return months_after(day, -n)
    return day - (timedelta(weeks=n) if unit == "week" else timedelta(days=n))


def find_lead(text: str) -> re.Match[str] | None:
    """ "15 minutes before", "רבע שעה לפני": a lead time before the time of day (taken only with one)."""
    return _EN_LEAD.search(text) or _HE_LEAD.search(text)


def lead_delta(match: re.Match[str]) -> timedelta:
    """The minutes or hours a `find_lead` match counts back."""
    return (_en_rel_delta(match) if match.re is _EN_LEAD else _he_rel_delta(match))[0]
