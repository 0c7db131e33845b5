"""The args of the reminder actions, and the ids that name a part of a repeating reminder.

A reminder id may carry the part of a repeating reminder it means (`scoped_id`): "<id>~occurrence"
(the next time only) or "<id>~series" (all of them); entity resolution writes them when the user
chose, and `split_scoped` reads them back.
"""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AwareDatetime, Field, model_validator

from memo.capabilities.common import Args

#: An RRULE value ("FREQ=WEEKLY;BYDAY=MO"), without DTSTART.
RRULE_VALUE = r"^FREQ=[A-Z]+(?:;[A-Z]+=[A-Z0-9,+-]+)*$"


class CreateReminderArgs(Args):
    title: str = Field(min_length=1)
    when: AwareDatetime
    phone_number_id: str | None = None
    #: an RRULE value ("FREQ=WEEKLY;BYDAY=MO"): the reminder repeats, `when` is its first time
    recurrence: str | None = Field(default=None, pattern=RRULE_VALUE)


class ListRemindersArgs(Args):
    day: date | None = None
    #: the last day shown, with `day` the first ("this week"); None: `day` alone
    until: date | None = None
    #: words of the titles shown ("when is the rent reminder?": "rent"); None: every title
    about: str | None = Field(default=None, min_length=1, max_length=200)
    #: "how many reminders do I have?": the reply says how many
    how_many: bool | None = None
    #: "what's my next reminder?", "my next 3 reminders": only the first of them, in time order
    first: int | None = Field(default=None, ge=1, le=10)

    @model_validator(mode="after")
    def _a_range_has_a_start(self) -> ListRemindersArgs:
        if self.until is not None and (self.day is None or self.until < self.day):
            raise ValueError("a range of days needs its first day, before its last")
        return self


class UpdateReminderArgs(Args):
    reminder_ids: list[str] = Field(min_length=1)
    when: AwareDatetime | None = None
    #: a time of day alone ("HH:MM"): each reminder keeps its day, in its own timezone
    time: str | None = Field(default=None, pattern=r"^(?:[01]\d|2[0-3]):[0-5]\d$")
    #: `time` is a morning hour said without am/pm ("move it to 9"): where it has passed on the
    #: reminder's day, the same hour 12 hours later (today's reminder, at noon: 21:00)
    either_half: bool | None = None
    #: a day alone: each reminder keeps its time of day
    day: date | None = None
    title: str | None = Field(default=None, min_length=1)
    #: an RRULE value: the reminder repeats from `when` on (a one-time reminder becomes a series, a
    #: series gets the new rule); with no `when`, at the reminder's own time of day from now on
    recurrence: str | None = Field(default=None, pattern=RRULE_VALUE)
    #: "push it by an hour" (positive: later): each reminder's own time, moved by this much
    shift_minutes: int | None = Field(default=None, ge=-7 * 24 * 60, le=7 * 24 * 60)
    #: an IANA zone: each series among the reminders keeps its clock time there (the user's zone
    #: changed, `memo.turn.travel`); a one-time reminder keeps its moment. Nothing else with it.
    timezone: str | None = Field(default=None, min_length=1, max_length=64)
    #: "stop the vitamins after friday": a series' last day (its times after it are dropped)
    ends_on: date | None = None
    #: "make it from 10 to 6": the new hours ("HH:MM-HH:MM") of a series within the hours of each
    #: day, as often as it came. Nothing else with it.
    hours: str | None = Field(default=None, pattern=r"^(?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d$")

    @model_validator(mode="after")
    def _something_to_change(self) -> UpdateReminderArgs:
        times = [self.when, self.time or self.day, self.shift_minutes]
        if self.hours is not None:
            if any(t is not None for t in times) or self.recurrence or self.timezone or self.ends_on:
                raise ValueError("a series' hours are changed alone")
            return self
        if self.ends_on is not None:
            if any(t is not None for t in times) or self.title or self.recurrence or self.timezone:
                raise ValueError("a series' last day is changed alone")
            return self
        if self.timezone is not None:
            if any(t is not None for t in times) or self.title is not None or self.recurrence is not None:
                raise ValueError("a zone change moves the series alone")
            try:
                ZoneInfo(self.timezone)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ValueError("an unknown timezone") from exc
            return self
        if all(t is None for t in times) and self.title is None and self.recurrence is None:
            raise ValueError("an update needs a new time, a new repetition or a new title")
        if self.when is not None and (self.time is not None or self.day is not None):
            raise ValueError("a full time replaces the day and the time of day")
        if self.shift_minutes is not None and (self.when or self.time or self.day or self.recurrence):
            raise ValueError("a shift moves the reminder's own time: no new time with it")
        if self.shift_minutes == 0:
            raise ValueError("a shift of no time changes nothing")
        if self.either_half and (self.time is None or self.time >= "12:00"):
            raise ValueError("only a morning time of day can be 12 hours later")
        if self.recurrence is not None and self.when is None and any(t is not None for t in times):
            # With no time at all it keeps each reminder's own time of day; a part of one is no start.
            raise ValueError("a repetition needs its first time (`when`), or none")
        return self


class SnoozeReminderArgs(Args):
    """Again `minutes` from now, or at the time `at` said ("snooze it until thursday")."""

    reminder_id: str = Field(min_length=1)
    minutes: int | None = Field(default=None, ge=1, le=24 * 60)
    at: AwareDatetime | None = None

    @model_validator(mode="after")
    def _one_of_them(self) -> SnoozeReminderArgs:
        if (self.minutes is None) == (self.at is None):
            raise ValueError("a snooze is by minutes or to a time, one of them")
        return self


class DoneReminderArgs(Args):
    reminder_id: str = Field(min_length=1)


class DeleteRemindersArgs(Args):
    reminder_ids: list[str] = Field(min_length=1)
    #: the days a skip names ("skip the gym next week"), the end excluded: a repeating reminder
    #: scoped to its `OCCURRENCE` skips each of its times on them, not only its next one
    skip_from: date | None = None
    skip_until: date | None = None

    @model_validator(mode="after")
    def _days_have_both_ends(self) -> DeleteRemindersArgs:
        if (self.skip_from is None) != (self.skip_until is None):
            raise ValueError("the days of a skip have a first day and an end")
        if self.skip_from is not None and self.skip_until is not None and self.skip_until <= self.skip_from:
            raise ValueError("the days of a skip end after their first day")
        if (
            self.skip_until is not None
            and self.skip_from is not None
            and (self.skip_until - self.skip_from).days > 366
        ):
            raise ValueError("a skip names at most a year of days")
        return self


class DeleteAllRemindersArgs(Args):
    # The reminders "all" meant when the plan was resolved (and approved): a reminder created
    # afterwards is not deleted by an older approval. None: every reminder (no pinned set).
    reminder_ids: list[str] | None = None


#: A reminder id with the part of a repeating reminder it means: "<id>~occurrence" (the next time
#: only) or "<id>~series" (all of them); entity resolution writes them when the user chose.
OCCURRENCE = "occurrence"
SERIES = "series"
_SCOPE_SEPARATOR = "~"


def scoped_id(reminder_id: str, scope: str) -> str:
    return f"{reminder_id}{_SCOPE_SEPARATOR}{scope}"


def split_scoped(value: str) -> tuple[str, str | None]:
    """(reminder id, scope or None)."""
    base, separator, scope = value.rpartition(_SCOPE_SEPARATOR)
    if separator and scope in (OCCURRENCE, SERIES):
        return base, scope
    return value, None
