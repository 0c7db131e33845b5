"""Reminders: create, list, update (move / rename), delete, delete_all.

Each reminder is one item (`memo.capabilities.items.Reminder`) and one one-time schedule. Create
schedules first and then writes the item (a rejected schedule leaves nothing behind); a retried
create reuses its deterministic id, so the schedule is replaced and the item put is a no-op.
Delete cancels the schedule before deleting the item, so a retry after a partial failure finishes
the job. Args carry ids chosen by entity resolution; a reminder that vanished since is NOT_FOUND.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from zoneinfo import ZoneInfo

from pydantic import AwareDatetime, Field, model_validator

from memo.capabilities.base import ExecutionContext, ExecutionResult, ReminderScheduler
from memo.capabilities.common import NOT_FOUND, TIME_IN_PAST, Args, entity_id, failure, say
from memo.capabilities.items import Reminder
from memo.capabilities.scheduler import schedule_name_for
from memo.capabilities.store import ItemsRepository
from memo.observability import logger
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.wording import quote

CAPABILITY = "reminders"


class CreateReminderArgs(Args):
    title: str = Field(min_length=1)
    when: AwareDatetime
    phone_number_id: str | None = None


class ListRemindersArgs(Args):
    day: date | None = None


class UpdateReminderArgs(Args):
    reminder_ids: list[str] = Field(min_length=1)
    when: AwareDatetime | None = None
    title: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _something_to_change(self) -> UpdateReminderArgs:
        if self.when is None and self.title is None:
            raise ValueError("an update needs a new time or a new title")
        return self


class DeleteRemindersArgs(Args):
    reminder_ids: list[str] = Field(min_length=1)


class DeleteAllRemindersArgs(Args):
    # The reminders "all" meant when the plan was resolved (and approved): a reminder created
    # afterwards is not deleted by an older approval. None: every reminder (no pinned set).
    reminder_ids: list[str] | None = None


def _brief(reminder: Reminder) -> dict[str, str]:
    return {"id": reminder.reminder_id, "title": reminder.title, "when": reminder.due_at.isoformat()}


def _not_found(action: str, language: Language) -> ExecutionResult:
    return failure(
        CAPABILITY,
        action,
        NOT_FOUND,
        say(language, "I couldn't find that reminder anymore.", "לא מצאתי את התזכורת הזאת יותר."),
    )


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
            return failure(
                CAPABILITY,
                "create",
                TIME_IN_PAST,
                say(lang, "That time has already passed.", "הזמן הזה כבר עבר."),
            )
        reminder_id = entity_id(ctx)
        name = self._scheduler.schedule(
            reminder_id=reminder_id, thread_id=ctx.thread_id, at=args.when, timezone=ctx.timezone
        )
        reminder = Reminder(
            reminder_id=reminder_id,
            thread_id=ctx.thread_id,
            title=args.title,
            due_at=args.when,
            timezone=ctx.timezone,
            schedule_name=name,
            created_at=now,
            phone_number_id=args.phone_number_id or ctx.phone_number_id,
        )
        if not self._repo.put_reminder(reminder):
            logger.info("REMINDER_CREATE_REPLAYED", extra={"reminderId": reminder_id})
        when_text = format_when(args.when, lang, ctx.timezone)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="create",
            data={"title": args.title, "when": args.when.isoformat(), "timezone": ctx.timezone},
            external_ids={"reminderId": reminder_id},
            summary=say(
                lang,
                f"reminder {quote(args.title, lang)} for {when_text}",
                f"תזכורת {quote(args.title, lang)} ל{when_text}",
            ),
            when=args.when,
        )

    def list(self, args: ListRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        reminders = self._repo.list_upcoming_reminders(ctx.thread_id, self._clock())
        if args.day is not None:
            zone = ZoneInfo(ctx.timezone)
            reminders = [r for r in reminders if r.due_at.astimezone(zone).date() == args.day]
        data: dict[str, object] = {"reminders": [_brief(r) for r in reminders], "timezone": ctx.timezone}
        if args.day is not None:
            data["day"] = args.day.isoformat()
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
            return failure(
                CAPABILITY,
                "update",
                TIME_IN_PAST,
                say(lang, "That time has already passed.", "הזמן הזה כבר עבר."),
            )
        updated: list[dict[str, str]] = []
        ids: list[str] = []
        for reminder_id in args.reminder_ids:
            before = self._repo.get_reminder(ctx.thread_id, reminder_id)
            if before is None:
                continue
            name: str | None = None
            if args.when is not None:
                name = self._scheduler.schedule(
                    reminder_id=reminder_id, thread_id=ctx.thread_id, at=args.when, timezone=before.timezone
                )
            after = self._repo.update_reminder(
                ctx.thread_id, reminder_id, title=args.title, due_at=args.when, schedule_name=name
            )
            if after is None:
                if name is not None:
                    self._scheduler.cancel(name)  # deleted meanwhile: leave no schedule behind
                continue
            ids.append(reminder_id)
            updated.append(
                {**_brief(after), "previousTitle": before.title, "previousWhen": before.due_at.isoformat()}
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

    def delete(self, args: DeleteRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        deleted: list[dict[str, str]] = []
        for reminder_id in args.reminder_ids:
            reminder = self._repo.get_reminder(ctx.thread_id, reminder_id)
            if reminder is None:
                continue
            self._scheduler.cancel(reminder.schedule_name or schedule_name_for(reminder_id))
            gone = self._repo.delete_reminder(ctx.thread_id, reminder_id)
            if gone is not None:
                deleted.append(_brief(gone))
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
                "missing": len(args.reminder_ids) - len(deleted),
                "timezone": ctx.timezone,
            },
            external_ids={"reminderId": ids[0]} if len(ids) == 1 else {"reminderIds": ids},
            summary=say(lang, f"deleted reminder {titles}", f"מחקתי את התזכורת {titles}"),
        )

    def delete_all(self, args: DeleteAllRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        deleted: list[str] = []
        if args.reminder_ids is None:
            reminders = self._repo.list_reminders(ctx.thread_id)
        else:
            found = (self._repo.get_reminder(ctx.thread_id, rid) for rid in args.reminder_ids)
            reminders = [r for r in found if r is not None]
        for reminder in reminders:
            if reminder.status == "scheduled":
                self._scheduler.cancel(reminder.schedule_name or schedule_name_for(reminder.reminder_id))
            if self._repo.delete_reminder(ctx.thread_id, reminder.reminder_id) is not None:
                deleted.append(reminder.reminder_id)
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete_all",
            data={"count": len(deleted)},
            external_ids={"reminderIds": deleted} if deleted else {},
            summary=say(
                lang, f"deleted all reminders ({len(deleted)})", f"מחקתי את כל התזכורות ({len(deleted)})"
            ),
        )
