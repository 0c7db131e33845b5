"""Reminders: create, list, update (move / rename), delete, delete_all.

Each reminder is one item (`memo.capabilities.items.Reminder`) and one one-time schedule. Create
schedules first and then writes the item: a rejected schedule leaves nothing behind, and a crash
between the two leaves a schedule without an item, which the reminders Lambda answers as missing
(nothing is sent) — never an item that looks set but has no schedule to fire it. A retried or
re-run create (`memo.executor.reruns`) reuses its deterministic id, so the schedule is replaced and
the item put completes (or is a no-op the second time). A re-run whose time passed meanwhile raises
`RerunUnsafe`: the crashed attempt may have set it (and it may have fired).

Changes live in `memo.capabilities.reminder_changes`, deletes in `memo.capabilities.reminder_deletes`
(no read before the write; what changed since the approval is left alone), the schedule handling
they share in `memo.capabilities.reminder_schedule`, the args in `memo.capabilities.reminder_args`.
Args carry ids chosen by entity resolution.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.base import (
    CapabilityError,
    ExecutionContext,
    ExecutionResult,
    ReminderScheduler,
    RerunUnsafe,
)
from memo.capabilities.common import TIME_IN_PAST, entity_id, failure, say, undo_for
from memo.capabilities.items import Reminder, Revision
from memo.capabilities.reminder_args import (
    CreateReminderArgs,
    DeleteAllRemindersArgs,
    DeleteRemindersArgs,
    DoneReminderArgs,
    ListRemindersArgs,
    SnoozeReminderArgs,
    UpdateReminderArgs,
)
from memo.capabilities.reminder_changes import ReminderChanges
from memo.capabilities.reminder_deletes import ReminderDeletes
from memo.capabilities.reminder_results import (
    CAPABILITY,
    brief,
    in_past,
    in_period,
    no_time_left,
    not_found,
    on_days,
    rejected,
    too_long,
)
from memo.capabilities.reminder_schedule import ReminderSchedule
from memo.capabilities.scheduler import schedule_name_for
from memo.capabilities.store import ItemsRepository
from memo.observability import logger
from memo.text.dates import format_when
from memo.text.matching import EXACT, rank
from memo.text.recurrence_limits import RecurrenceLimits
from memo.text.series import first_occurrence, series
from memo.text.series_words import describe
from memo.text.wording import quote

#: At most this many notes are shown when no reminder is about the words asked.
NOTES_SHOWN = 3


class ReminderOperations(ReminderSchedule):
    """The reminder actions: create, list, snooze and done here; update, delete and delete_all by
    `ReminderChanges` and `ReminderDeletes` over the same repository, scheduler and clock."""

    def __init__(
        self,
        repository: ItemsRepository,
        scheduler: ReminderScheduler,
        clock: Callable[[], datetime],
        limits: RecurrenceLimits | None = None,
    ) -> None:
        super().__init__(repository, scheduler, clock)
        self._limits = limits or RecurrenceLimits()
        self._changes = ReminderChanges(repository, scheduler, clock)
        self._deletes = ReminderDeletes(repository, scheduler, clock)

    def create(self, args: CreateReminderArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        now = self._clock()
        if args.when <= now:
            if ctx.rerun_of is not None and args.when > ctx.rerun_of:
                raise RerunUnsafe("the reminder's time passed after the crashed attempt started")
            return failure(
                CAPABILITY,
                "create",
                TIME_IN_PAST,
                say(lang, "That time has already passed.", "הזמן הזה כבר עבר."),
            )
        reminder_id = entity_id(ctx)
        when, recurrence = args.when, None
        if args.recurrence is not None:
            if not self._limits.allows_rule(args.recurrence, now.astimezone(ZoneInfo(ctx.timezone)).date()):
                return too_long("create", lang)
            recurrence = series(args.recurrence, args.when, ctx.timezone)
            if recurrence is None:
                return no_time_left("create", lang)
            when = first_occurrence(recurrence, ctx.timezone)
        try:
            name = self._scheduler.schedule(
                reminder_id=reminder_id,
                thread_id=ctx.thread_id,
                at=when,
                timezone=ctx.timezone,
                recurrence=recurrence,
            )
        except CapabilityError as exc:
            return failure(CAPABILITY, "create", exc.code, rejected(lang, recurrence))
        reminder = Reminder(
            reminder_id=reminder_id,
            thread_id=ctx.thread_id,
            title=args.title,
            due_at=when,
            timezone=ctx.timezone,
            schedule_name=name,
            created_at=now,
            phone_number_id=args.phone_number_id or ctx.phone_number_id,
            recurrence=recurrence,
        )
        # Kept for the turn's undo ("undo" right after it cancels it), with no Undo button.
        if not self._repo.put_reminder(reminder, undo=undo_for(ctx, now)):
            logger.info("REMINDER_CREATE_REPLAYED", extra={"reminderId": reminder_id})
        return _created(args.title, reminder_id, when, recurrence, ctx)

    def list(self, args: ListRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        reminders = self._repo.list_upcoming_reminders(ctx.thread_id, self._clock())
        times: dict[str, list[datetime]] = {}
        if args.day is not None:
            times = on_days(reminders, args.day, args.until or args.day, ctx.timezone)
            reminders = sorted(
                (r for r in reminders if r.reminder_id in times), key=lambda r: times[r.reminder_id][0]
            )
        if args.about is not None:
            # Every reminder whose title has those words, in time order (not only the best match);
            # when some title is those very words, those only ("להתקשר לאבא" is not “להתקשר לאמא”).
            ranked = rank(args.about, reminders, lambda r: r.title)
            exact = [s for s in ranked if s.score >= EXACT]
            named = {id(s.item) for s in exact or ranked}
            reminders = [r for r in reminders if id(r) in named]
        if args.first is not None:
            reminders = sorted(reminders, key=lambda r: r.due_at)[: args.first]
        data: dict[str, object] = {
            "reminders": [
                in_period(brief(r, lang, ctx.timezone), times.get(r.reminder_id)) for r in reminders
            ],
            "timezone": ctx.timezone,
        }
        if args.about is not None:
            data["about"] = args.about
            if not reminders:
                # "when is my flight?" with no such reminder: a note that says it (one query, on a miss)
                notes = rank(args.about, self._repo.list_notes(ctx.thread_id), lambda n: n.text)
                data["notes"] = [s.item.text for s in notes[:NOTES_SHOWN]]
        if args.how_many:
            data["howMany"] = True
        if args.first is not None:
            data["first"] = args.first
        if args.day is not None:
            data["day"] = args.day.isoformat()
        if args.until is not None:
            data["until"] = args.until.isoformat()
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="list",
            data=data,
            summary=say(lang, f"listed {len(reminders)} reminder(s)", f"הצגתי {len(reminders)} תזכורות"),
        )

    def update(self, args: UpdateReminderArgs, ctx: ExecutionContext) -> ExecutionResult:
        return self._changes.update(args, ctx)

    def delete(self, args: DeleteRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        return self._deletes.delete(args, ctx)

    def delete_all(self, args: DeleteAllRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        return self._deletes.delete_all(args, ctx)

    def snooze(self, args: SnoozeReminderArgs, ctx: ExecutionContext) -> ExecutionResult:
        """ "Snooze 10 min" on a delivered reminder: a one-time reminder again, `minutes` from now.
        A one-time reminder is moved, keeping what it replaced for undo ("undo" makes it the delivered
        reminder it was, its snooze schedule removed); a repeating one keeps its series and gets a
        one-time copy, which "undo" cancels."""
        lang = ctx.language
        now = self._clock()
        reminder = self._repo.get_reminder(ctx.thread_id, args.reminder_id)
        if reminder is None:
            return not_found("snooze", lang)
        if args.at is not None and args.at <= now:
            return in_past("snooze", lang)  # "snooze it until 5pm" said after 5pm reached the executor
        when = args.at or (now + timedelta(minutes=args.minutes or 0)).replace(second=0, microsecond=0)
        if reminder.recurrence is not None:
            snoozed: Reminder | None = self.one_time_copy(
                reminder,
                ctx,
                when=when,
                title=reminder.title,
                now=now,
                undo=undo_for(ctx, now),
                snooze_of=reminder.reminder_id,
            )
        else:
            name = self._scheduler.schedule(
                reminder_id=reminder.reminder_id, thread_id=ctx.thread_id, at=when, timezone=reminder.timezone
            )
            snoozed = self._repo.update_reminder(
                ctx.thread_id,
                reminder.reminder_id,
                due_at=when,
                schedule_name=name,
                changed_at=now,
                revision=Revision(undo=undo_for(ctx, now), was=reminder),
            )
            if snoozed is None:
                self._scheduler.cancel(name)
                return not_found("snooze", lang)
        assert snoozed is not None
        when_text = format_when(when, lang, ctx.timezone)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="snooze",
            data={**brief(snoozed, lang), "minutes": args.minutes, "timezone": ctx.timezone},
            external_ids={"reminderId": snoozed.reminder_id},
            summary=say(
                lang,
                f"I'll remind you about {quote(reminder.title, lang)} again at {when_text}",
                f"אזכיר שוב על {quote(reminder.title, lang)} ב{when_text}",
            ),
            when=when,
        )

    def done(self, args: DoneReminderArgs, ctx: ExecutionContext) -> ExecutionResult:
        """ "Done" on a delivered reminder: a one-time reminder is finished (a pending snooze is
        cancelled); a repeating one finishes this occurrence only, and its series goes on."""
        lang = ctx.language
        reminder = self._repo.get_reminder(ctx.thread_id, args.reminder_id)
        if reminder is None:
            return not_found("done", lang)
        data: dict[str, object] = {**brief(reminder, lang), "timezone": ctx.timezone}
        title = quote(reminder.title, lang)
        if reminder.recurrence is None:
            if reminder.status == "scheduled":  # snoozed, then done: no second delivery
                self._finish(reminder)
            summary = say(lang, f"marked {title} done", f"סימנתי את {title} כבוצע")
        else:
            # This occurrence snoozed, then done: its snoozed copies do not go out either.
            for snoozed in self._repo.list_upcoming_reminders(ctx.thread_id, self._clock()):
                if snoozed.snooze_of == reminder.reminder_id:
                    self._finish(snoozed)
            following = format_when(reminder.due_at, lang, ctx.timezone)
            data["next"] = reminder.due_at.isoformat()
            summary = say(
                lang,
                f"marked {title} done for this time; the next one is {following}",
                f"סימנתי את {title} כבוצע לפעם הזאת; הבאה ב{following}",
            )
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="done",
            data=data,
            external_ids={"reminderId": reminder.reminder_id},
            summary=summary,
        )

    def _finish(self, reminder: Reminder) -> None:
        """A scheduled one-time reminder marked done before it went out: its schedule is cancelled."""
        self._scheduler.cancel(reminder.schedule_name or schedule_name_for(reminder.reminder_id))
        self._repo.mark_reminder_sent(reminder.thread_id, reminder.reminder_id, sent_at=self._clock())


def _created(
    title: str, reminder_id: str, when: datetime, recurrence: str | None, ctx: ExecutionContext
) -> ExecutionResult:
    """The result of a reminder set: its time (or how it repeats) in the user's words."""
    lang = ctx.language
    when_text = format_when(when, lang, ctx.timezone)
    data: dict[str, object] = {"title": title, "when": when.isoformat(), "timezone": ctx.timezone}
    summary = say(
        lang,
        f"reminder {quote(title, lang)} for {when_text}",
        f"תזכורת {quote(title, lang)} ל{when_text}",
    )
    if recurrence is not None:
        data["repeats"] = describe(recurrence, lang)
        summary = say(
            lang,
            f"reminder {quote(title, lang)} {data['repeats']}",
            f"תזכורת {quote(title, lang)} {data['repeats']}",
        )
    return ExecutionResult(
        success=True,
        capability=CAPABILITY,
        action="create",
        data=data,
        external_ids={"reminderId": reminder_id},
        summary=summary,
        when=when,
    )
