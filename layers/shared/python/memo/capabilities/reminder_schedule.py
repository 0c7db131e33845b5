"""Schedule handling shared by the reminder actions: the new time a change gives a reminder, the
one-time copy that takes an occurrence's place (a moved or snoozed occurrence of a series), and the
skip of a series' next time, or of its times on some days. They keep, given the turn's undo marks, what "undo" needs: the copy is
cancelled, the series gets its next time back (`memo.capabilities.undo_reverts`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from memo.capabilities.base import ExecutionContext, ReminderScheduler
from memo.capabilities.common import entity_id
from memo.capabilities.items import Reminder, Revision, Tombstone
from memo.capabilities.reminder_args import UpdateReminderArgs
from memo.capabilities.reminder_results import on_days
from memo.capabilities.scheduler import schedule_name_for
from memo.capabilities.store import ItemsRepository
from memo.observability import logger
from memo.text.series import next_occurrence, with_skipped


def new_time(reminder: Reminder, args: UpdateReminderArgs, now: datetime) -> datetime | None:
    """The reminder's new time: a full time, or its own day / time of day with the other part
    changed, in its own timezone (a time alone keeps the day, a day alone keeps the time). An hour
    said without am/pm is in the half of the day nearer the reminder's time ("make that 8:30" of a
    17:00 reminder is 20:30, "move it to 7" of a 09:00 one 07:00), as a bare hour answered just after
    a reminder was set is; a morning hour that has passed on that day is its evening."""
    if args.when is not None:
        return args.when
    if args.shift_minutes is not None:
        return reminder.due_at + timedelta(minutes=args.shift_minutes)
    if args.time is None and args.day is None:
        return None
    zone = ZoneInfo(reminder.timezone)
    local = reminder.due_at.astimezone(zone)
    at = time.fromisoformat(args.time) if args.time is not None else local.time()
    when = datetime.combine(args.day or local.date(), at, tzinfo=zone)
    later = when + timedelta(hours=12)
    nearer = args.day is None and abs(later - reminder.due_at) < abs(when - reminder.due_at)
    return later if args.either_half and (nearer or when <= now < later) else when


class ReminderSchedule:
    """The items repository, the scheduler and the clock the reminder actions work with, and the
    schedule changes several of them make."""

    def __init__(
        self, repository: ItemsRepository, scheduler: ReminderScheduler, clock: Callable[[], datetime]
    ) -> None:
        self._repo = repository
        self._scheduler = scheduler
        self._clock = clock

    def one_time_copy(
        self,
        source: Reminder,
        ctx: ExecutionContext,
        *,
        when: datetime,
        title: str,
        now: datetime,
        undo: Tombstone | None = None,
        snooze_of: str | None = None,
    ) -> Reminder:
        """A one-time reminder at `when` in `source`'s place; with `undo`, that undo cancels it;
        `snooze_of`: the series whose occurrence it stands in for."""
        reminder_id = entity_id(ctx, source.reminder_id)
        name = self._scheduler.schedule(
            reminder_id=reminder_id, thread_id=source.thread_id, at=when, timezone=source.timezone
        )
        single = Reminder(
            reminder_id=reminder_id,
            thread_id=source.thread_id,
            title=title,
            due_at=when,
            timezone=source.timezone,
            schedule_name=name,
            created_at=now,
            phone_number_id=source.phone_number_id,
            snooze_of=snooze_of,
        )
        if not self._repo.put_reminder(single, undo=undo):
            logger.info("REMINDER_CREATE_REPLAYED", extra={"reminderId": reminder_id})
        return single

    def skip(
        self,
        reminder: Reminder,
        now: datetime,
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
    ) -> Reminder | None:
        """The series goes on from the occurrence after its next one, keeping the next time it skips
        for `undo`; a series with nothing left is deleted (tombstoned for that undo).
        Raises `ChangedSince` when the series changed after `unchanged_since` (left as it is)."""
        assert reminder.recurrence is not None
        after = max(reminder.due_at, now)
        following = next_occurrence(reminder.recurrence, reminder.timezone, after, reminder.skips)
        if following is None:
            return self._end(reminder, undo, unchanged_since)
        return self._moved_on(
            reminder,
            unchanged_since,
            due_at=following,
            changed_at=now,
            revision=Revision(undo=undo, was=reminder),
        )

    def skip_time(
        self, reminder: Reminder, at: datetime, now: datetime, *, undo: Tombstone
    ) -> Reminder | None:
        """The series skips its one time `at`, a later one than its next (which stays), keeping its
        previous version for `undo`. Raises `TooManySkips` before anything is written."""
        assert reminder.recurrence is not None
        skips = with_skipped(
            reminder.skips, at, at + timedelta(minutes=1), reminder.timezone, since=reminder.due_at
        )
        return self._moved_on(
            reminder, None, skips=skips, changed_at=now, revision=Revision(undo=undo, was=reminder)
        )

    def skip_on(
        self,
        reminder: Reminder,
        days: tuple[date, date],
        timezone: str,
        now: datetime,
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
    ) -> tuple[Reminder | None, list[datetime]]:
        """The series skips each of its times on `days` (the first, and the end excluded; days in
        `timezone`, the user's), keeping its previous version for `undo`: its next time moves on
        when it is one of them, a later one is skipped in the series itself (`with_skipped`). The
        reminder as it is after, and the times skipped (none: it does not come then; at most
        `MOST_TIMES_COUNTED` + 1 of them are counted, all of them are skipped). Raises
        `ChangedSince` when the series changed after `unchanged_since` (left as it is)."""
        assert reminder.recurrence is not None
        first, until = days
        times = on_days([reminder], first, until - timedelta(days=1), timezone).get(reminder.reminder_id, [])
        if not times:
            return reminder, []
        zone = ZoneInfo(timezone)
        start, end = (
            datetime.combine(first, time(), tzinfo=zone),
            datetime.combine(until, time(), tzinfo=zone),
        )
        # Raises TooManySkips before anything is written.
        skips = with_skipped(reminder.skips, start, end, reminder.timezone, since=reminder.due_at)
        due = reminder.due_at
        if due in times:
            following = next_occurrence(reminder.recurrence, reminder.timezone, due, skips)
            if following is None:  # nothing left after them: the series ends
                return self._end(reminder, undo, unchanged_since), times
            due = following
        after = self._moved_on(
            reminder,
            unchanged_since,
            due_at=due,
            skips=skips,
            changed_at=now,
            revision=Revision(undo=undo, was=reminder),
        )
        return after, times

    def _moved_on(
        self, reminder: Reminder, unchanged_since: datetime | None, **changes: Any
    ) -> Reminder | None:
        """The skip's one conditional update: with `unchanged_since`, only a series not changed
        since (the times the approval showed are still its times)."""
        after = self._repo.update_reminder(
            reminder.thread_id, reminder.reminder_id, unchanged_since=unchanged_since, **changes
        )
        if after is None and unchanged_since is not None:
            now_stored = self._repo.get_reminder(reminder.thread_id, reminder.reminder_id)
            if now_stored is not None:
                raise ChangedSince(now_stored)
        return after

    def _end(self, reminder: Reminder, undo: Tombstone, unchanged_since: datetime | None) -> Reminder | None:
        """A series with nothing left after its skipped times is deleted: tombstoned for `undo` (so
        "undo" gives it back), unless it changed since `unchanged_since`; then its schedule."""
        removal = self._repo.remove_reminder(
            reminder.thread_id, reminder.reminder_id, undo=undo, unchanged_since=unchanged_since
        )
        if removal.status == "changed" and removal.item is not None:
            raise ChangedSince(removal.item)
        if removal.status == "deleted":
            self._scheduler.cancel(reminder.schedule_name or schedule_name_for(reminder.reminder_id))
        return removal.item


class ChangedSince(Exception):
    """The series a skip was approved for changed after the question was asked: left as it is."""

    def __init__(self, reminder: Reminder) -> None:
        super().__init__(reminder.reminder_id)
        self.reminder = reminder
