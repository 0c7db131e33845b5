"""Reminder changes: move (a full time, a time of day or a day alone, a shift), rename, and repeat.

A one-time reminder is rescheduled in place; a series moves as a whole (its rule keeps its shape
from the new first time) unless the person meant only its next time, which the series skips and a
one-time copy takes at the new time. A new rule makes the reminder a series from `when` on. A new zone (the user's zone changed) makes
each series keep its clock time there: its schedule is made again in that zone and the reminder
takes it; the result says so (`KEPT_LOCAL_TIME`), since the turn that changed the zone told the user.

Every change of a reminder in place keeps, in its own write, the values it replaces (a `Revision`
under the turn's undo key), so "undo" puts the title, time and series back (`memo.capabilities.undo`);
a moved occurrence is kept too: "undo" cancels its one-time copy and gives the series its skipped time back.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.base import CapabilityError, ExecutionContext, ExecutionResult
from memo.capabilities.common import KEPT_LOCAL_TIME, failure, say, undo_for
from memo.capabilities.items import Reminder, Revision
from memo.capabilities.reminder_args import OCCURRENCE, UpdateReminderArgs, split_scoped
from memo.capabilities.reminder_results import (
    CAPABILITY,
    brief,
    in_past,
    no_time_left,
    not_found,
    not_repeating,
    not_within_hours,
    occurrence_moved,
    rejected,
    too_many_skips,
)
from memo.capabilities.reminder_schedule import ReminderSchedule, new_time
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.series import (
    TooManySkips,
    ended_on,
    first_time,
    moved,
    next_occurrence,
    opens_at,
    rezoned,
    series,
    with_hours,
    within_its_hours,
)
from memo.text.wording import quote


class ReminderChanges(ReminderSchedule):
    def update(self, args: UpdateReminderArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        now = self._clock()
        if args.when is not None and args.when <= now:
            return in_past("update", lang)
        updated: list[dict[str, str]] = []
        ids: list[str] = []
        for scoped in args.reminder_ids:
            reminder_id, scope = split_scoped(scoped)
            before = self._repo.get_reminder(ctx.thread_id, reminder_id)
            if before is None:
                continue
            kept = Revision(undo=undo_for(ctx, now), was=before)
            if args.ends_on is not None:
                outcome = self._end_on(kept, args.ends_on, now, lang)
            elif args.timezone is not None:
                outcome = self._keep_local_time(kept, args.timezone, now)
            elif args.recurrence is not None or args.hours is not None:
                outcome = self._repeat(kept, args, now, lang)
            elif before.recurrence is not None and scope == OCCURRENCE:
                outcome = self._move_occurrence(kept, args, ctx, now)
            elif before.recurrence is not None:
                outcome = self._move_series(kept, args, now, lang)
            else:
                outcome = self._move_one(kept, args, now, lang)
            if isinstance(outcome, ExecutionResult):
                return outcome
            if outcome is None:
                continue
            ids.append(outcome.reminder_id)
            updated.append(
                {
                    **brief(outcome, lang),
                    "previousTitle": before.title,
                    "previousWhen": before.due_at.isoformat(),
                }
            )
        if not updated:
            return not_found("update", lang)
        first = updated[0]
        when_text = format_when(first["when"], lang, ctx.timezone)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="update",
            data={
                "reminders": updated,
                "missing": len(args.reminder_ids) - len(updated),
                "timezone": ctx.timezone,
                **({KEPT_LOCAL_TIME: args.timezone} if args.timezone is not None else {}),
            },
            external_ids={"reminderId": ids[0]} if len(ids) == 1 else {"reminderIds": ids},
            summary=say(
                lang,
                f"updated reminder {quote(first['title'], lang)} ({when_text})",
                f"עדכנתי את התזכורת {quote(first['title'], lang)} ({when_text})",
            ),
            when=datetime.fromisoformat(first["when"]),
        )

    def _end_on(
        self, kept: Revision[Reminder], last_day: date, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        """The series ends with `last_day`: its schedule ends after it; a one-time reminder has no
        end to change, and a series with no time left by then is not ended (it is asked to be
        deleted instead, never deleted on a date's word)."""
        before = kept.was
        if before.recurrence is None:
            return not_repeating(before, lang)
        recurrence = ended_on(before.recurrence, last_day)
        when = first_time(recurrence, before.timezone, before.skips)
        if when is None or when < before.due_at:
            return no_time_left("update", lang)
        name = self._scheduler.schedule(
            reminder_id=before.reminder_id,
            thread_id=before.thread_id,
            at=before.due_at,
            timezone=before.timezone,
            recurrence=recurrence,
        )
        return self._repo.update_reminder(
            before.thread_id,
            before.reminder_id,
            schedule_name=name,
            recurrence=recurrence,
            changed_at=now,
            revision=kept,
        )

    def _move_one(
        self, kept: Revision[Reminder], args: UpdateReminderArgs, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        before = kept.was
        when = new_time(before, args, now)
        if when is not None and when <= now:
            return in_past("update", lang)
        name: str | None = None
        if when is not None:
            name = self._scheduler.schedule(
                reminder_id=before.reminder_id, thread_id=before.thread_id, at=when, timezone=before.timezone
            )
        after = self._repo.update_reminder(
            before.thread_id,
            before.reminder_id,
            title=args.title,
            due_at=when,
            schedule_name=name,
            changed_at=now,
            revision=kept,
        )
        if after is None and name is not None:
            self._scheduler.cancel(name)  # deleted meanwhile: leave no schedule behind
        return after

    def _repeat(
        self, kept: Revision[Reminder], args: UpdateReminderArgs, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        """The reminder repeats by `args.recurrence` from `args.when` on (none said: from now on, at its
        own time of day), in its own timezone. New `args.hours` ("make it from 10 to 6"): a series
        within hours of each day keeps how often it comes and its days, at those hours."""
        before = kept.was
        if args.hours is not None:
            opens, closes = (time.fromisoformat(t) for t in args.hours.split("-"))
            rule = with_hours(before.recurrence, opens, closes) if before.recurrence else None
            if rule is None:
                return not_within_hours(before, lang)
            args = args.model_copy(update={"hours": None, "recurrence": rule})
        assert args.recurrence is not None
        start = args.when or _at_its_time_from(before, now)
        rule = within_its_hours(before.recurrence, args.recurrence) if before.recurrence else args.recurrence
        if rule != args.recurrence:
            # "every 2 hours" within the series' hours: from its next time, not two hours from now
            start = max(before.due_at, now)
        recurrence = series(rule, start, before.timezone)
        if recurrence is None:
            return no_time_left("update", lang)
        when = first_time(recurrence, before.timezone, before.skips)
        if when is None:
            return no_time_left("update", lang)
        if when <= now:
            return in_past("update", lang)
        try:
            name = self._scheduler.schedule(
                reminder_id=before.reminder_id,
                thread_id=before.thread_id,
                at=when,
                timezone=before.timezone,
                recurrence=recurrence,
            )
        except CapabilityError as exc:
            return failure(CAPABILITY, "update", exc.code, rejected(lang, recurrence))
        return self._repo.update_reminder(
            before.thread_id,
            before.reminder_id,
            title=args.title,
            due_at=when,
            schedule_name=name,
            recurrence=recurrence,
            changed_at=now,
            revision=kept,
        )

    def _move_series(
        self, kept: Revision[Reminder], args: UpdateReminderArgs, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        before = kept.was
        assert before.recurrence is not None
        if args.when is None and args.time is None and args.day is None and args.shift_minutes is None:
            return self._repo.update_reminder(
                before.thread_id, before.reminder_id, title=args.title, changed_at=now, revision=kept
            )
        zone = ZoneInfo(before.timezone)
        opens, shift = opens_at(before.recurrence), args.shift_minutes
        if args.shift_minutes is not None:
            # The whole series moves by the shift: its next time, moved, sets the new day and time.
            shifted = new_time(before, args, now)
            assert shifted is not None
            args = args.model_copy(update={"shift_minutes": None, "when": shifted})
        local = args.when.astimezone(zone) if args.when is not None else None
        at = time.fromisoformat(args.time) if args.time is not None else (local.time() if local else None)
        if at is not None and args.either_half and args.day is None:
            at = _nearer_half(at, before.due_at.astimezone(zone).time())  # "move the trash to 9"
        day = args.day or (local.date() if local else None)
        if opens is not None and shift is not None:  # its hours of the day move by the shift
            at, day = (datetime.combine(now.date(), opens) + timedelta(minutes=shift)).time(), None
        recurrence = moved(before.recurrence, before.timezone, now=now, day=day, at=at)
        if recurrence is None:
            return in_past("update", lang)
        when = first_time(recurrence, before.timezone, before.skips)
        if when is None:
            return no_time_left("update", lang)
        name = self._scheduler.schedule(
            reminder_id=before.reminder_id,
            thread_id=before.thread_id,
            at=when,
            timezone=before.timezone,
            recurrence=recurrence,
        )
        return self._repo.update_reminder(
            before.thread_id,
            before.reminder_id,
            title=args.title,
            due_at=when,
            schedule_name=name,
            recurrence=recurrence,
            changed_at=now,
            revision=kept,
        )

    def _keep_local_time(
        self, kept: Revision[Reminder], zone: str, now: datetime
    ) -> Reminder | ExecutionResult | None:
        """A series keeps its clock time in `zone` (the user's zone changed): its schedule is made
        again there from its next time after now, and the item takes the zone. A one-time reminder,
        a series already in `zone` or one with no time left is left as it is (None)."""
        before = kept.was
        if before.recurrence is None or before.timezone == zone:
            return None
        recurrence = rezoned(before.recurrence, before.timezone, zone, now=now, created_at=before.created_at)
        when = next_occurrence(recurrence, zone, now, before.skips)
        if when is None:
            return None
        name = self._scheduler.schedule(
            reminder_id=before.reminder_id,
            thread_id=before.thread_id,
            at=when,
            timezone=zone,
            recurrence=recurrence,
            not_before=now,
        )
        return self._repo.update_reminder(
            before.thread_id,
            before.reminder_id,
            due_at=when,
            schedule_name=name,
            recurrence=recurrence if recurrence != before.recurrence else None,
            timezone=zone,
            changed_at=now,
            revision=kept,
        )

    def _move_occurrence(
        self, kept: Revision[Reminder], args: UpdateReminderArgs, ctx: ExecutionContext, now: datetime
    ) -> Reminder | ExecutionResult | None:
        """One time of a repeating reminder: the series skips it and a one-time reminder takes its
        place at the new time (and with the new title); "undo" cancels the one-time reminder and
        gives the series its time back. The time is the series' next one, or, when a day was said,
        its time on that day (`occurrence_moved`)."""
        before = kept.was
        when = new_time(before, args, now) or before.due_at
        if when <= now:
            return in_past("update", ctx.language)
        moved_from = before.due_at
        if args.when is not None or args.day is not None:
            moved_from = occurrence_moved(before, when, ctx.timezone)
        if moved_from != before.due_at:
            try:
                self.skip_time(before, moved_from, now, undo=kept.undo)
            except TooManySkips:
                return too_many_skips([brief(before, ctx.language)], ctx.language)
        title = args.title or before.title
        single = self.one_time_copy(before, ctx, when=when, title=title, now=now, undo=kept.undo)
        if moved_from == before.due_at:
            self.skip(before, now, undo=kept.undo)
        return single


def _at_its_time_from(reminder: Reminder, now: datetime) -> datetime:
    """The reminder's time of day next after `now`, in its own timezone ("move the plants to mondays"
    keeps 09:00): the first time of a new repetition said without a time."""
    zone = ZoneInfo(reminder.timezone)
    at = reminder.due_at.astimezone(zone).time()
    candidate = datetime.combine(now.astimezone(zone).date(), at, tzinfo=zone)
    return candidate if candidate > now else candidate + timedelta(days=1)


def _nearer_half(at: time, own: time) -> time:
    """A morning time said without am/pm for a series: that time or 12 hours later, whichever is
    nearer the series' own time of day (its 20:00 moved "to 9" is 21:00), as for one reminder."""
    minutes = at.hour * 60 + at.minute
    said = own.hour * 60 + own.minute
    later = minutes + 12 * 60
    return at.replace(hour=at.hour + 12) if abs(later - said) < abs(minutes - said) else at
