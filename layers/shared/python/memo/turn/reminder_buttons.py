"""A tap on a delivered reminder's "Done" / "Snooze 10 min" / "Snooze 1 hour" (`memo.reminders.buttons`).

A turn of its own, answered before anything else: one executor step (`reminders/done` or
`reminders/snooze`) for the reminder the button names. The executor's ledger runs it at most once
per tap (keyed by the tap's message id), the snooze is a one-time schedule, and the responder tells
the user what happened. A pending question of the thread is left as it is.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from memo.executor.contracts import ExecutionInput
from memo.executor.tasks import one_step_execution
from memo.observability import logger
from memo.planner.lexicon import clean
from memo.planner.timeparse import extract_when
from memo.reminders.buttons import ReminderButton
from memo.text.language import detect_language
from memo.turn.outcome import TurnContext, TurnOutcome

BUTTON_STEP_ID = "reminder_button"


def snoozed_to(ctx: TurnContext, button: ReminderButton, went_out: datetime) -> ReminderButton | None:
    """A snooze to a time typed ("snooze it until 5pm", "remind me again tomorrow", "תזכיר לי שוב
    מחר"): that time, a day alone at the time the reminder went out; None when the words are no
    time to come (they are read as any message)."""
    zone = ZoneInfo(ctx.profile.timezone)
    language = detect_language(button.to, ctx.profile.language)
    parsed = extract_when(button.to, now=ctx.now, timezone=ctx.profile.timezone, language=language)
    if parsed.problem is not None or parsed.recurrence is not None or clean(parsed.remainder):
        return None
    when = parsed.when
    if when is None and parsed.day is not None:
        at = went_out.astimezone(zone).time().replace(second=0, microsecond=0)
        when = datetime.combine(parsed.day, at, tzinfo=zone)
    if when is None or when <= ctx.now:
        return None
    return replace(button, to="", at=when)


def button_execution(ctx: TurnContext, button: ReminderButton) -> ExecutionInput:
    args = button.args()
    return one_step_execution(
        trace_id=ctx.trace_id,
        thread_id=ctx.message.thread_id,
        phone_number_id=ctx.message.phone_number_id,
        language=ctx.profile.language,
        timezone=ctx.profile.timezone,
        step_id=BUTTON_STEP_ID,
        capability="reminders",
        action=button.action,
        args=args,
    )


def handle_button(ctx: TurnContext, button: ReminderButton) -> TurnOutcome:
    """The button's step, started once the turn's write has claimed the tap."""
    logger.info("REMINDER_BUTTON", extra={"action": button.action, "reminderId": button.reminder_id})
    return TurnOutcome(reply=None, outcome=f"reminder_{button.action}", start=button_execution(ctx, button))
