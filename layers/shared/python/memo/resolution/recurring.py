"""Repeating reminders in entity resolution: "this one or the whole series?".

A delete or a time change that finds exactly one reminder, a repeating one, and whose words did not
say which part ("just this one", "the whole series", "רק הפעם הזאת", "כל הסדרה") asks: a
`recurring_scope` disambiguation with two candidates, the next occurrence and the series. The
candidates' ids are the reminder id with its scope (`memo.capabilities.reminder_args.scoped_id`), so the
usual selection path turns the answer into executor args the capability reads. A rename applies to
the series and asks nothing. A scope the words named is written into the ids directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from memo.capabilities.common import say
from memo.capabilities.items import Reminder
from memo.capabilities.reminder_args import OCCURRENCE, SERIES, scoped_id
from memo.capabilities.reminder_results import occurrence_moved, on_days
from memo.domain import DisambiguationCandidate, PlanStep
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.series import occurrences_on
from memo.text.series_words import describe

_SCOPED_ACTIONS = frozenset({"update", "delete"})


def with_scope(
    semantic_args: dict[str, Any], ids: Sequence[str], once: frozenset[str] = frozenset()
) -> tuple[dict[str, Any], list[str]]:
    """The args without `scope`, and the ids carrying it; the one-time reminders among them (`once`)
    have no part to name, so their ids do not (their approval names no "next time" or "series")."""
    args = dict(semantic_args)
    scope = args.pop("scope", None)
    if scope not in (OCCURRENCE, SERIES):
        return args, list(ids)
    return args, [i if i in once else scoped_id(i, str(scope)) for i in ids]


def scope_question(
    step: PlanStep,
    semantic_args: dict[str, Any],
    ids: Sequence[str],
    reminders: Callable[[], Sequence[Reminder]],
    *,
    language: Language,
    timezone: str,
) -> list[DisambiguationCandidate] | None:
    """The two candidates to ask between, or None when nothing needs asking. `reminders` loads the
    user's upcoming reminders, and is called only when the step could need the question."""
    if step.capability != "reminders" or step.action not in _SCOPED_ACTIONS or len(ids) != 1:
        return None
    if "scope" in semantic_args:
        return None
    if step.action == "update" and not {"when", "time", "day", "shiftMinutes"} & semantic_args.keys():
        return None  # a new title is the series' title
    if {"recurrence", "endsOn", "hours"} & semantic_args.keys():
        return None  # a new repetition, its last day or its hours are the series' own

    reminder = next((r for r in reminders() if r.reminder_id == ids[0]), None)
    if reminder is None or reminder.recurrence is None:
        return None
    this_time = _moved_time(reminder, semantic_args, timezone)
    next_time = format_when(this_time, language, timezone)
    return [
        DisambiguationCandidate(
            id=scoped_id(reminder.reminder_id, OCCURRENCE),
            label=say(language, "This one", "רק הפעם הזאת"),
            description=f"{reminder.title} — {next_time}",
            # "only tomorrow" picks it when that is its day (`memo.hitl.narrowing.this_time_by_day`)
            data={"day": this_time.astimezone(ZoneInfo(timezone)).date().isoformat()},
        ),
        DisambiguationCandidate(
            id=scoped_id(reminder.reminder_id, SERIES),
            label=say(language, "The whole series", "כל הסדרה"),
            description=f"{reminder.title} — {describe(reminder.recurrence, language)}",
        ),
    ]


def _moved_time(reminder: Reminder, semantic_args: dict[str, Any], timezone: str) -> datetime:
    """The time of the series "this one" is: the one the move takes (`occurrence_moved`) when a day
    was said, else its next time."""
    when, day = semantic_args.get("when"), semantic_args.get("day")
    if isinstance(day, str) and when is None:
        local = reminder.due_at.astimezone(ZoneInfo(reminder.timezone))
        when = datetime.combine(date.fromisoformat(day), local.time(), tzinfo=local.tzinfo)
    if isinstance(when, str):
        when = datetime.fromisoformat(when)
    if isinstance(when, datetime) and when.tzinfo is not None:
        return occurrence_moved(reminder, when, timezone)
    return reminder.due_at


