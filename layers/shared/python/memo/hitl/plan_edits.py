"""Plan edits: pure functions that apply a HITL answer to the turn's frozen plan.

`memo.hitl.resume` decides *what* an answer means; these functions change the plan accordingly:
- `fill_answer`: a missing_fields answer ("5pm", "call mom") written into the origin step;
- `merge_modifications` / `apply_modifications`: an approval's changes ("yes but at 6pm") merged into
  the origin step, with that step's resolver/executor caches cleared so it is resolved again;
- `bare_edit`: after "what should I change?", a bare time/date ("6pm", "מחר ב-9") read as the change.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from memo.domain import PendingHITL, PlannerOutput, PlanStep, TurnState
from memo.hitl.interpreter import normalize_modifications, sanitize_modifications
from memo.hitl.missing import satisfied_fields
from memo.planner.intents.month_series import SAID_MONTH, day_in_month
from memo.planner.intents.reminders import SAID_TIME
from memo.planner.lexicon import BARE_DURATION, clock_said_plainly, has_hebrew
from memo.planner.match import SHIFT_BY, SHIFT_DIRECTION_REQUIRED, shift_of
from memo.planner.timeparse import ParsedWhen, extract_when, parse_time_answer

_UPDATE_ACTIONS = frozenset({"update"})


def origin_step(state: TurnState, pending: PendingHITL) -> PlanStep | None:
    """The plan step the question was asked about, if the plan has it."""
    output = state.planner_output
    return output.step(pending.origin_step_id) if output is not None else None


def bare_edit(raw: str, step: PlanStep | None, state: TurnState, now: datetime) -> dict[str, Any] | None:
    """The modifications a bare time/date reply stands for ({"when": ...}); None if it is not one."""
    mods = sanitize_modifications(
        normalize_modifications(
            {"when": raw}, step=step, now=now, timezone=state.input.timezone, language=state.input.language
        )
    )
    return mods or None


def fill_answer(
    state: TurnState, pending: PendingHITL, answer: str | None, now: datetime
) -> TurnState | None:
    """For missing_fields, write the answer into the origin step; None if it does not fill them.

    Other reasons need no filling: the state is returned unchanged.
    """
    if pending.reason != "missing_fields" or answer is None:
        return state
    step = origin_step(state, pending)
    output = state.planner_output
    if step is None or output is None:
        return state
    missing = list((pending.context.missing_fields if pending.context else None) or output.missing_fields)
    filled_steps = []
    for asked in [step, *same_time_asked(output, step, missing)]:
        constraints, changes = dict(asked.constraints), dict(asked.changes)
        if SHIFT_DIRECTION_REQUIRED in missing:
            filled = _fill_direction(answer, changes)
        elif "reminder_time_required" in missing or "time_unclear" in missing:
            filled = _fill_time(state, asked, missing, answer, now, constraints, changes)
        else:
            filled = _fill_words(state, missing, answer, now, constraints, changes)
        if not filled:
            return None
        filled_steps.append(asked.model_copy(update={"constraints": constraints, "changes": changes}))
    return _replace_steps(state, output, filled_steps)


def same_time_asked(output: PlannerOutput, step: PlanStep, missing: list[str]) -> list[PlanStep]:
    """The other steps the time question asked about with `step`: "remind me on monday and
    wednesday to call mom" is one reminder on each day, the same title, each without its time; one
    answer ("10") sets each day's time. Nothing else in the plan takes the answer."""
    if missing != ["reminder_time_required"] or (step.capability, step.action) != ("reminders", "create"):
        return []
    title = step.constraints.get("title")
    return [
        other
        for other in output.plan
        if other.id != step.id
        and (other.capability, other.action) == ("reminders", "create")
        and other.constraints.get("title") == title
        and "when" not in other.constraints
        and ("day" in other.constraints) == ("day" in step.constraints)
        and ("recurrence" in other.constraints) == ("recurrence" in step.constraints)
    ]


