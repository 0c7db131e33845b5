"""Reminders: create, list, update (move / rename), delete, delete_all.

Each reminder is one item (`memo.capabilities.items.Reminder`) and one one-time schedule. Create
schedules first and then writes the item: a rejected schedule leaves nothing behind, and a crash
between the two leaves a schedule without an item, which the reminders Lambda answers as missing
(nothing is sent) — never an item that looks set but has no schedule to fire it. A retried or
re-run create (`memo.executor.reruns`) reuses its deterministic id, so the schedule is replaced and
the item put completes (or is a no-op the second time). A re-run whose time passed meanwhile raises
`RerunUnsafe`: the crashed attempt may have set it (and it may have fired).

Delete and delete_all do not read before they write: each pinned reminder is tombstoned by one
conditional write (`ItemsRepository.remove_reminder`) that returns it as it was, and only then is
its schedule cancelled (a tombstoned reminder is `cancelled`, so no delivery can claim it meanwhile).
A retry of the step after a partial failure finds its own tombstones, counts them again and
finishes the cancels. The condition carries what the approval pinned: a reminder that is gone is
counted as gone, one whose title, time or series changed after the question was asked
(`ExecutionContext.unchanged_since`) is left alone — schedule included — and named in the result
(`changed`); nothing else is touched. Args carry ids chosen by entity resolution; a reminder that
vanished since is NOT_FOUND; every one changed since the approval is CHANGED_SINCE_APPROVAL.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pydantic import AwareDatetime, Field, model_validator

from memo.capabilities.base import (
    CapabilityError,
    ExecutionContext,
    ExecutionResult,
    ReminderScheduler,
    RerunUnsafe,
)
from memo.capabilities.common import (
    CHANGED,
    CHANGED_SINCE_APPROVAL,
    GONE,
    NOT_FOUND,
    TIME_IN_PAST,
    Args,
    entity_id,
    failure,
    say,
    undo_data,
    undo_for,
)
from memo.capabilities.items import Deletion, Reminder, Tombstone
from memo.capabilities.scheduler import schedule_name_for
from memo.capabilities.store import ItemsRepository
from memo.observability import logger
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.matching import rank
from memo.text.recurrence import describe, first_occurrence, moved, next_occurrence, series
from memo.text.wording import quote

CAPABILITY = "reminders"


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
    #: series gets the new rule)
    recurrence: str | None = Field(default=None, pattern=RRULE_VALUE)
    #: "push it by an hour" (positive: later): each reminder's own time, moved by this much
    shift_minutes: int | None = Field(default=None, ge=-7 * 24 * 60, le=7 * 24 * 60)

    @model_validator(mode="after")
    def _something_to_change(self) -> UpdateReminderArgs:
        times = [self.when, self.time or self.day, self.shift_minutes]
        if all(t is None for t in times) and self.title is None:
            raise ValueError("an update needs a new time or a new title")
        if self.when is not None and (self.time is not None or self.day is not None):
            raise ValueError("a full time replaces the day and the time of day")
        if self.shift_minutes is not None and (self.when or self.time or self.day or self.recurrence):
            raise ValueError("a shift moves the reminder's own time: no new time with it")
        if self.shift_minutes == 0:
            raise ValueError("a shift of no time changes nothing")
        if self.either_half and (self.time is None or self.time >= "12:00"):
            raise ValueError("only a morning time of day can be 12 hours later")
        if self.recurrence is not None and self.when is None:
            raise ValueError("a repetition needs its first time (`when`)")
        return self


class SnoozeReminderArgs(Args):
    reminder_id: str = Field(min_length=1)
    minutes: int = Field(ge=1, le=24 * 60)


class DoneReminderArgs(Args):
    reminder_id: str = Field(min_length=1)


class DeleteRemindersArgs(Args):
    reminder_ids: list[str] = Field(min_length=1)


class DeleteAllRemindersArgs(Args):
    # The reminders "all" meant when the plan was resolved (and approved): a reminder created
    # afterwards is not deleted by an older approval. None: every reminder (no pinned set).
    reminder_ids: list[str] | None = None


def _brief(reminder: Reminder, language: Language = "en") -> dict[str, str]:
    brief = {"id": reminder.reminder_id, "title": reminder.title, "when": reminder.due_at.isoformat()}
    if reminder.recurrence is not None:
        brief["repeats"] = describe(reminder.recurrence, language)
    return brief


def _no_time_left(action: str, lang: Language) -> ExecutionResult:
    """A series whose rule has no time left from its first one ("5 times" that all passed)."""
    return failure(
        CAPABILITY,
        action,
        TIME_IN_PAST,
        say(lang, "That series has no time left to run.", "לסדרה הזאת לא נשארו מועדים."),
    )


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


def _in_past(action: str, language: Language) -> ExecutionResult:
    return failure(
        CAPABILITY, action, TIME_IN_PAST, say(language, "That time has already passed.", "הזמן הזה כבר עבר.")
    )


def _rejected(language: Language, recurrence: str | None) -> str:
    if recurrence is None:
        return say(language, "I couldn't schedule that reminder.", "לא הצלחתי לתזמן את התזכורת.")
    return say(
        language,
        "I can't repeat a reminder that way — try e.g. “every Monday at 9”.",
        "אני לא יכול לחזור על תזכורת בצורה הזאת — נסו למשל „כל יום שני ב-9”.",
    )


def _not_found(action: str, language: Language) -> ExecutionResult:
    return failure(
        CAPABILITY,
        action,
        NOT_FOUND,
        say(language, "I couldn't find that reminder anymore.", "לא מצאתי את התזכורת הזאת יותר."),
    )


def _changed_failure(action: str, changed: list[dict[str, str]], ctx: ExecutionContext) -> ExecutionResult:
    """Every reminder the approval pinned was changed after the question was asked: none deleted."""
    titles = ", ".join(quote(c["title"], ctx.language) for c in changed)
    result = failure(
        CAPABILITY,
        action,
        CHANGED_SINCE_APPROVAL,
        say(
            ctx.language,
            f"{titles} changed after you approved, so I left it as it is.",
            f"{titles} השתנתה אחרי שאישרת, אז השארתי אותה כמו שהיא.",
        ),
    )
    return result.model_copy(update={"data": {CHANGED: changed, "timezone": ctx.timezone}})


class ReminderOperations:
    def __init__(
        self, repository: ItemsRepository, scheduler: ReminderScheduler, clock: Callable[[], datetime]
    ) -> None:
        self._repo = repository
        self._scheduler = scheduler
        self._clock = clock

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
            recurrence = series(args.recurrence, args.when, ctx.timezone)
            if recurrence is None:
                return _no_time_left("create", lang)
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
            return failure(CAPABILITY, "create", exc.code, _rejected(lang, recurrence))
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
        if not self._repo.put_reminder(reminder):
            logger.info("REMINDER_CREATE_REPLAYED", extra={"reminderId": reminder_id})
        when_text = format_when(when, lang, ctx.timezone)
        data: dict[str, object] = {"title": args.title, "when": when.isoformat(), "timezone": ctx.timezone}
        summary = say(
            lang,
            f"reminder {quote(args.title, lang)} for {when_text}",
            f"תזכורת {quote(args.title, lang)} ל{when_text}",
        )
        if recurrence is not None:
            data["repeats"] = describe(recurrence, lang)
            summary = say(
                lang,
                f"reminder {quote(args.title, lang)} {data['repeats']}",
                f"תזכורת {quote(args.title, lang)} {data['repeats']}",
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

    def list(self, args: ListRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        reminders = self._repo.list_upcoming_reminders(ctx.thread_id, self._clock())
        if args.day is not None:
            zone = ZoneInfo(ctx.timezone)
            first, last = args.day, args.until or args.day
            reminders = [r for r in reminders if first <= r.due_at.astimezone(zone).date() <= last]
        if args.about is not None:
            # Every reminder whose title has those words, in time order (not only the best match).
            named = {id(s.item) for s in rank(args.about, reminders, lambda r: r.title)}
            reminders = [r for r in reminders if id(r) in named]
        data: dict[str, object] = {
            "reminders": [_brief(r, lang) for r in reminders],
            "timezone": ctx.timezone,
        }
        if args.about is not None:
            data["about"] = args.about
        if args.how_many:
            data["howMany"] = True
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
        lang = ctx.language
        now = self._clock()
        if args.when is not None and args.when <= now:
            return _in_past("update", lang)
        updated: list[dict[str, str]] = []
        ids: list[str] = []
        for scoped in args.reminder_ids:
            reminder_id, scope = split_scoped(scoped)
            before = self._repo.get_reminder(ctx.thread_id, reminder_id)
            if before is None:
                continue
            if args.recurrence is not None:
                outcome = self._repeat(before, args, now, lang)
            elif before.recurrence is not None and scope == OCCURRENCE:
                outcome = self._move_occurrence(before, args, ctx, now)
            elif before.recurrence is not None:
                outcome = self._move_series(before, args, now, lang)
            else:
                outcome = self._move_one(before, args, now, lang)
            if isinstance(outcome, ExecutionResult):
                return outcome
            if outcome is None:
                continue
            ids.append(outcome.reminder_id)
            updated.append(
                {
                    **_brief(outcome, lang),
                    "previousTitle": before.title,
                    "previousWhen": before.due_at.isoformat(),
                }
            )
        if not updated:
            return _not_found("update", lang)
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
            },
            external_ids={"reminderId": ids[0]} if len(ids) == 1 else {"reminderIds": ids},
            summary=say(
                lang,
                f"updated reminder {quote(first['title'], lang)} ({when_text})",
                f"עדכנתי את התזכורת {quote(first['title'], lang)} ({when_text})",
            ),
            when=datetime.fromisoformat(first["when"]),
        )

    def _new_time(self, reminder: Reminder, args: UpdateReminderArgs, now: datetime) -> datetime | None:
        """The reminder's new time: a full time, or its own day / time of day with the other part
        changed, in its own timezone (a time alone keeps the day, a day alone keeps the time; a
        morning hour said without am/pm that has passed on that day is its evening)."""
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
        if args.either_half and when <= now < when + timedelta(hours=12):
            return when + timedelta(hours=12)
        return when

    def _move_one(
        self, before: Reminder, args: UpdateReminderArgs, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        when = self._new_time(before, args, now)
        if when is not None and when <= now:
            return _in_past("update", lang)
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
        )
        if after is None and name is not None:
            self._scheduler.cancel(name)  # deleted meanwhile: leave no schedule behind
        return after

    def _repeat(
        self, before: Reminder, args: UpdateReminderArgs, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        """The reminder repeats by `args.recurrence` from `args.when` on, in its own timezone."""
        assert args.recurrence is not None and args.when is not None
        recurrence = series(args.recurrence, args.when, before.timezone)
        if recurrence is None:
            return _no_time_left("update", lang)
        when = first_occurrence(recurrence, before.timezone)
        if when <= now:
            return _in_past("update", lang)
        try:
            name = self._scheduler.schedule(
                reminder_id=before.reminder_id,
                thread_id=before.thread_id,
                at=when,
                timezone=before.timezone,
                recurrence=recurrence,
            )
        except CapabilityError as exc:
            return failure(CAPABILITY, "update", exc.code, _rejected(lang, recurrence))
        return self._repo.update_reminder(
            before.thread_id,
            before.reminder_id,
            title=args.title,
            due_at=when,
            schedule_name=name,
            recurrence=recurrence,
            changed_at=now,
        )

    def _move_series(
        self, before: Reminder, args: UpdateReminderArgs, now: datetime, lang: Language
    ) -> Reminder | ExecutionResult | None:
        assert before.recurrence is not None
        if args.when is None and args.time is None and args.day is None and args.shift_minutes is None:
            return self._repo.update_reminder(
                before.thread_id, before.reminder_id, title=args.title, changed_at=now
            )
        zone = ZoneInfo(before.timezone)
        if args.shift_minutes is not None:
            # The whole series moves by the shift: its next time, moved, sets the new day and time.
            shifted = self._new_time(before, args, now)
            assert shifted is not None
            args = args.model_copy(update={"shift_minutes": None, "when": shifted})
        local = args.when.astimezone(zone) if args.when is not None else None
        at = time.fromisoformat(args.time) if args.time is not None else (local.time() if local else None)
        day = args.day or (local.date() if local else None)
        recurrence = moved(before.recurrence, before.timezone, now=now, day=day, at=at)
        if recurrence is None:
            return _in_past("update", lang)
        when = first_occurrence(recurrence, before.timezone)
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
        )

    def _move_occurrence(
        self, before: Reminder, args: UpdateReminderArgs, ctx: ExecutionContext, now: datetime
    ) -> Reminder | ExecutionResult | None:
        """Only the next time of a repeating reminder: the series skips it and a one-time reminder
        takes its place at the new time (and with the new title)."""
        when = self._new_time(before, args, now) or before.due_at
        if when <= now:
            return _in_past("update", ctx.language)
        single = self._one_time_copy(before, ctx, when=when, title=args.title or before.title, now=now)
        self._skip(before, now)
        return single

    def _one_time_copy(
        self, source: Reminder, ctx: ExecutionContext, *, when: datetime, title: str, now: datetime
    ) -> Reminder:
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
        )
        if not self._repo.put_reminder(single):
            logger.info("REMINDER_CREATE_REPLAYED", extra={"reminderId": reminder_id})
        return single

    def _skip(self, reminder: Reminder, now: datetime) -> Reminder | None:
        """The series goes on from the occurrence after its next one; a series with nothing left
        is deleted (its schedule first)."""
        assert reminder.recurrence is not None
        after = max(reminder.due_at, now)
        following = next_occurrence(reminder.recurrence, reminder.timezone, after)
        if following is None:
            self._scheduler.cancel(reminder.schedule_name or schedule_name_for(reminder.reminder_id))
            return self._repo.delete_reminder(reminder.thread_id, reminder.reminder_id)
        return self._repo.update_reminder(
            reminder.thread_id, reminder.reminder_id, due_at=following, changed_at=now
        )

    def _remove(self, reminder_id: str, undo: Tombstone, ctx: ExecutionContext) -> Deletion[Reminder]:
        """Tombstone one pinned reminder (one conditional write), then cancel its schedule."""
        removal = self._repo.remove_reminder(
            ctx.thread_id, reminder_id, undo=undo, unchanged_since=ctx.unchanged_since
        )
        if removal.status == "deleted" and removal.item is not None and removal.item.status == "scheduled":
            self._scheduler.cancel(removal.item.schedule_name or schedule_name_for(reminder_id))
        return removal

    def delete(self, args: DeleteRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        undo = undo_for(ctx, self._clock())  # tombstoned: "Undo" can restore it for 10 minutes
        deleted: list[dict[str, str]] = []
        skipped: list[dict[str, str]] = []
        changed: list[dict[str, str]] = []
        for scoped in args.reminder_ids:
            reminder_id, scope = split_scoped(scoped)
            if scope == OCCURRENCE:
                # "this one" of a repeating reminder: the series skips its next time and goes on
                # (a one-time reminder has no series: it is deleted).
                reminder = self._repo.get_reminder(ctx.thread_id, reminder_id)
                if reminder is None:
                    continue
                if reminder.recurrence is not None:
                    after = self._skip(reminder, self._clock())
                    skipped.append(
                        {**_brief(reminder, lang), "next": after.due_at.isoformat() if after else ""}
                    )
                    continue
            removal = self._remove(reminder_id, undo, ctx)
            if removal.status == "deleted" and removal.item is not None:
                deleted.append(_brief(removal.item, lang))
            elif removal.status == "changed" and removal.item is not None:
                changed.append(_brief(removal.item, lang))
        if skipped and not deleted:
            return self._skipped_result(skipped, ctx)
        if not deleted and changed:
            return _changed_failure("delete", changed, ctx)
        if not deleted:
            return _not_found("delete", lang)
        ids = [d["id"] for d in deleted]
        titles = ", ".join(quote(d["title"], lang) for d in deleted)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete",
            data={
                "deleted": deleted,
                "missing": len(args.reminder_ids) - len(deleted) - len(changed),
                "timezone": ctx.timezone,
                **({CHANGED: changed} if changed else {}),
                **undo_data(undo),
            },
            external_ids={"reminderId": ids[0]} if len(ids) == 1 else {"reminderIds": ids},
            summary=say(lang, f"deleted reminder {titles}", f"מחקתי את התזכורת {titles}"),
        )

    def _skipped_result(
        self, skipped: builtins.list[dict[str, str]], ctx: ExecutionContext
    ) -> ExecutionResult:
        lang = ctx.language
        first = skipped[0]
        occurrence = format_when(first["when"], lang, ctx.timezone)
        following = format_when(first["next"], lang, ctx.timezone) if first["next"] else ""
        en = f"skipped {quote(first['title'], lang)} on {occurrence}"
        he = f"דילגתי על {quote(first['title'], lang)} ב{occurrence}"
        if following:
            en += f"; the next one is {following}"
            he += f"; הבאה ב{following}"
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete",
            data={"skipped": skipped, "timezone": ctx.timezone},
            external_ids={"reminderId": first["id"]},
            summary=say(lang, en, he),
        )

    def delete_all(self, args: DeleteAllRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        undo = undo_for(ctx, self._clock())
        if args.reminder_ids is None:
            ids = [r.reminder_id for r in self._repo.list_reminders(ctx.thread_id)]
        else:
            ids = list(dict.fromkeys(args.reminder_ids))  # pinned at resolution: no read first
        deleted: list[str] = []
        changed: list[dict[str, str]] = []
        gone = 0
        for reminder_id in ids:
            removal = self._remove(reminder_id, undo, ctx)
            if removal.status == "deleted":
                deleted.append(reminder_id)
            elif removal.status == "changed" and removal.item is not None:
                changed.append(_brief(removal.item, lang))
            else:
                gone += 1
        if not deleted and changed:
            return _changed_failure("delete_all", changed, ctx)
        data: dict[str, object] = {"count": len(deleted), **(undo_data(undo) if deleted else {})}
        if changed:
            data.update({CHANGED: changed, "timezone": ctx.timezone})
        if gone:
            data[GONE] = gone
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete_all",
            data=data,
            external_ids={"reminderIds": deleted} if deleted else {},
            summary=say(
                lang, f"deleted all reminders ({len(deleted)})", f"מחקתי את כל התזכורות ({len(deleted)})"
            ),
        )

    def snooze(self, args: SnoozeReminderArgs, ctx: ExecutionContext) -> ExecutionResult:
        """ "Snooze 10 min" on a delivered reminder: a one-time reminder again, `minutes` from now.
        A one-time reminder is moved; a repeating one keeps its series and gets a one-time copy."""
        lang = ctx.language
        now = self._clock()
        reminder = self._repo.get_reminder(ctx.thread_id, args.reminder_id)
        if reminder is None:
            return _not_found("snooze", lang)
        when = (now + timedelta(minutes=args.minutes)).replace(second=0, microsecond=0)
        if reminder.recurrence is not None:
            snoozed: Reminder | None = self._one_time_copy(
                reminder, ctx, when=when, title=reminder.title, now=now
            )
        else:
            name = self._scheduler.schedule(
                reminder_id=reminder.reminder_id, thread_id=ctx.thread_id, at=when, timezone=reminder.timezone
            )
            snoozed = self._repo.update_reminder(
                ctx.thread_id, reminder.reminder_id, due_at=when, schedule_name=name, changed_at=now
            )
            if snoozed is None:
                self._scheduler.cancel(name)
                return _not_found("snooze", lang)
        assert snoozed is not None
        when_text = format_when(when, lang, ctx.timezone)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="snooze",
            data={**_brief(snoozed, lang), "minutes": args.minutes, "timezone": ctx.timezone},
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
            return _not_found("done", lang)
        data: dict[str, object] = {**_brief(reminder, lang), "timezone": ctx.timezone}
        title = quote(reminder.title, lang)
        if reminder.recurrence is None:
            if reminder.status == "scheduled":  # snoozed, then done: no second delivery
                self._scheduler.cancel(reminder.schedule_name or schedule_name_for(reminder.reminder_id))
                self._repo.mark_reminder_sent(ctx.thread_id, reminder.reminder_id, sent_at=self._clock())
            summary = say(lang, f"marked {title} done", f"סימנתי את {title} כבוצע")
        else:
            following = format_when(reminder.due_at, lang, ctx.timezone)
            data["next"] = reminder.due_at.isoformat()
            summary = say(
                lang,
                f"marked {title} done for this time; the next one is {following}",
                f"סימנתי את {title} כבוצע להפעם; הבאה ב{following}",
            )
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="done",
            data=data,
            external_ids={"reminderId": reminder.reminder_id},
            summary=summary,
        )
