"""A repetition stored as a series, and its occurrences.

A series is RFC 5545 text, parsed and evaluated by python-dateutil's `rrule`:

    DTSTART:20261124T080000
    RRULE:FREQ=WEEKLY;BYDAY=MO

A series may skip stretches of days ("skip the gym next week" when its next time is this week):
the reminder keeps them beside its series (`Reminder.skips`, "<start>/<end>,..." in the same local
time, the end excluded), and every walk given them passes the times in them.

`DTSTART` is the first occurrence in the user's local wall-clock time (floating, no zone): the
reminder keeps its IANA zone next to it, so 08:00 stays 08:00 across daylight-saving changes.
`series(rule, first)` builds that text, `next_occurrence` finds the occurrence after an instant,
`occurrences_on` those on some days, `series_end` the instant it ends, `moved` gives the series a new time of day or day. A series is
never materialised: each of these walks it lazily, as far as the answer needs.
"""

from __future__ import annotations

from collections import deque
from datetime import date, datetime, time, timedelta
from itertools import islice
from zoneinfo import ZoneInfo

from dateutil.rrule import rrule, rrulestr

from memo.text.recurrence import WEEKDAY_CODES, Recurrence
from memo.text.recurrence_units import Frequency, Window, in_window_order

_LOCAL = "%Y%m%dT%H%M%S"
#: At most this many stretches ahead a series skips ("skip the gym next week", and again, and
#: again): one more is refused (`TooManySkips`).
MOST_SKIPPED = 30

Span = tuple[datetime, datetime]


def series(rule: str, first: datetime, timezone: str) -> str | None:
    """The stored series of RRULE value `rule` whose first occurrence is the first one at or after
    `first` (aware): "DTSTART:<local>\\nRRULE:<rule>". None when the rule has no occurrence."""
    local = first.astimezone(ZoneInfo(timezone)).replace(tzinfo=None, second=0, microsecond=0)
    # The first occurrence is the first matching day from `first` on, and the interval counts from
    # it: "every other monday", said on a Tuesday, starts next Monday, not in two weeks.
    single = ";".join(p for p in rule.split(";") if not p.startswith("INTERVAL="))
    probe = rrulestr(f"DTSTART:{local:%Y%m%dT%H%M%S}\nRRULE:{single}")
    assert isinstance(probe, rrule)
    start = probe.after(local, inc=True)
    if start is None:
        return None
    return f"DTSTART:{start:%Y%m%dT%H%M%S}\nRRULE:{rule}"


def parse_series(series_text: str) -> rrule:
    parsed = rrulestr(series_text)
    if not isinstance(parsed, rrule):
        raise ValueError("a series is one RRULE")
    return parsed


def skipped_spans(skips: str | None) -> tuple[Span, ...]:
    """The stretches a series skips (`Reminder.skips`: "<start>/<end>,..."), in its local time
    (naive, as its DTSTART), the end excluded."""
    spans = []
    for value in (skips or "").split(","):
        if value:
            start, _, end = value.partition("/")
            spans.append((datetime.strptime(start, _LOCAL), datetime.strptime(end, _LOCAL)))
    return tuple(spans)


def _skips(local: datetime, spans: tuple[Span, ...]) -> bool:
    return any(start <= local < end for start, end in spans)


class TooManySkips(ValueError):
    """The series already skips `MOST_SKIPPED` stretches ahead."""


def with_skipped(skips: str | None, start: datetime, end: datetime, timezone: str, *, since: datetime) -> str:
    """The stretches a series skips (`Reminder.skips`) with every time from `start` to `end` too
    (aware, the end excluded; "skip the gym next week"). Stretches over before `since` (aware: the
    series' next time) are dropped, overlapping ones merged; past `MOST_SKIPPED` stretches it raises
    `TooManySkips`."""
    zone = ZoneInfo(timezone)
    floor = since.astimezone(zone).replace(tzinfo=None)
    new = (start.astimezone(zone).replace(tzinfo=None), end.astimezone(zone).replace(tzinfo=None))
    merged: list[Span] = []
    for first, last in sorted(s for s in (*skipped_spans(skips), new) if s[1] > floor):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    if len(merged) > MOST_SKIPPED:
        raise TooManySkips(f"a series skips at most {MOST_SKIPPED} stretches of days")
    return ",".join(f"{a:{_LOCAL}}/{b:{_LOCAL}}" for a, b in merged)