def _fill_time(
    state: TurnState,
    step: PlanStep,
    missing: list[str],
    answer: str,
    now: datetime,
    constraints: dict[str, Any],
    changes: dict[str, Any],
) -> bool:
    """Write the time the answer says (and a title said with it, when that is missing too) into
    the step's bags; False when the answer names no future time the step can take."""
    tz, language = state.input.timezone, state.input.language
    bag = changes if step.action in _UPDATE_ACTIONS else constraints
    duration = BARE_DURATION.match(answer.strip())
    if duration is not None:
        # "When?" -> "10 min", "חצי שעה": that long from now.
        answer = f"{'בעוד' if has_hebrew(answer) else 'in'} {duration.group('amount')}"
    answer = clock_said_plainly(answer)  # "1730", "9ish", "tmrw 9"
    month = constraints.pop(SAID_MONTH, None)
    if isinstance(month, int):
        # "every march" -> "Which day of March?" -> "the 5th": March 5.
        answer = day_in_month(answer, month, hebrew=has_hebrew(answer) or language == "he")
    parsed = extract_when(answer, now=now, timezone=tz, language=language, default_day=_known_day(bag))
    said = constraints.pop(SAID_TIME, None)
    if isinstance(said, str) and parsed.when is None and not parsed.named_time:
        # The hour said with the question's request ("every 5 months at 9" -> "every 6 months").
        answer = f"{answer} {'ב-' if has_hebrew(answer) else 'at '}{said}"
        parsed = extract_when(answer, now=now, timezone=tz, language=language, default_day=_known_day(bag))
    if parsed.when is not None and "reminder_title_required" not in missing and says_more(parsed.remainder):
        # "When?" -> "remnd me in 2 hours to call grandma": a time inside a request of its own is
        # no answer for this reminder (asked again, nothing set).
        return False
    when = _answered_when(answer, parsed, now, state, bag, constraints)
    if when is not None and step.action == "create":
        when = _before_the_event(state, answer, when, now, constraints, bag)
    if when is None or when <= now or not _in_month(when, month, tz, parsed.explicit_day):
        return False
    if parsed.recurrence is not None:
        # "every sunday at 8": the reminder repeats. A step that cannot repeat asks again rather
        # than keeping only the first time.
        if not _repeats(step):
            return False
        bag["recurrence"] = parsed.recurrence
    bag["when"] = when.isoformat()
    bag.pop("day", None)
    if "reminder_title_required" in missing and not constraints.get("title"):
        from memo.planner.intents.reminders import answered_title  # the planner's words, when asked

        # The words beside the time ("buy stamps at 9"); a bare time ("1", read as 13:00) or a
        # number is no task, and both are asked again.
        title = answered_title(parsed.remainder) if parsed.when is not None else None
        if not title:
            return False
        constraints["title"] = title
    return True


def _in_month(when: datetime, month: object, timezone: str, day_said: bool) -> bool:
    """Whether `when` is on a day said in the month the question asked a day of (any time when
    none was asked): "at 10" or "april 5" is no answer to "Which day of March?"."""
    return not isinstance(month, int) or (day_said and when.astimezone(ZoneInfo(timezone)).month == month)


def outside_the_month_asked(step: PlanStep, modifications: dict[str, Any], timezone: str) -> bool:
    """Whether an edit moves a step whose day of a month was asked ("every march" -> "Which day of
    March?") to a day of another month ("ב-5 באפריל"): no answer to the question, which is asked
    again."""
    month = step.constraints.get(SAID_MONTH)
    if not isinstance(month, int):
        return False
    for key in ("when", "day"):
        value = modifications.get(key)
        if isinstance(value, str):
            try:
                said = datetime.fromisoformat(value)
            except ValueError:
                return True
            local = said.astimezone(ZoneInfo(timezone)) if said.tzinfo is not None else said
            if local.month != month:
                return True
    return False


def _before_the_event(
    state: TurnState,
    answer: str,
    when: datetime,
    now: datetime,
    constraints: dict[str, Any],
    bag: dict[str, Any],
) -> datetime:
    """The time of a reminder set ahead of an event its title names: "remind me 15 minutes before
    my meeting" -> "When?" -> "3pm" is 14:45, not 15:00 (the title loses the lead words)."""
    title = constraints.get("title")
    if not isinstance(title, str):
        return when
    tz, language = state.input.timezone, state.input.language
    led = extract_when(
        f"{title} {answer}", now=now, timezone=tz, language=language, default_day=_known_day(bag)
    )
    if led.lead_for is None or led.when is None or not led.remainder:
        return when
    from memo.planner.intents.reminders import lead_title

    constraints["title"] = lead_title(led.remainder, led.lead_for)
    return led.when


_LATER = re.compile(
    r"\b(?:later|after|back|push(?:\s+it)?|delay|postpone)\b|מאוחר\s+יותר|אחר\s+כך|לדחות|תדחה|תדחי|אחרי", re.I
)
_EARLIER = re.compile(
    r"\b(?:earlier|before|sooner|bring\s+it\s+forward)\b|מוקדם\s+יותר|קודם|להקדים|תקדים|תקדימי|לפני", re.I
)


_NOT = re.compile(r"\b(?:not|don'?t|no|never)\b|(?<![\u05d0-\u05ea])(?:לא|אל)(?![\u05d0-\u05ea])", re.I)


