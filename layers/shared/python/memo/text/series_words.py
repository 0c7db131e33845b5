"""A series in the user's words: "every Monday at 09:00", "every day at 08:00", "every 2 hours",
"כל יום שני ב-09:00", with how it ends (", 5 times", ", until Fri 5 Jun")."""

from __future__ import annotations

from datetime import datetime

from memo.text.language import Language
from memo.text.recurrence import LAST_DAY, WEEKDAY_CODES
from memo.text.recurrence_units import in_window_order
from memo.text.series import parse_series, rule_part

_EN_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_HE_DAY_NAMES = ("שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון")


def describe(series_text: str, language: Language) -> str:
    """ "every Monday at 09:00", "every day at 08:00", "every 2 hours", "כל יום שני ב-09:00"."""
    parts = rule_part(series_text)
    start = parse_series(series_text)._dtstart
    clock = f"{start:%H:%M}"
    at = f" ב-{clock}" if language == "he" else f" at {clock}"
    freq = parts.get("FREQ", "DAILY")
    interval = int(parts.get("INTERVAL", "1"))
    days = [WEEKDAY_CODES.index(c[-2:]) for c in parts.get("BYDAY", "").split(",") if c]
    if "BYHOUR" in parts:
        text = _within_hours(parts, days, language)
    elif freq in ("MINUTELY", "HOURLY"):
        text = _every_few(freq, interval, language)
    elif freq == "DAILY":
        text = _daily(interval, language) + at
    elif freq == "WEEKLY":
        text = _weekly(days or [start.weekday()], interval, language) + at
    elif freq == "MONTHLY" and days:
        text = _month_week(days[0], int(parts["BYDAY"][:-2]), interval, language) + at
    elif freq == "MONTHLY":
        text = _monthly(int(parts.get("BYMONTHDAY", str(start.day))), interval, clock, language)
    elif language == "he":
        every = "כל שנה" if interval == 1 else ("כל שנתיים" if interval == 2 else f"כל {interval} שנים")
        text = f"{every} ב-{start.day}.{start.month} ב-{clock}"
    else:
        every = "every year" if interval == 1 else f"every {interval} years"
        text = f"{every} on {start.day} {start:%b} at {clock}"
    return text + _ending(parts, start.year, language)


def days_words(rule: str, language: Language) -> str | None:
    """A series' days without its time: "every day", "every Monday and Thursday", "כל יום שני"
    (a daily or weekly RRULE, as a change to "mondays" gives it); None for any other rule."""
    parts = rule_part(rule if "RRULE:" in rule else f"RRULE:{rule.removeprefix('RRULE:')}")
    interval = int(parts.get("INTERVAL", "1")) if parts.get("INTERVAL", "1").isdigit() else 1
    days = [WEEKDAY_CODES.index(c[-2:]) for c in parts.get("BYDAY", "").split(",") if c[-2:] in WEEKDAY_CODES]
    if parts.get("FREQ") == "DAILY" and not days:
        return _daily(interval, language)
    if parts.get("FREQ") == "WEEKLY" and days:
        return _weekly(days, interval, language)
    return None


def _every_few(freq: str, interval: int, language: Language) -> str:
    """ "every hour", "every 15 minutes", "כל שעתיים"-style wording of a minutely or hourly series."""
    unit_en = "minutes" if freq == "MINUTELY" else "hours"
    if language == "he":
        if freq == "HOURLY":
            return {1: "כל שעה", 2: "כל שעתיים"}.get(interval, f"כל {interval} שעות")
        return f"כל {interval} דקות"
    return f"every {interval} {unit_en}" if interval > 1 else f"every {unit_en[:-1]}"