def is_valid_series(series_text: str) -> bool:
    try:
        parse_series(series_text)
    except (ValueError, TypeError):
        return False
    return True


def first_occurrence(series_text: str, timezone: str) -> datetime:
    start = parse_series(series_text)._dtstart
    return start.replace(tzinfo=ZoneInfo(timezone))


def next_occurrence(
    series_text: str, timezone: str, after: datetime, skips: str | None = None
) -> datetime | None:
    """The first occurrence strictly after `after` (aware), in `timezone`, outside the stretches the
    series skips (`skips`); None when it ended."""
    zone = ZoneInfo(timezone)
    local = after.astimezone(zone).replace(tzinfo=None)
    spans = skipped_spans(skips)
    found = next(
        (t for t in parse_series(series_text).xafter(local, inc=False) if not _skips(t, spans)), None
    )
    return found.replace(tzinfo=zone) if found is not None else None


def occurrences_on(
    series_text: str,
    timezone: str,
    since: datetime,
    first_day: date,
    last_day: date,
    *,
    limit: int,
    skips: str | None = None,
) -> list[datetime]:
    """The occurrences at or after `since` (aware) whose day, in `timezone`, is from `first_day` to
    `last_day`: at most `limit` of them, in order ("what do I have this week?" lists a series on
    each day it comes)."""
    zone = ZoneInfo(timezone)
    start = max(since.astimezone(zone).replace(tzinfo=None), datetime.combine(first_day, time()))
    found: list[datetime] = []
    spans = skipped_spans(skips)
    for local in parse_series(series_text).xafter(start, inc=True):
        if local.date() > last_day or len(found) == limit:
            break
        if not _skips(local, spans):
            found.append(local.replace(tzinfo=zone))
    return found


def first_time(series_text: str, timezone: str, skips: str | None) -> datetime | None:
    """The series' first occurrence outside the stretches it skips (a skipped series moved to a new
    time keeps its skipped days); None when none is left."""
    first = first_occurrence(series_text, timezone)
    if not _skips(first.replace(tzinfo=None), skipped_spans(skips)):
        return first
    return next_occurrence(series_text, timezone, first, skips)


def series_end(series_text: str, timezone: str) -> datetime | None:
    """The instant after which a series with COUNT or UNTIL has no occurrence; None when it never
    ends. Never expands the series: an UNTIL is its end as stored, a COUNT is walked one occurrence
    at a time (the count is bounded when the series is made, `memo.text.recurrence_limits`)."""
    rule = parse_series(series_text)
    zone = ZoneInfo(timezone)
    until: datetime | None = rule._until
    if until is not None:
        return until.replace(tzinfo=zone)
    count: int | None = rule._count
    if count is None:
        return None
    last = deque(islice(rule, count), maxlen=1)  # one occurrence held at a time
    return last[0].replace(tzinfo=zone) if last else None


def rule_part(series_text: str) -> dict[str, str]:
    """The RRULE's NAME=VALUE pairs."""
    line = next((x for x in series_text.splitlines() if x.startswith("RRULE:")), "")
    return dict(pair.split("=", 1) for pair in line.removeprefix("RRULE:").split(";") if "=" in pair)


def default_start(recurrence: Recurrence, now_local: datetime) -> datetime:
    """The first occurrence of an hourly or minutely series that named no time: one interval on;
    within the hours of a day (`Recurrence.window`), from now on (its first hour to come)."""
    if recurrence.window is not None:
        return (now_local + timedelta(minutes=1)).replace(second=0, microsecond=0)
    step = (
        timedelta(hours=recurrence.interval)
        if recurrence.freq == "HOURLY"
        else timedelta(minutes=recurrence.interval)
    )
    return (now_local + step).replace(second=0, microsecond=0)


