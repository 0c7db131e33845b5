"""What the reminder actions answer besides their successes: the brief of a reminder shown in a
result, and the failures they share (a time past, a series with no time left, a schedule refused,
a reminder gone, reminders changed after the approval).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.capabilities.common import (
    CHANGED,
    CHANGED_SINCE_APPROVAL,
    NOT_FOUND,
    NOT_REPEATING,
    REPEAT_TOO_LONG,
    TIME_IN_PAST,
    TOO_MANY_SKIPS,
    failure,
    say,
)
from memo.capabilities.items import Reminder
from memo.text.language import Language
from memo.text.series import MOST_SKIPPED, occurrences_on
from memo.text.series_words import describe
from memo.text.timezones import zone_place
from memo.text.wording import quote

#: At most this many times of one series are counted in a listing of days ("every hour" over a
#: year): past it the listing says "366+ times".
MOST_TIMES_COUNTED = 366

CAPABILITY = "reminders"


def brief(reminder: Reminder, language: Language = "en", zone: str | None = None) -> dict[str, str]:
    """A reminder as a result lists it. A series keeps the clock time of the zone it was set in, so
    when that is not `zone` (the user's now) how it repeats names its zone ("every Sunday at 10:00
    Israel time") beside its next time in the user's."""
    brief = {"id": reminder.reminder_id, "title": reminder.title, "when": reminder.due_at.isoformat()}
    if reminder.recurrence is not None:
        brief["repeats"] = describe(reminder.recurrence, language)
        if zone is not None and reminder.timezone != zone:
            place = zone_place(reminder.timezone, language)
            brief["repeats"] += f" לפי שעון {place}" if language == "he" else f" {place} time"
    return brief


def on_days(reminders: list[Reminder], first: date, last: date, timezone: str) -> dict[str, list[datetime]]:
    """Each reminder that comes from `first` to `last` (days in `timezone`, the user's) with its
    times then: a one-time reminder its one time, a series each of its times from its next one on
    (at most `MOST_TIMES_COUNTED`), so "what do I have on wednesday?" shows the daily pills too."""
    zone = ZoneInfo(timezone)
    found: dict[str, list[datetime]] = {}
    for reminder in reminders:
        if reminder.recurrence is None:
            times = [reminder.due_at]
        else:
            # Walked in the series' own zone, a day wider on each side, then kept by the user's days.
            times = occurrences_on(
                reminder.recurrence,
                reminder.timezone,
                reminder.due_at,
                first - timedelta(days=1),
                last + timedelta(days=1),
                limit=MOST_TIMES_COUNTED + 2,
                skips=reminder.skips,
            )
        times = [t for t in times if first <= t.astimezone(zone).date() <= last]
        if times:
            found[reminder.reminder_id] = times[: MOST_TIMES_COUNTED + 1]
    return found


def times_counted(times: list[datetime]) -> str:
    """How many times, as said: "7", or "366+" past `MOST_TIMES_COUNTED`."""
    return str(len(times)) if len(times) <= MOST_TIMES_COUNTED else f"{MOST_TIMES_COUNTED}+"


def in_period(row: dict[str, str], times: list[datetime] | None) -> dict[str, str]:
    """A listed reminder's row in a listing of days: a series says when it comes in them (its first
    and last time there, and how many; "366+" past the count) instead of its next time."""
    if times is None or "repeats" not in row:
        return row
    shown = {**row, "when": times[0].isoformat(), "times": times_counted(times)}
    if len(times) > 1:
        shown["last"] = times[-1].isoformat()
    return shown


def too_many_skips(refused: list[dict[str, str]], lang: Language) -> ExecutionResult:
    """A skip of days refused: the series already skips `MOST_SKIPPED` stretches ahead."""
    names = ", ".join(quote(r["title"], lang) for r in refused)
    return failure(
        CAPABILITY,
        "delete",
        TOO_MANY_SKIPS,
        say(
            lang,
            f"{names} already skips {MOST_SKIPPED} stretches of days ahead, so I haven't skipped more. "
            "You can stop it and set it again.",
            f"{names} כבר מדלגת על {MOST_SKIPPED} תקופות קדימה, אז לא דילגתי על עוד. "
            "אפשר לעצור אותה ולקבוע אותה מחדש.",
        ),
    )


def too_long(action: str, lang: Language) -> ExecutionResult:
    """A series that ends past the bound (`memo.text.recurrence_limits`): nothing is scheduled."""
    return failure(
        CAPABILITY,
        action,
        REPEAT_TOO_LONG,
        say(
            lang,
            "That repeats too far ahead or too many times for one reminder, so I haven't set it.",
            "זה חוזר רחוק מדי או יותר מדי פעמים בשביל תזכורת אחת, אז לא קבעתי אותה.",
        ),
    )


def no_time_left(action: str, lang: Language) -> ExecutionResult:
    """A series whose rule has no time left from its first one ("5 times" that all passed)."""
    return failure(
        CAPABILITY,
        action,
        TIME_IN_PAST,
        say(lang, "That series has no time left to run.", "לסדרה הזאת לא נשארו מועדים."),
    )


def in_past(action: str, language: Language) -> ExecutionResult:
    return failure(
        CAPABILITY, action, TIME_IN_PAST, say(language, "That time has already passed.", "הזמן הזה כבר עבר.")
    )


def rejected(language: Language, recurrence: str | None) -> str:
    if recurrence is None:
        return say(language, "I couldn't schedule that reminder.", "לא הצלחתי לתזמן את התזכורת.")
    return say(
        language,
        "I can't repeat a reminder that way — try e.g. “every Monday at 9”.",
        "אני לא יכול לחזור על תזכורת בצורה הזאת — נסו למשל „כל יום שני ב-9”.",
    )


def not_repeating(reminder: Reminder, language: Language) -> ExecutionResult:
    """ "stop it after friday" of a reminder that comes once: it has no end to change."""
    return failure(
        CAPABILITY,
        "update",
        NOT_REPEATING,
        say(
            language,
            f"{quote(reminder.title, language)} doesn't repeat, so it has no end to change; nothing was changed.",
            f"{quote(reminder.title, language)} לא חוזרת, אז אין לה סוף לשנות; לא שיניתי כלום.",
        ),
    )


def not_within_hours(reminder: Reminder, language: Language) -> ExecutionResult:
    """ "make it from 10 to 6" of a reminder that does not repeat within the hours of a day."""
    return failure(
        CAPABILITY,
        "update",
        NOT_REPEATING,
        say(
            language,
            f"{quote(reminder.title, language)} doesn't repeat within hours of the day, so it has no hours to "
            "change; nothing was changed. To have it come every hour, say so (e.g. “every hour from 10 to 6”).",
            f"{quote(reminder.title, language)} לא חוזרת בתוך שעות של היום, אז אין לה שעות לשנות; לא שיניתי "
            "כלום. כדי שתחזור כל שעה, תגידו (למשל „כל שעה מ-10 עד 18”).",
        ),
    )


def not_found(action: str, language: Language) -> ExecutionResult:
    return failure(
        CAPABILITY,
        action,
        NOT_FOUND,
        say(language, "I couldn't find that reminder anymore.", "לא מצאתי את התזכורת הזאת יותר."),
    )


def changed_failure(action: str, changed: list[dict[str, str]], ctx: ExecutionContext) -> ExecutionResult:
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


def occurrence_moved(reminder: Reminder, to: datetime, timezone: str) -> datetime:
    """Which time of a series "only this one" moves to `to`: its time on `to`'s day (in `timezone`,
    the user's) when it comes that day, the one nearest `to` when it comes several times ("move the
    vitamins on wednesday to 9am" moves Wednesday's 08:00, not the series' next time on Tuesday, so
    no day loses its time and none gets two), else its next time."""
    day = to.astimezone(ZoneInfo(timezone)).date()
    times = on_days([reminder], day, day, timezone).get(reminder.reminder_id, [])
    return min(times, key=lambda t: abs(t - to)) if times else reminder.due_at