def one_time(reminders: Callable[[], Sequence[Reminder]], ids: Sequence[str]) -> frozenset[str]:
    """Which of `ids` are one-time reminders."""
    return frozenset(r.reminder_id for r in reminders() if r.reminder_id in ids and r.recurrence is None)


def coming_within(
    ids: Sequence[str],
    within: dict[str, str],
    reminders: Callable[[], Sequence[Reminder]],
    *,
    language: Language,
    timezone: str,
) -> tuple[list[str], str | None]:
    """A skip that named its days ("skip next week", "skip the gym on thursday"): the reminders that
    come on them (a series on any of its times there, from its next one on), and, when none does,
    what to say. A reminder that does not come then is never skipped instead."""
    first, until = date.fromisoformat(within["from"]), date.fromisoformat(within["until"])
    by_id = {r.reminder_id: r for r in reminders()}
    shown = [by_id[i] for i in ids if i in by_id]
    times = on_days(shown, first, until - timedelta(days=1), timezone)
    kept = [i for i in ids if i in times]
    if kept:
        return kept, None
    if not shown:
        return [], say(language, "I couldn't find that one anymore.", "לא מצאתי את זה יותר.")
    when = format_when(shown[0].due_at, language, timezone)
    if shown[0].recurrence is None:
        return [], say(
            language,
            f"“{shown[0].title}” is on {when}, not then, so I haven't deleted anything.",
            f"„{shown[0].title}” קבועה ל{when}, לא אז, אז לא מחקתי כלום.",
        )
    return [], say(
        language,
        f"“{shown[0].title}” doesn't come then, so there's nothing to skip: its next time is {when}.",
        f"„{shown[0].title}” לא מגיעה אז, אז אין על מה לדלג: הפעם הבאה שלה היא {when}.",
    )


def upcoming(repository: Any, thread_id: str, now: datetime) -> Callable[[], list[Reminder]]:
    """The loader of the user's upcoming reminders (`ItemsReader.list_upcoming_reminders`): read on
    its first call only, and kept for the calls after it."""
    loaded: list[list[Reminder]] = []

    def load() -> list[Reminder]:
        if not loaded:
            loaded.append(repository.list_upcoming_reminders(thread_id, now))
        return loaded[0]

    return load


def next_times(
    ids: Sequence[str],
    times: int,
    reminders: Callable[[], Sequence[Reminder]],
    *,
    language: Language,
    timezone: str,
) -> tuple[dict[str, str] | None, str]:
    """The days of a series' next `times` times ("skip the next two vitamins"): from the day of its
    next one to the day after its last (days in `timezone`, the user's), so the skip takes those
    times and no other; or, when there is no such series or it comes more than once on one of those
    days (skipping the days would take more than was said), nothing and what to say."""
    by_id = {r.reminder_id: r for r in reminders()}
    shown = [by_id[i] for i in ids if i in by_id]
    if len(shown) != 1 or shown[0].recurrence is None:
        return None, say(
            language,
            "I can skip a number of times of one repeating reminder only, so I haven't skipped anything.",
            "אפשר לדלג על כמה פעמים רק של תזכורת חוזרת אחת, אז לא דילגתי על כלום.",
        )
    series = shown[0]
    upcoming = occurrences_on(
        series.recurrence or "",
        series.timezone,
        series.due_at,
        series.due_at.date(),
        date.max,
        limit=times + 1,
        skips=series.skips,
    )
    zone = ZoneInfo(timezone)
    days = [t.astimezone(zone).date() for t in upcoming]
    taken = days[:times]
    if len(taken) < times or len(set(taken)) < times or (len(days) > times and days[times] == taken[-1]):
        return None, say(
            language,
            f'“{series.title}” comes more than once a day, so I can skip it by its days only ("skip it tomorrow"); I haven\'t skipped anything.',
            f"„{series.title}” מגיעה יותר מפעם ביום, אז אפשר לדלג עליה רק לפי ימים („תדלג עליה מחר”); לא דילגתי על כלום.",
        )
    return {"from": taken[0].isoformat(), "until": (taken[-1] + timedelta(days=1)).isoformat()}, ""
