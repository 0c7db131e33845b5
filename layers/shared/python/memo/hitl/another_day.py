"""An answer to "What time on Mon 30 Nov?" that names another day: "actually tuesday", "בעצם
שלישי", "the week after". The reminder asked about moves to that day, and its time is still asked
(of the new day). A weekday alone is the one nearest the day it replaces ("next monday" changed to
"tuesday" is the day after it, not this week's Tuesday)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from memo.domain import PendingHITL, PlanStep, TurnState
from memo.hitl.plan_edits import origin_step, same_time_asked
from memo.planner.intents.corrections import ONE_AFTER
from memo.planner.lexicon import has_hebrew
from memo.planner.timeparse import extract_when

#: What leads a day said instead of the one asked about: "actually", "make it", "בעצם", "תעשה את זה".
_DAY_LEADS = re.compile(
    r"^(?:(?:actually|actualy|no|nope|wait|oops|sorry|ok|okay|hmm|then|or|בעצם|לא|רגע|אופס|סליחה|או)[\s,!.]+)*"
    r"(?:(?:make|change|move|set|switch)\s+it\s+(?:to\s+|for\s+)?"
    r"|(?:תעשה|תעשי|תשנה|תשני|תזיז|תזיזי|תעביר|תעבירי)\s+(?:את\s+)?(?:זה|זאת|אותה|אותו)\s+)?",
    re.I,
)
_INSTEAD = re.compile(r"[\s,]+(?:instead|במקום(?:\s+זה)?)\s*[.!]?$", re.I)


def another_day(state: TurnState, pending: PendingHITL, answer: str, now: datetime) -> PlanStep | None:
    """ "What time on Sun 29 Nov?" answered "actually monday": the reminder asked about, on that day
    (its time is still missing: the caller asks again, of the new day). None unless the question
    asks only the time of one reminder's day and the answer is a day alone, still to come."""
    step, output = origin_step(state, pending), state.planner_output
    if step is None or output is None or pending.reason != "missing_fields":
        return None
    missing = list((pending.context.missing_fields if pending.context else None) or output.missing_fields)
    if missing != ["reminder_time_required"] or same_time_asked(output, step, missing):
        return None
    if (step.capability, step.action) != ("reminders", "create") or not isinstance(
        step.constraints.get("day"), str
    ):
        return None
    tz, language = state.input.timezone, state.input.language
    if ONE_AFTER.match(answer.strip()):
        # "What time on Mon 30 Nov?" -> "actually the week after": Mon 7 Dec, its time still asked
        later = date.fromisoformat(str(step.constraints["day"])) + timedelta(weeks=1)
        return step.model_copy(update={"constraints": {**step.constraints, "day": later.isoformat()}})
    words = _INSTEAD.sub("", _DAY_LEADS.sub("", answer.strip(), count=1)).strip()
    # "שלישי" alone is also "third": asked which day, it is Tuesday.
    words = f"ביום {words}" if _HE_WEEKDAY_BARE.match(words) else words
    parsed = extract_when(words, now=now, timezone=tz, language="he" if has_hebrew(words) else language)
    if parsed.day is None or parsed.when is not None or parsed.named_time or parsed.recurrence is not None:
        return None
    today = now.astimezone(ZoneInfo(tz)).date()
    if re.sub(r"[\W_]+", "", parsed.remainder) or parsed.day < today:
        return None
    day = _weekday_near(parsed.day, date.fromisoformat(str(step.constraints["day"])), today, words)
    return step.model_copy(update={"constraints": {**step.constraints, "day": day.isoformat()}})


_HE_WEEKDAY_BARE = re.compile(r"^(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)\W*$")
#: "tuesday", "on tue", "ביום שלישי", "שלישי": a weekday alone, with no "next" or "this" to place it.
_WEEKDAY_ALONE = re.compile(
    r"^(?:on\s+)?(?:mon|tues?|wed(?:nes)?|weds|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\W*$"
    r"|^(?:ב?יום\s+)?(?:ראשון|שני|שלישי|רביעי|חמישי|שישי)\W*$|^(?:ב?שבת)\W*$",
    re.I,
)


def a_weekday_alone(words: str) -> bool:
    """ "tuesday", "on tue", "שלישי", "ביום שלישי": a weekday and nothing else."""
    return _WEEKDAY_ALONE.match(words.strip()) is not None


def _weekday_near(said: date, asked: date, today: date, words: str) -> date:
    """The day a weekday alone names in place of `asked`: the one nearest it ("next monday" changed
    to "tuesday" is the day after it, not this week's Tuesday); `said` (its next one) otherwise."""
    if not a_weekday_alone(words):
        return said
    weeks = [said + timedelta(weeks=n) for n in range(0, (asked - said).days // 7 + 2)]
    return min((d for d in weeks if d >= today), key=lambda d: (abs((d - asked).days), d))
