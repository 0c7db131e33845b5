"""Reminder deletes: the pinned reminders, or all of them; "just this one" of a series skips it.

Delete and delete_all do not read before they write: each pinned reminder of a delete is tombstoned
by one conditional write (`ItemsRepository.remove_reminder`) that returns it as it was, those of a
delete_all by one transaction (`remove_reminders`, which carries the executor's claim of the step
when it asks: `ExecutionContext.first_write`, completed when that one transaction is the whole
delete), and only then is a schedule cancelled (a tombstoned reminder is `cancelled`, so no delivery
can claim it meanwhile). A retry of the step after a partial failure finds its own tombstones and
counts them again; a schedule whose cancel failed is deleted by its delivery, which finds its
reminder gone (`memo.reminders.deliver`). The condition carries what the approval pinned: a reminder that is gone is
counted as gone, one whose title, time or series changed after the question was asked
(`ExecutionContext.unchanged_since`) is left alone — schedule included — and named in the result
(`changed`); nothing else is touched. A reminder that vanished since is NOT_FOUND; every one changed
since the approval is CHANGED_SINCE_APPROVAL.
"""

from __future__ import annotations

from datetime import datetime

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.capabilities.common import CHANGED, GONE, say, undo_data, undo_for
from memo.capabilities.items import Deletion, Reminder, Tombstone
from memo.capabilities.reminder_args import (
    OCCURRENCE,
    DeleteAllRemindersArgs,
    DeleteRemindersArgs,
    split_scoped,
)
from memo.capabilities.reminder_results import (
    CAPABILITY,
    brief,
    changed_failure,
    in_period,
    not_found,
    too_many_skips,
)
from memo.capabilities.reminder_schedule import ChangedSince, ReminderSchedule
from memo.capabilities.scheduler import schedule_name_for
from memo.errors import ServiceFault
from memo.observability import logger
from memo.text.dates import format_times, format_when
from memo.text.language import Language
from memo.text.series import MOST_SKIPPED, TooManySkips
from memo.text.wording import quote


