"""Find and resolve the date/time expression inside a message, in the user's timezone.

`extract_when` finds the day part ("tomorrow", "on friday", "May 3", "מחר", "ביום שלישי", "3/5"),
the time-of-day part ("at 5pm", "17:00", "ב-17:00", "בשעה 5 בערב", "noon") and relative offsets
("in 2 hours", "בעוד שעתיים"), resolves them against `now` in the user's IANA timezone, and returns
the message with those fragments removed (the reminder's title). Each part is read by its own
module of `memo.planner.when` (`days`, `clock`, `offsets`); this one combines them, a step at a
time, because dateparser alone drops parts of compound phrases such as "מחר ב-17:00".

Recurrence ("every day at 8am", "כל יום ראשון") is found first by `memo.text.recurrence` and
returned as an RRULE value with the first occurrence as `when`. A time that does not exist
("at 25:00") or a day in the past ("yesterday") is removed from the title and reported as
`problem`, so the reminder asks instead of guessing.

Rules a user would expect:
- a time with no day is today, or tomorrow if that time has already passed;
- an hour without am/pm is the next time it comes within waking hours (07:00 to midnight) on its
  day: "tomorrow at 3:30" is 15:30, "tomorrow at 9" 09:00, "today at 9" at 10:00 is 21:00;
- a time the clocks skip does not exist (the problem "invalid_time"); in the hour they repeat, the
  first time is meant (summer time); "in 90 minutes" is real minutes;
- a part of the day alone ("in the morning", "בערב") is its default time, the next one to come;
- "on the 1st" is the next 1st of a month;
- a day with no time is reported as date-only (`has_time=False`), so a reminder can ask for it,
  except parts of the day that name a time ("tonight" 20:00, "tomorrow morning" 09:00).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from memo.planner.when import attributive, clock, day_phrases, days, month_phrases, offsets
from memo.planner.when.scan import Scan, tidy
from memo.text.recurrence import Recurrence, find_recurrence
from memo.text.recurrence_limits import RecurrenceLimits, schedule_problem
from memo.text.series import default_start, series

TimeProblem = Literal["invalid_time", "past", "too_long", "unplaced_day", "unschedulable", "over_midnight"]


@dataclass(frozen=True)
class ParsedWhen:
    """The resolved date/time of a message and the message without it.

    `when` is set when a full date and time is known (aware, in the user's timezone);
    `day` is set when only the day is known. `found` says whether any expression was seen.
    """

    when: datetime | None = None
    day: date | None = None
    remainder: str = ""
    fragments: tuple[str, ...] = field(default_factory=tuple)
    explicit_day: bool = False
    #: the RRULE value of a repeating time ("FREQ=WEEKLY;BYDAY=MO"); `when` is its first occurrence
    recurrence: str | None = None
    #: a time that does not exist ("at 25:00") or has passed ("yesterday"), or a repetition that ends
    #: past the bound ("every day until 2099", "10000 times"): ask, never guess
    problem: TimeProblem | None = None
    #: a time of day was named ("at 6pm"), and a day ("tomorrow", "on friday", "in 2 days")
    named_time: bool = False
    #: the time of day as said, before a passed morning hour became its evening ("HH:MM")
    said_time: str | None = None
    #: the hour was said without am/pm and is a morning hour ("at 9", "9:30"): 12 hours later is
    #: the same words ("move it to 9" at noon, for today's reminder, is 21:00)
    either_half: bool = False
    #: "15 minutes before my 3pm meeting": `when` is 14:45 and this is the time it is before ("15:00")
    lead_for: str | None = None
    #: "next tuesday" said a day or two before it: that Tuesday (the day), or the one a week later?
    #: People mean both; the day is the reading, and it is shown to be confirmed.
    near_next: bool = False

    @property
    def has_time(self) -> bool:
        return self.when is not None

    @property
    def found(self) -> bool:
        return (
            self.when is not None
            or self.day is not None
            or self.recurrence is not None
            or self.problem is not None
        )

    def change(self) -> dict[str, object]:
        """What a move changes: {"when"} for a day and a time, {"time": "HH:MM"} for a time alone
        (the reminder keeps its day), {"day"} for a day alone (it keeps its time of day), and
        {"when", "recurrence"} for a repeating time ("every sunday at 10": it repeats from then on),
        and {"recurrence"} for a repetition with no time of day ("to mondays": at its own time)."""
        if self.when is not None and self.recurrence is not None:
            return {"when": self.when.isoformat(), "recurrence": self.recurrence}
        if self.when is not None:
            if self.named_time and not self.explicit_day:
                if self.either_half and self.said_time is not None:
                    # Which half is decided against the reminder's own day (`eitherHalf`), not today.
                    return {"time": self.said_time, "eitherHalf": True}
                return {"time": f"{self.when:%H:%M}"}
            return {"when": self.when.isoformat()}
        if self.recurrence is not None:
            # "move the plants to mondays": the new repetition, each at the reminder's own time of day
            return {"recurrence": self.recurrence}
        if self.day is not None:
            return {"day": self.day.isoformat()}
        return {}


@dataclass
class _Reading:
    """What has been read of the message so far, step by step (`extract_when`)."""

    scan: Scan
    now_local: datetime
    default_day: date | None
    problem: TimeProblem | None = None
    repeat: Recurrence | None = None
    #: "in 2 hours": the amount, and whether it names an instant (minutes or hours) or a day
    offset: tuple[timedelta, bool] | None = None
    before: re.Match[str] | None = None
    lead: re.Match[str] | None = None
    day: date | None = None
    named_day: bool = False
    near_next: bool = False
    #: the weekday named is today's, so `day` is a week ahead ("saturday night" said on a Saturday)
    same_weekday: bool = False
    part: str | None = None
    said: clock.SaidTime | None = None
    hour: int | None = None
    when: datetime | None = None
    lead_for: str | None = None
    rule: str | None = None
    #: a day said in several words ("a week from friday"), read before anything else of the day
    phrase: day_phrases.DayPhrase | None = None

    @property
    def today(self) -> date:
        return self.now_local.date()

    def flag(self, problem: TimeProblem) -> None:
        """Report `problem`, unless one was already found (the first one is asked about)."""
        self.problem = self.problem or problem


def extract_when(
    text: str,
    *,
    now: datetime,
    timezone: str,
    language: str = "en",
    default_day: date | None = None,
    limits: RecurrenceLimits | None = None,
) -> ParsedWhen:
    """Find the date/time in `text`, resolved in `timezone` relative to `now` (aware).

    `default_day` is the day a bare time belongs to (e.g. the reminder's day already known);
    without it a bare time is today, or the next occurrence if already past. A repetition whose
    end is past `limits` is reported as the problem "too_long", and no rule is returned.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    hidden, words = attributive.owned(text)
    if words:
        # "prepare for friday's exam on thursday": the owner's day is the title's when the rest
        # says a day of its own; else it is the day ("move tomorrow's vitamins to 10").
        parsed = _read(hidden, now, timezone, language, default_day, limits)
        if parsed.explicit_day:
            return replace(parsed, remainder=attributive.restored(parsed.remainder, words))
        text = attributive.unowned(text)
    hidden, words = attributive.held(text)
    if words:
        # "prepare for the 5pm meeting at 3pm": the time that names the meeting stays in the title
        # when the rest says a time of its own.
        parsed = _read(hidden, now, timezone, language, default_day, limits)
        if parsed.fragments:
            return replace(parsed, remainder=attributive.restored(parsed.remainder, words))
    return _read(text, now, timezone, language, default_day, limits)


def _read(
    text: str,
    now: datetime,
    timezone: str,
    language: str,
    default_day: date | None,
    limits: RecurrenceLimits | None,
) -> ParsedWhen:
    reading = _Reading(Scan(days.hebrew_dotted_times(text)), now.astimezone(ZoneInfo(timezone)), default_day)
    _take_repetition(reading, timezone=timezone, language=language, limits=limits or RecurrenceLimits())
    # Before the amounts of time ("monday in two weeks" is a Monday, not two weeks from today) and
    # the days past ("the last friday of the month" is to come).
    reading.phrase = (
        None if reading.repeat is not None else _day_phrase(reading, timezone=timezone, language=language)
    )
    _take_impossible(reading)
    _take_offset(reading)
    _take_day(reading, timezone=timezone, language=language)
    _take_time_of_day(reading)
    _compose(reading)
    _take_lead(reading)
    _first_repetition(reading, timezone)
    return _result(reading)


def _take_repetition(reading: _Reading, *, timezone: str, language: str, limits: RecurrenceLimits) -> None:
    """ "every day", "כל יום ראשון": the repetition, and the part of the day it names; one that ends
    past the bound, or that no one schedule can say, is a problem (its words are still no part of
    the title)."""
    found = find_recurrence(
        reading.scan.text, timezone=timezone, now_local=reading.now_local, language=language
    )
    if found is None:
        return
    reading.repeat = found.recurrence
    reading.part = found.recurrence.part
    allowed = limits.allows(found.recurrence, reading.today)
    problem = schedule_problem(found.recurrence) if allowed else "too_long"
    if problem is not None:
        reading.flag(problem)  # "until 2099", "every 5 months", "from 10pm to 2am on weekdays": asked
    for start, end in sorted(found.spans, reverse=True):
        reading.scan.take_span(start, end)


def _take_impossible(reading: _Reading) -> None:
    """What cannot be a reminder's time: a time that does not exist, a day that has passed."""
    if clock.take_invalid_time(reading.scan):
        reading.flag("invalid_time")
    if days.take_past_day(reading.scan):
        reading.flag("past")


def _take_offset(reading: _Reading) -> None:
    """ "in 2 hours", "בעוד שעתיים"; and, for later, "a week before" (a day named, less that) and "15
    minutes before" (a time named, less that), each taken only when what it counts from is found."""
    reading.offset = offsets.take_offset(reading.scan)
    reading.before = offsets.find_before(reading.scan.text)
    reading.lead = offsets.find_lead(reading.scan.text)


def _take_day(reading: _Reading, *, timezone: str, language: str) -> None:
    """The day named (a phrase of several words first: "a week from friday", "the 1st of next month"),
    counted back by "a week before" when said; a day no calendar places ("on christmas") is asked."""
    repeating = reading.repeat is not None
    phrase = reading.phrase
    if phrase is not None and phrase.invalid:
        reading.flag("invalid_time")
    if phrase is not None and phrase.day is not None:
        if phrase.day < reading.today:
            reading.flag("past")
        found = days.FoundDay(phrase.day)
    else:
        found = days.take_day(
            reading.scan,
            now_local=reading.now_local,
            language=language,
            timezone=timezone,
            repeating=repeating,
        )
    if (
        found.day is None
        and reading.offset is None
        and not repeating
        and day_phrases.take_unplaced(reading.scan)
    ):
        reading.flag("unplaced_day")
    if found.invalid:
        reading.flag("invalid_time")
    reading.day, reading.near_next, reading.same_weekday = found.day, found.near_next, found.same_weekday
    if found.tonight:
        reading.part = "tonight"
    if reading.before is not None and reading.day is not None:
        # ("a week before my birthday": no day to count from, the words stay in the title.)
        reading.scan.take(reading.before)
        reading.day = offsets.counted_back(reading.day, reading.before)
        if reading.day < reading.today:
            reading.flag("past")
    reading.named_day = reading.day is not None


def _day_phrase(reading: _Reading, *, timezone: str, language: str) -> day_phrases.DayPhrase | None:
    """A day said in several words, taken out of the scan; None when there is none, or when another
    day is named besides it ("tomorrow ... for the first of the month": "tomorrow" is the day, the
    rest is the title's)."""
    probe = Scan(reading.scan.text, list(reading.scan.fragments))
    first = day_phrases.first_weekday(timezone, hebrew=language == "he")
    phrase = month_phrases.take_month_phrase(probe, reading.today) or day_phrases.take_day_phrase(
        probe, reading.today, first
    )
    if phrase.day is None and not phrase.invalid:
        return None
    besides = days.take_day(
        Scan(probe.text), now_local=reading.now_local, language=language, timezone=timezone, repeating=False
    )
    if besides.day is not None or besides.invalid:
        return None
    reading.scan = probe  # the phrase's words, taken out
    return phrase


_NIGHT_PARTS = frozenset({"tonight", "night", "evening"})


def _take_time_of_day(reading: _Reading) -> None:
    """The part of the day, then the time of day (a bare number right before a part of the day is
    its hour: "8 בבוקר", "7 in the evening"), in the half of the day its words say."""
    found_part = clock.take_part(
        reading.scan, day_known=reading.day is not None or reading.repeat is not None
    )
    if found_part is not None:
        reading.part = found_part.part
        if found_part.this_part and reading.day is None:
            reading.day = reading.today  # "this evening"
    said = clock.take_time(reading.scan)
    if said is None and found_part is not None and found_part.bare_hour is not None:
        said = clock.take_bare_hour(reading.scan, found_part.bare_hour)
    if said is not None and not 0 <= said.hour <= 23:
        said = None
        reading.flag("invalid_time")
    if said is not None and said.hour == 12 and not said.explicit_ampm and reading.part in _NIGHT_PARTS:
        said = clock.SaidTime(0, said.minute, True, False, midnight=True)  # "tonight at 12": midnight
    reading.said = said
    if said is not None:
        reading.hour = clock.in_its_half(said, part=reading.part, text=reading.scan.text)
    elif reading.part is not None:
        reading.hour = clock.part_default(reading.part)


def _compose(reading: _Reading) -> None:
    """The instant: now plus an offset in minutes or hours, or the time of day on its day."""
    if reading.offset is not None and reading.offset[1]:
        # An offset is an instant; a stray hour next to it ("in 2 hours at 5") is ignored.
        reading.when = _shifted(reading.now_local, reading.offset[0])
        return
    if reading.offset is not None:
        reading.day = (reading.now_local + reading.offset[0]).date()
    if reading.hour is None:
        return
    minute = reading.said.minute if reading.said is not None else 0
    if reading.said is not None and reading.said.midnight and (reading.day or reading.default_day):
        # "friday at midnight", "tonight at midnight": the end of the day named
        reading.day = (reading.day or reading.default_day or reading.today) + timedelta(days=1)
    base_day = reading.day or reading.default_day or reading.today
    zone = reading.now_local.tzinfo
    when = datetime.combine(base_day, time(reading.hour, minute), tzinfo=zone)
    if reading.same_weekday and reading.part is not None and reading.repeat is None:
        # "saturday night" said on a Saturday before the night: tonight, not a week later
        tonight = when - timedelta(weeks=1)
        when = when if _passed(tonight, reading.now_local) else tonight
    if reading.repeat is None and _passed(when, reading.now_local):
        if reading.day is None and reading.default_day is None:
            when = _next_to_come(reading, when)
        elif reading.named_day:
            later = _later_half(reading, when)
            if later is None:
                reading.flag("past")  # "today at 9am" at 10:00
            when = later or when
    if reading.repeat is None and not _exists(when):
        reading.flag("invalid_time")  # the hour a change to summer time skips
    reading.when = when
    reading.day = None


def _passed(when: datetime, now: datetime) -> bool:
    """Whether `when` is not after `now`, as instants (the wall clocks may be either side of a change
    of the clock)."""
    return when.astimezone(UTC) <= now.astimezone(UTC)


def _shifted(when: datetime, delta: timedelta) -> datetime:
    """`when` moved by `delta` of real time (across a change of the clock, the wall clock moves by more
    or less), in its own timezone."""
    return (when.astimezone(UTC) + delta).astimezone(when.tzinfo)


def _exists(when: datetime) -> bool:
    """Whether the wall-clock time of `when` happens in its timezone: not in the hour skipped when the
    clocks go forward. In the hour repeated when they go back, `when` is its first occurrence (fold 0,
    summer time)."""
    return when.astimezone(UTC).astimezone(when.tzinfo).replace(tzinfo=None) == when.replace(tzinfo=None)


def _later_half(reading: _Reading, when: datetime) -> datetime | None:
    """A morning hour said without am/pm that has passed on its day is that day's evening, while it is
    still to come ("today at 9" at 10:00 is 21:00); None when no reading of it is to come."""
    said = reading.said
    if said is None or said.explicit_ampm or reading.part is not None or when.hour >= 12:
        return None
    later = when + timedelta(hours=12)
    return None if _passed(later, reading.now_local) else later


def _next_to_come(reading: _Reading, when: datetime) -> datetime:
    """A time with no day that has passed today: its evening when still to come ("at 9" at noon is
    21:00, unless am/pm or a part of the day was said), else tomorrow."""
    return _later_half(reading, when) or when + timedelta(days=1)


def _take_lead(reading: _Reading) -> None:
    """ "15 minutes before my 3pm meeting": 14:45, and the time it is before."""
    lead, when = reading.lead, reading.when
    if (
        lead is None
        or when is None
        or reading.said is None
        or reading.offset is not None
        or reading.repeat is not None
    ):
        return
    reading.scan.take(lead)
    reading.lead_for = when.strftime("%H:%M")
    reading.when = _shifted(when, -offsets.lead_delta(lead))
    if _passed(reading.when, reading.now_local):
        reading.flag("past")  # "10 minutes before 3pm" at 14:55


def _first_repetition(reading: _Reading, timezone: str) -> None:
    """A repetition starts at its first occurrence from now (or from the day named)."""
    repeat = reading.repeat
    if repeat is None or reading.problem in ("too_long", "unschedulable", "over_midnight"):
        return
    reading.rule = repeat.rule
    if reading.when is None and not repeat.needs_time_of_day:
        reading.when = default_start(repeat, reading.now_local)
    if reading.when is not None:
        when = reading.when
        first_from = when if when > reading.now_local else when + timedelta(days=1)
        text_series = series(repeat.rule, first_from, timezone)
        if text_series is None:
            reading.flag("past")  # "until" before its first occurrence
            reading.when = None
        else:
            first = datetime.strptime(text_series.split("\n")[0][8:], "%Y%m%dT%H%M%S")
            reading.when = first.replace(tzinfo=reading.now_local.tzinfo)
    if not (repeat.freq == "YEARLY" and reading.when is None):
        reading.day = None  # a yearly one said without its time keeps its day ("every year on march 5")


def _result(reading: _Reading) -> ParsedWhen:
    when, day = reading.when, reading.day
    if reading.problem is not None:
        when, day = None, None
    said, hour = reading.said, reading.hour
    named_time = said is not None
    either_half = (
        said is not None
        and not said.explicit_ampm
        and reading.part is None
        and hour is not None
        and 1 <= hour < 12
    )
    return ParsedWhen(
        when=when,
        day=day if when is None else None,
        remainder=tidy(reading.scan.text),
        fragments=tuple(reading.scan.fragments),
        explicit_day=reading.named_day or reading.offset is not None,
        recurrence=reading.rule,
        problem=reading.problem,
        named_time=named_time,
        said_time=f"{hour:02d}:{said.minute:02d}" if said is not None and hour is not None else None,
        either_half=either_half,
        lead_for=reading.lead_for,
        near_next=reading.near_next and reading.rule is None,
    )


def parse_time_answer(
    text: str, *, now: datetime, timezone: str, language: str, day: date | None
) -> datetime | None:
    """Resolve a short answer ("5pm", "ב-17:00", "17", "tomorrow at 9") to an aware datetime.

    Used when a reminder's time was asked for: a bare time lands on `day` (the day already known)
    unless the answer names its own day.
    """
    parsed = extract_when(
        _PART_ALONE.sub(_part_said, text), now=now, timezone=timezone, language=language, default_day=day
    )
    if parsed.when is not None:
        return parsed.when
    bare = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*", text)
    if not bare or not 0 <= int(bare.group(1)) <= 23:
        return None
    clock_said = f"{bare.group(1)}:{bare.group(2)}" if bare.group(2) else bare.group(1)
    return extract_when(f"at {clock_said}", now=now, timezone=timezone, language="en", default_day=day).when


#: "morning", "the evening", "ערב": a part of the day said alone as the answer to "what time?".
_PART_ALONE = re.compile(
    r"^\s*(?:the\s+)?(?P<en>morning|afternoon|evening|night)\s*[.!]?\s*$|^\s*(?P<he>בוקר|ערב|צהריים|צהרים|לילה)\s*[.!]?\s*$",
    re.I,
)


def _part_said(found: re.Match[str]) -> str:
    """The part of the day as the time parser reads it: "in the morning", "at night", "בערב"."""
    if found.group("he"):
        return "ב" + found.group("he")
    part = found.group("en").lower()
    return "at night" if part == "night" else f"in the {part}"