def _within_hours(parts: dict[str, str], days: list[int], language: Language) -> str:
    """ "every hour from 09:00 to 17:00", "every 30 minutes from 09:00 to 16:30, every Sunday,
    Monday ...": a repetition within the hours of each day (or of the days said), by its first and
    last time of the day."""
    times = in_window_order(
        [int(h) for h in parts["BYHOUR"].split(",")], [int(m) for m in parts.get("BYMINUTE", "0").split(",")]
    )
    step = (times[1] - times[0]) % (24 * 60) if len(times) > 1 else 24 * 60
    every = (
        _every_few("HOURLY", step // 60, language)
        if step % 60 == 0
        else _every_few("MINUTELY", step, language)
    )
    first, last = (f"{t // 60:02d}:{t % 60:02d}" for t in (times[0], times[-1]))
    text = f"{every} בין {first} ל-{last}" if language == "he" else f"{every} from {first} to {last}"
    return text + (", " + _weekly(days, 1, language) if days else "")


def _daily(interval: int, language: Language) -> str:
    if language == "he":
        return "כל יום" if interval == 1 else f"כל {interval} ימים"
    return "every day" if interval == 1 else f"every {interval} days"


def _weekly(days: list[int], interval: int, language: Language) -> str:
    he = language == "he"
    if sorted(days) in ([0, 1, 2, 3, 4], [0, 1, 2, 3, 6]):
        # The days are said: a workweek is Sunday to Thursday in Israel, Monday to Friday elsewhere.
        sunday_first = 6 in days
        if he:
            return "כל יום חול (א׳–ה׳)" if sunday_first else "כל יום חול (ב׳–ו׳)"
        return "every weekday (Sun–Thu)" if sunday_first else "every weekday (Mon–Fri)"
    if he:
        names = " ו".join(_HE_DAY_NAMES[d] for d in days)
        if interval > 2:
            return f"כל {interval} שבועות ביום {names}"
        return ("כל שבועיים ביום " if interval == 2 else "כל יום ") + names
    names = " and ".join(_EN_DAY_NAMES[d] for d in days)
    if interval > 2:
        return f"every {interval} weeks on {names}"
    return ("every other " if interval == 2 else "every ") + names


def _monthly(day: int, interval: int, clock: str, language: Language) -> str:
    he = language == "he"
    if he:
        every = "כל חודש" if interval == 1 else ("כל חודשיים" if interval == 2 else f"כל {interval} חודשים")
        if day == LAST_DAY:
            return f"ביום האחרון של {every} ב-{clock}"
        return f"ב-{day} ב{every} ב-{clock}"
    every = "every month" if interval == 1 else f"every {interval} months"
    if day == LAST_DAY:
        return f"{every} on the last day at {clock}"
    return f"{every} on the {_ordinal(day)} at {clock}"


_EN_WEEKS = {1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"}
_HE_WEEKS = {1: "הראשון", 2: "השני", 3: "השלישי", 4: "הרביעי", -1: "האחרון"}


def _month_week(day: int, week: int, interval: int, language: Language) -> str:
    """ "every first Monday of the month", "כל יום שני הראשון בחודש"."""
    if language == "he":
        every = "בחודש" if interval == 1 else f"בכל {interval} חודשים"
        return f"כל יום {_HE_DAY_NAMES[day]} {_HE_WEEKS.get(week, str(week))} {every}"
    every = "of the month" if interval == 1 else f"of every {interval} months"
    return f"every {_EN_WEEKS.get(week, _ordinal(week))} {_EN_DAY_NAMES[day]} {every}"


def _ending(parts: dict[str, str], first_year: int, language: Language) -> str:
    """How the series ends: ", 5 times", ", until Fri 5 Jun"; "" when it does not. An end in
    another year than the first occurrence's names its year (", until Fri 5 Jun 2027")."""
    he = language == "he"
    if "COUNT" in parts:
        return f", {parts['COUNT']} פעמים" if he else f", {parts['COUNT']} times"
    if "UNTIL" in parts:
        until = datetime.strptime(parts["UNTIL"][:8], "%Y%m%d").date()
        at = parts["UNTIL"][9:13]
        if at and at != "2359":  # "every 3 hours until 8pm": the time it stops at, that day
            day = f"{until.day}.{until.month}" if he else f"{until:%a %-d %b}"
            return f", עד {day} בשעה {at[:2]}:{at[2:]}" if he else f", until {day}, {at[:2]}:{at[2:]}"
        if until.year != first_year:
            return f", עד {until.day}.{until.month}.{until.year}" if he else f", until {until:%a %-d %b %Y}"
        return f", עד {until.day}.{until.month}" if he else f", until {until:%a %-d %b}"
    return ""


def _ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