def start_of(day: date, at: time, timezone: str) -> datetime:
    return datetime.combine(day, at, tzinfo=ZoneInfo(timezone))


def moved(series_text: str, timezone: str, *, now: datetime, day: date | None, at: time | None) -> str | None:
    """The series moved to a new time of day and/or a new day (a weekly series moves to that
    weekday, a monthly one to that day of the month), starting from its next occurrence after
    `now`; None when it has none left."""
    zone = ZoneInfo(timezone)
    parts = rule_part(series_text)
    if "BYHOUR" in parts:
        return _window_moved(parts, timezone, now=now, day=day, at=at)
    current = next_occurrence(series_text, timezone, now) or first_occurrence(series_text, timezone)
    local = current.astimezone(zone)
    new_time = at or local.time()
    one_weekday = parts.get("FREQ") == "WEEKLY" and len(parts.get("BYDAY", "").split(",")) <= 1
    if day is not None and at is not None and not (one_weekday or parts.get("FREQ") == "MONTHLY"):
        # "move the vitamins on wednesday to 9am" of a daily series (or one on several weekdays):
        # the day names one of its times, the whole series moves to 09:00 from its next time.
        day = None
    if day is not None:
        if one_weekday:
            parts["BYDAY"] = WEEKDAY_CODES[day.weekday()]
        if parts.get("FREQ") == "MONTHLY":
            parts["BYMONTHDAY"] = str(day.day)
        candidate = datetime.combine(day, new_time, tzinfo=zone)
    else:
        candidate = datetime.combine(local.date(), new_time, tzinfo=zone)
    if candidate <= now:
        candidate = datetime.combine(now.astimezone(zone).date(), new_time, tzinfo=zone)
        if candidate <= now:
            candidate += timedelta(days=1)
    rule = ";".join(f"{k}={v}" for k, v in parts.items())
    return series(rule, candidate, timezone)


def _window_moved(
    parts: dict[str, str], timezone: str, *, now: datetime, day: date | None, at: time | None
) -> str | None:
    """A series within the hours of each day ("every hour from 9 to 5") moved to a time: its hours
    move with its first one ("to 10": 10 to 18, the hours past the day's end dropped), from its
    next time on (or from `day`)."""
    hours = [int(h) for h in parts["BYHOUR"].split(",")]
    if at is not None:
        times = _day_times(parts)
        shift = at.hour - times[0] // 60
        if times != sorted(times):  # over midnight: its hours stay one stretch
            parts["BYHOUR"] = ",".join(str(h) for h in sorted({(h + shift) % 24 for h in hours}))
        else:
            parts["BYHOUR"] = ",".join(str(h + shift) for h in hours if 0 <= h + shift <= 23)
        if "," not in parts.get("BYMINUTE", ","):  # one minute of each hour: the one said
            parts["BYMINUTE"] = str(at.minute)
    zone = ZoneInfo(timezone)
    start = now + timedelta(minutes=1)
    if day is not None:
        start = max(start, datetime.combine(day, time(), tzinfo=zone))
    return series(";".join(f"{k}={v}" for k, v in parts.items()), start, timezone)