def _fill_direction(answer: str, changes: dict[str, Any]) -> bool:
    """ "move it an hour" -> "Earlier or later?" -> "later" (or "2 hours later", which says its own
    amount): the shift, signed. An answer that says both ways or neither fills nothing (asked again)."""
    if _NOT.search(answer):
        return False  # "not later", "לא מוקדם": a way said with a "not" is asked again, never read
    amount = changes.get(SHIFT_BY)
    own = shift_of("move", answer.strip())
    if own is not None and not own[1]:
        minutes = own[0]
    elif isinstance(amount, int) and bool(_LATER.search(answer)) != bool(_EARLIER.search(answer)):
        minutes = amount if _LATER.search(answer) else -amount
    else:
        return False
    changes.pop(SHIFT_BY, None)
    changes["shiftMinutes"] = minutes
    return True


def _fill_words(
    state: TurnState,
    missing: list[str],
    answer: str,
    now: datetime,
    constraints: dict[str, Any],
    changes: dict[str, Any],
) -> bool:
    """Write a title, a note's text, list items or a target the answer gives into the step's bags;
    False when the answer does not give what was asked."""
    if "reminder_title_required" in missing:
        tz, language = state.input.timezone, state.input.language
        if extract_when(answer, now=now, timezone=tz, language=language).found:
            # "remind me about it tomorrow": a new time with it is a new request, not this title.
            return False
        from memo.planner.intents.reminders import answered_title  # the planner's words, when asked

        named = answered_title(answer)
        if named is None:
            return False
        constraints["title"] = named
    elif "note_text_required" in missing:
        # "save this as a note" -> "What should the note say?" -> the answer is the note.
        text = answer.strip()
        if not text:
            return False
        changes["text"] = text
    elif "list_items_required" in missing:
        # "add it to my list" with nothing said before -> "What should I add to the list?" -> "milk".
        from memo.planner.intents.lists import answered_items  # the planner's own splitting

        items = answered_items(answer)
        if not items:
            return False
        changes["items"] = items
    elif "list_name_required" in missing:
        # "add eggs to the list" -> "Which list should I add eggs to?" -> "the todo list".
        from memo.planner.intents.lists import answered_list_name  # the planner's own words

        name = answered_list_name(answer)
        if name is None:
            return False
        constraints["listName"] = name
    elif "target_unclear" in missing or "which_one" in missing:
        constraints["target"] = answer.strip()
        constraints.pop("targetRef", None)
    return True


def _repeats(step: PlanStep) -> bool:
    """Whether the step can take a repetition (`recurrence`): a reminder made or changed can."""
    return step.capability == "reminders" and step.action in ("create", "update")


#: Words beside a time that still only answer it: "5pm is fine", "let's say tomorrow at 9 please",
#: "no wait, 7pm", "אז מחר ב-9 בבקשה".
_ANSWER_WORDS = frozenset({
    "ok", "okay", "please", "pls", "then", "so", "lets", "let's", "let", "us", "say", "make", "it", "that", "is",
    "fine", "good", "works", "great", "perfect", "sure", "yes", "yeah", "yep", "maybe", "around", "about", "ish",
    "thanks", "thank", "you", "how", "at", "on", "the", "a", "for", "me", "remind", "would", "be", "best", "better",
    "instead", "no", "nope", "wait", "sorry", "i", "meant", "mean", "actually", "oops", "oh", "hmm", "change",
    "אוקיי", "אוקי", "בסדר", "טוב", "אז", "נגיד", "שיהיה", "זה", "יהיה", "בבקשה", "תודה", "כן", "אולי", "בערך",
    "סביב", "מתאים", "עדיף", "לי", "לא", "רגע", "סליחה", "התכוונתי", "בעצם", "אופס", "טעיתי", "תעשה", "תשנה",
})  # fmt: skip