class ReminderDeletes(ReminderSchedule):
    def _remove(self, reminder_id: str, undo: Tombstone, ctx: ExecutionContext) -> Deletion[Reminder]:
        """Tombstone one pinned reminder (one conditional write), then cancel its schedule."""
        removal = self._repo.remove_reminder(
            ctx.thread_id, reminder_id, undo=undo, unchanged_since=ctx.unchanged_since
        )
        if removal.status == "deleted" and removal.item is not None and removal.item.status == "scheduled":
            self._scheduler.cancel(removal.item.schedule_name or schedule_name_for(reminder_id))
        return removal

    def _cancel_or_leave(self, schedule_name: str) -> None:
        """Cancel the schedule of a deleted reminder. The step may be completed already (its claim
        completed in the deletes' transaction): a fault is not the step's to retry then, and the
        schedule is left to its delivery, which finds its reminder gone and deletes it."""
        try:
            self._scheduler.cancel(schedule_name)
        except ServiceFault as exc:
            logger.warning(
                "REMINDER_SCHEDULE_LEFT", extra={"scheduleName": schedule_name, "error": type(exc).__name__}
            )

    def delete(self, args: DeleteRemindersArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        undo = undo_for(ctx, self._clock())  # tombstoned: "Undo" can restore it for 10 minutes
        deleted: list[dict[str, str]] = []
        skipped: list[dict[str, str]] = []
        changed: list[dict[str, str]] = []
        refused: list[dict[str, str]] = []  # already skipping `MOST_SKIPPED` stretches ahead
        for scoped in args.reminder_ids:
            reminder_id, scope = split_scoped(scoped)
            if scope == OCCURRENCE:
                # "this one" of a repeating reminder: the series skips its next time and goes on
                # (a one-time reminder has no series: it is deleted).
                reminder = self._repo.get_reminder(ctx.thread_id, reminder_id)
                if reminder is None:
                    continue
                if reminder.recurrence is not None:
                    try:
                        skipped.extend(self._skipped(reminder, args, undo, ctx))
                    except TooManySkips:
                        refused.append(brief(reminder, lang))
                    except ChangedSince as since:  # its times are not the ones the approval showed
                        changed.append(brief(since.reminder, lang))
                    continue
            removal = self._remove(reminder_id, undo, ctx)
            if removal.status == "deleted" and removal.item is not None:
                deleted.append(brief(removal.item, lang))
            elif removal.status == "changed" and removal.item is not None:
                changed.append(brief(removal.item, lang))
        if refused and not skipped and not deleted:
            return too_many_skips(refused, lang)
        if skipped and not deleted:
            return self._skipped_result(skipped, undo, ctx, refused)
        if not deleted and changed:
            failed = changed_failure("delete", changed, ctx)
            if all(split_scoped(s)[1] == OCCURRENCE for s in args.reminder_ids):
                # what was left alone was a skip: "I didn't skip ..."
                return failed.model_copy(update={"data": {**failed.data, "skip": True}})
            return failed
        if not deleted:
            return not_found("delete", lang)
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

    def _skipped(
        self, reminder: Reminder, args: DeleteRemindersArgs, undo: Tombstone, ctx: ExecutionContext
    ) -> list[dict[str, str]]:
        """Skip the next time of a series, or each of its times on the days the skip named; the
        skipped times are kept for "Undo", as a change's are (`Revision`). What the result says of
        it (nothing: it does not come on those days)."""
        if args.skip_from is None or args.skip_until is None:
            after = self.skip(reminder, self._clock(), undo=undo, unchanged_since=ctx.unchanged_since)
            return [{**brief(reminder, ctx.language), "next": after.due_at.isoformat() if after else ""}]
        days = (args.skip_from, args.skip_until)
        after, times = self.skip_on(
            reminder, days, ctx.timezone, self._clock(), undo=undo, unchanged_since=ctx.unchanged_since
        )
        if not times:
            return []
        row = in_period(brief(reminder, ctx.language), times)  # the times as a listing says them
        return [{**row, "next": after.due_at.isoformat() if after else ""}]

    def _skipped_result(
        self,
        skipped: list[dict[str, str]],
        undo: Tombstone,
        ctx: ExecutionContext,
        refused: list[dict[str, str]],
    ) -> ExecutionResult:
        lang = ctx.language
        first = skipped[0]
        en, he = _skipped_times(first, lang, ctx.timezone)
        following = format_when(first["next"], lang, ctx.timezone) if first["next"] else ""
        if following and datetime.fromisoformat(first["next"]) < datetime.fromisoformat(first["when"]):
            # "skip pills on friday" on a Monday: its next time comes before the day skipped.
            en += f"; it still comes on the other days (next: {following})"
            he += f"; בשאר הימים היא עדיין מגיעה (הבאה: {following})"
        elif following:
            en += f"; the next one is {following}"
            he += f"; הבאה ב{following}"
        if refused:
            names = ", ".join(quote(r["title"], lang) for r in refused)
            en += f"; {names} already skips {MOST_SKIPPED} stretches of days ahead, so I left it as it is"
            he += f"; {names} כבר מדלגת על {MOST_SKIPPED} תקופות קדימה, אז השארתי אותה כמו שהיא"
        return ExecutionResult(
            success=True,
            capability=CAPABILITY,
            action="delete",
            data={"skipped": skipped, "timezone": ctx.timezone, **undo_data(undo)},
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
        if ctx.first_write is not None:
            # What one transaction deletes is the whole result: its claim can complete the step.
            ctx.first_write.completed_as(lambda written: _deleted_all(list(written), [], 0, undo, ctx))
        deleted: list[str] = []
        changed: list[dict[str, str]] = []
        gone = 0
        removals = self._repo.remove_reminders(
            ctx.thread_id, ids, undo=undo, unchanged_since=ctx.unchanged_since, first_write=ctx.first_write
        )
        for reminder_id, removal in removals.items():
            if removal.status == "deleted":
                deleted.append(reminder_id)
            elif removal.status == "changed" and removal.item is not None:
                changed.append(brief(removal.item, lang))
            else:
                gone += 1
        # The transaction returns no item: every reminder's schedule is named by its id, and one
        # already gone (sent, or cancelled by an earlier attempt) is fine to cancel.
        for reminder_id in deleted:
            self._cancel_or_leave(schedule_name_for(reminder_id))
        if not deleted and changed:
            return changed_failure("delete_all", changed, ctx)
        return _deleted_all(deleted, changed, gone, undo, ctx)


def _deleted_all(
    deleted: list[str],
    changed: list[dict[str, str]],
    gone: int,
    undo: Tombstone,
    ctx: ExecutionContext,
) -> ExecutionResult:
    """The result of a delete_all that deleted `deleted`, left `changed` alone and found `gone`
    missing (what the step's replay keeps of it depends on `deleted` alone), with their titles
    when the person was shown each one's (`ExecutionContext.titles`)."""
    data: dict[str, object] = {"count": len(deleted), **(undo_data(undo) if deleted else {})}
    titles = ctx.titles
    if deleted and titles and all(i in titles for i in deleted):
        data["titles"] = [titles[i] for i in deleted]
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
        # The count, not "all": an approval may have kept some ("only 1 and 3").
        summary=say(
            ctx.language,
            "deleted 1 reminder" if len(deleted) == 1 else f"deleted {len(deleted)} reminders",
            "מחקתי תזכורת אחת" if len(deleted) == 1 else f"מחקתי {len(deleted)} תזכורות",
        ),
    )


def _skipped_times(skipped: dict[str, str], lang: Language, timezone: str) -> tuple[str, str]:
    """ "skipped “gym” on Tue 1 Dec, 19:00", "... on Tue 1 Dec, 19:00 and Thu 3 Dec, 19:00", or
    "skipped “pills” 7 times, Sun 29 Nov, 08:00 to Sat 5 Dec, 08:00", in English and Hebrew."""
    title = quote(skipped["title"], lang)
    times = skipped.get("times") or "1"
    said = format_times(skipped["when"], skipped.get("last"), times, lang, timezone)
    if times in ("1", "2"):
        return f"skipped {title} on {said}", f"דילגתי על {title} ב{said}"
    return f"skipped {title} {said}", f"דילגתי על {title} {said}"