def within_its_hours(series_text: str, rule: str) -> str:
    """A new repetition within a day ("every 2 hours") of a series within the hours of each day
    keeps those hours and days: "every hour from 9 to 5" made "every 2 hours" is 09:00, 11:00 ...
    17:00. Any other new rule is as said."""
    old, new = rule_part(series_text), dict(p.split("=", 1) for p in rule.split(";") if "=" in p)
    freq = new.get("FREQ", "")
    if "BYHOUR" not in old or "BYHOUR" in new or freq not in ("HOURLY", "MINUTELY"):
        return rule
    times = _day_times(old)
    first, last = (time(t // 60, t % 60) for t in (times[0], times[-1]))
    if freq == "MINUTELY" and last.minute:
        last = time(min(last.hour + 1, 23))  # the minutes fill each hour up to the one it ends in
    window = Window(first, last)
    kept = [f"FREQ={old['FREQ']}"] + ([f"BYDAY={old['BYDAY']}"] if "BYDAY" in old else [])
    ends = [f"{k}={new[k]}" for k in ("COUNT", "UNTIL") if k in new]
    hourly: Frequency = "HOURLY" if freq == "HOURLY" else "MINUTELY"
    return ";".join(kept + window.by_parts(hourly, int(new.get("INTERVAL", "1"))) + ends)


def with_hours(series_text: str, start: time, end: time) -> str | None:
    """A series within the hours of each day moved to the hours from `start` to `end`, as often as
    it came and on its days: "every 2 hours from 9 to 5" made "10 to 6" is 10:00, 12:00 ... 18:00.
    None for a series not within hours of a day ("every day at 9") or hours no step fits."""
    old = rule_part(series_text)
    if "BYHOUR" not in old or start == end:
        return None
    minutes = sorted(int(m) for m in old.get("BYMINUTE", "0").split(","))
    times = _day_times(old)
    freq: Frequency = "MINUTELY" if len(minutes) > 1 else "HOURLY"
    if freq == "MINUTELY":
        interval = minutes[1] - minutes[0]
    else:
        interval = max(1, ((times[1] - times[0]) % (24 * 60)) // 60) if len(times) > 1 else 1
    if freq == "MINUTELY" and (start.minute or end.minute):
        return None  # minutes within hours are whole hours' (one cron)
    kept = [f"FREQ={old['FREQ']}"] + ([f"BYDAY={old['BYDAY']}"] if "BYDAY" in old else [])
    ends = [f"{k}={old[k]}" for k in ("COUNT", "UNTIL") if k in old]
    return ";".join(kept + Window(start, end).by_parts(freq, interval) + ends)


def opens_at(series_text: str) -> time | None:
    """The first time of the day of a series within the hours of each day; None for any other."""
    parts = rule_part(series_text)
    if "BYHOUR" not in parts:
        return None
    first = _day_times(parts)[0]
    return time(first // 60, first % 60)


def _day_times(parts: dict[str, str]) -> list[int]:
    """The times of each day of a series within hours (minutes of the day), its window's first one
    first ("from 10pm to 2am": 22:00 … 02:00)."""
    hours = [int(h) for h in parts["BYHOUR"].split(",")]
    return in_window_order(hours, [int(m) for m in parts.get("BYMINUTE", "0").split(",")])


def rezoned(series_text: str, timezone: str, zone: str, *, now: datetime, created_at: datetime) -> str:
    """A series moving from `timezone` to `zone` at `now`, its clock time kept. One set to start as
    soon as it could ("every day at 9" said at 10:00: from tomorrow) starts from today in `zone`
    when today there is still before its first day ("I'm in New York": 09:00 New York time comes
    today); any other series, and one counted in times (COUNT), is as it was."""
    parts = rule_part(series_text)
    first = first_occurrence(series_text, timezone)
    made = created_at.astimezone(ZoneInfo(timezone)).date()
    today = now.astimezone(ZoneInfo(zone)).date()
    if "COUNT" in parts or not today < first.date() <= made + timedelta(days=1):
        return series_text
    rule = ";".join(f"{k}={v}" for k, v in parts.items())
    return series(rule, datetime.combine(today, first.time(), tzinfo=ZoneInfo(zone)), zone) or series_text


def ended_on(series_text: str, last_day: date) -> str:
    """The series ending with `last_day` ("stop the vitamins after friday"): its rule, its start and
    its times kept, UNTIL the end of that day (local, as its DTSTART); one that ends by then already
    is as it was."""
    ends = series_end(series_text, "UTC")  # local wall clock, as its DTSTART (the zone is no matter)
    if ends is not None and ends.date() <= last_day:
        return series_text
    start = next(x for x in series_text.splitlines() if x.startswith("DTSTART:"))
    kept = [f"{k}={v}" for k, v in rule_part(series_text).items() if k not in ("COUNT", "UNTIL")]
    return f"{start}\nRRULE:{';'.join([*kept, f'UNTIL={last_day:%Y%m%d}T235959'])}"