def says_more(remainder: str) -> bool:
    """Whether the words beside an answer's time say more than an answer does (two words or more
    that are no answer's words): a request of its own."""
    words = [w for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", remainder.lower()) if w not in _ANSWER_WORDS]
    return len(words) >= 2


def _answered_when(
    answer: str,
    parsed: ParsedWhen,
    now: datetime,
    state: TurnState,
    bag: dict[str, Any],
    constraints: dict[str, Any],
) -> datetime | None:
    """The time an answer says (a bare hour too: "5"), a series' hour as a series takes it."""
    tz, language, day = state.input.timezone, state.input.language, _known_day(bag)
    when = parsed.when or parse_time_answer(answer, now=now, timezone=tz, language=language, day=day)
    if (
        when is not None
        and parsed.recurrence is None
        and not parsed.explicit_day
        and _repeating(bag, constraints)
    ):
        return _series_time(answer, when, now, tz, language, day)
    return when


def _repeating(bag: dict[str, Any], constraints: dict[str, Any]) -> bool:
    return bool(bag.get("recurrence") or constraints.get("recurrence"))


def _series_time(
    answer: str, when: datetime, now: datetime, timezone: str, language: str, day: date | None
) -> datetime:
    """The first time of a series whose hour was asked: "every day" -> "At what time, each time?" ->
    "9" at 10:00 is 09:00 from tomorrow on, as "every day at 9" is, never 21:00 because this
    morning's 9:00 has passed (that rule is a one-time reminder's). The hour is read as on a day
    not yet begun; the series' own days are found from it when it is set."""
    zone = ZoneInfo(timezone)
    local = now.astimezone(zone)
    start = datetime.combine(day or local.date(), time(0), zone)
    early = parse_time_answer(answer, now=start, timezone=timezone, language=language, day=day)
    if early is None:
        return when
    early = early.astimezone(zone)
    while early <= now:
        early = datetime.combine(early.date() + timedelta(days=1), early.timetz())
    return early


def _known_day(bag: dict[str, Any]) -> date | None:
    raw = bag.get("day")
    if isinstance(raw, str):
        try:
            return date.fromisoformat(raw)
        except ValueError:
            return None
    return None


def _replace_steps(state: TurnState, output: PlannerOutput, steps: list[PlanStep]) -> TurnState:
    """The plan with `steps` in place of their namesakes; the answer filled every missing field."""
    filled = {step.id: step for step in steps}
    plan = [filled.get(s.id, s) for s in output.plan]
    new_output = output.model_copy(update={"plan": plan, "missing_fields": []})
    return state.model_copy(update={"planner_output": new_output})


def merge_modifications(step: PlanStep, modifications: dict[str, Any]) -> PlanStep:
    """Merge modifications into the step: keys the step already has keep their bag; new keys go to
    `changes` for update steps (constraints select the target) and to `constraints` otherwise; a
    new title on a step that selects a `target` (delete, remove) replaces the target.
    A new `when` replaces a date-only `day`."""
    constraints, changes = dict(step.constraints), dict(step.changes)
    update_like = step.action in _UPDATE_ACTIONS
    for key, value in modifications.items():
        if key == "title" and not update_like and "target" in constraints:
            constraints["target"] = value  # on a delete/remove step, a new name picks another target
            continue
        if key in changes:
            changes[key] = value
        elif key in constraints and not (update_like and key == "title"):
            constraints[key] = value
        elif update_like:
            changes[key] = value
        else:
            constraints[key] = value
    if "when" in modifications:
        constraints.pop("day", None)
        changes.pop("day", None)
    return step.model_copy(update={"constraints": constraints, "changes": changes})


def apply_modifications(state: TurnState, step: PlanStep, modifications: dict[str, Any]) -> TurnState:
    """The state with `modifications` merged into `step` (which must be in the plan): the missing
    fields they satisfy are dropped and the step's resolver results and executor args cleared."""
    output = state.planner_output
    if output is None:
        raise ValueError("apply_modifications needs a plan holding the step")
    merged = merge_modifications(step, modifications)
    satisfied = satisfied_fields(merged)
    plan = [merged if s.id == step.id else s for s in output.plan]
    new_output = output.model_copy(
        update={"plan": plan, "missing_fields": [f for f in output.missing_fields if f not in satisfied]}
    )
    return state.model_copy(
        update={
            "planner_output": new_output,
            "resolver_results": {k: v for k, v in state.resolver_results.items() if k != step.id},
            "executor_args": {k: v for k, v in state.executor_args.items() if k != step.id},
        }
    )


#: Fields a destructive step can take from an edit: only another name picks another target.
_TARGET_FIELDS = frozenset({"title", "text", "query"})
_DESTRUCTIVE = frozenset({"delete", "delete_all", "clear", "remove"})


#: What an edit says about time: only a reminder has one.
_TIME_FIELDS = frozenset({"when", "day", "time", "date", "recurrence", "until", "shiftMinutes"})


def timeless_edit(step: PlanStep, modifications: dict[str, Any]) -> list[str]:
    """The time fields of an edit to a step that has no time (a list's or a note's): a number read
    as a time ("change eggs to 12 eggs"), never to be applied by a yes."""
    if step.capability == "reminders":
        return []
    return sorted(_TIME_FIELDS & modifications.keys())


def edit_problem(step: PlanStep, modifications: dict[str, Any]) -> list[str]:
    """The fields of an edit that make no sense for the step's action (a new time for a delete, any
    change to "delete all", a repetition for what cannot repeat); empty when the edit can be applied
    and shown again for approval."""
    if "recurrence" in modifications and not _repeats(step):
        return ["recurrence"]
    if step.action not in _DESTRUCTIVE:
        return []
    if step.action in ("delete_all", "clear") or "target" not in step.constraints:
        return sorted(modifications)
    return sorted(key for key in modifications if key not in _TARGET_FIELDS)
