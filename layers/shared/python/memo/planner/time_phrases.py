"""One time resolver for both planners. The rule planner's matchers read the time words of a message
with `memo.planner.timeparse` (through `match.parse_when`); the LLM planner only copies the words of
each time and says their role, and this module turns them into the same step keys with the same
parser, so a time is computed one way whoever read the message (a model is unreliable at date
arithmetic: it never writes a datetime Memo keeps).

| role | the model writes | on | becomes |
|---|---|---|---|
| when (with every / until) | `constraints.whenText`: "tomorrow at 6:15pm", "every weekday at 7 until June" | reminders/create | `when` (and `recurrence`); a day alone: `day`, and the time is asked |
| move to | `changes.whenText`: "friday at 10", "9" | reminders/update | `when`, `time` (the reminder keeps its day), `day` (it keeps its time), or `when` + `recurrence` |
| snooze / move by | `changes.shiftText`: "by an hour", "10 minutes earlier" | reminders/update | `shiftMinutes` (later unless the words say earlier) |
| days shown | `constraints.dayText`: "tomorrow", "next week" | reminders/list | `day` (and `until`) |

The rules of ambiguity are the parser's (`docs/understanding.md`, "Times"): an hour without am/pm is
its next occurrence within waking hours; a time that does not exist or has passed, or a phrase that
names no time, is asked (`time_unclear`, or the problem's own field), never guessed. Computed keys a
model writes anyway (`when`, `day`, `time`, `recurrence`, `shiftMinutes`, `until`) are dropped.
"""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.reminder_queries import shown_days
from memo.planner.intents.reminders import TIME_PROBLEMS
from memo.planner.lexicon import clean
from memo.planner.match import iso, parse_when, shift_of

#: The keys only the resolver writes.
COMPUTED = frozenset({"when", "day", "time", "eitherHalf", "recurrence", "shiftMinutes", "until"})
#: The keys the model writes a time's words in.
PHRASES = frozenset({"whenText", "shiftText", "dayText"})

Bag = dict[str, object]


def resolve_phrases(
    capability: str, action: str, constraints: Bag, changes: Bag, inp: PlannerInput
) -> tuple[Bag, Bag, list[str]]:
    """The step's constraints and changes with its time phrases resolved (and computed keys the
    model wrote dropped), and the missing fields its times leave."""
    when_said, day_said = _said(constraints.get("whenText")), _said(constraints.get("dayText"))
    move_said, shift_said = _said(changes.get("whenText")), _said(changes.get("shiftText"))
    constraints = {k: v for k, v in constraints.items() if k not in COMPUTED | PHRASES}
    changes = {k: v for k, v in changes.items() if k not in COMPUTED | PHRASES}
    missing: list[str] = []
    if capability != "reminders":
        return constraints, changes, missing
    if action == "create":
        timing, missing = _when(when_said, inp)
        constraints |= timing
    elif action == "update":
        timing, missing = _moved(move_said, shift_said, inp)
        changes |= timing
    elif action == "list" and day_said:
        constraints |= shown_days(day_said, inp)
    return constraints, changes, missing


def _said(value: object) -> str:
    return clean(value) if isinstance(value, str) else ""


def _when(said: str, inp: PlannerInput) -> tuple[Bag, list[str]]:
    """A new reminder's time, as the rule planner's `reminders.create` reads it."""
    if not said:
        return {}, ["reminder_time_required"]
    parsed = parse_when(said, inp)
    timing: Bag = {"recurrence": parsed.recurrence} if parsed.recurrence is not None else {}
    if parsed.problem is not None:
        return {}, [TIME_PROBLEMS[parsed.problem], "reminder_time_required"]
    if not parsed.found or _unread(parsed.remainder):
        # No time in the words, or words of it left unread ("every second day at 8"): a part of the
        # time would be lost (a series set once), so it is asked.
        return {}, ["time_unclear", "reminder_time_required"]
    if parsed.when is not None and parsed.when > inp.now:
        return timing | {"when": iso(parsed.when)}, []
    if parsed.day is not None:
        timing["day"] = parsed.day.isoformat()
    return timing, ["reminder_time_required"]


def _moved(said: str, shift: str, inp: PlannerInput) -> tuple[Bag, list[str]]:
    """A reminder's new time (moved to a time, or by an amount), as the rule planner's moves read it."""
    if shift:
        amount = shift_of("push", shift)
        return ({"shiftMinutes": amount[0]}, []) if amount is not None else ({}, ["time_unclear"])
    if not said:
        return {}, []
    parsed = parse_when(said, inp)
    if parsed.problem is not None:
        return {}, [TIME_PROBLEMS[parsed.problem], "time_unclear"]
    change = parsed.change()
    return (change, []) if change and not _unread(parsed.remainder) else ({}, ["time_unclear"])


def _unread(remainder: str) -> bool:
    """Whether the parser left words of a time phrase unread (punctuation and "to"/"for" aside)."""
    return bool(re.sub(r"[\W_]+|\b(?:to|for|on|at|by|the|ל|ב)\b", "", remainder, flags=re.I))
