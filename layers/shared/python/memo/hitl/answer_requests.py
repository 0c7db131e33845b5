"""A request inside the answer to a question: read by the rule planner (passed in), so an answer
that carries a request of its own is never taken for a bare yes or a bare value.

- `is_new_request`: the answer is a complete request on its own (switch intent);
- `yes_and_more`: "yes, and remind me to ..." (one at a time: asked again);
- `redated_guess`: "no, the 15th" to a "just to check" of a guessed time (that day instead);
- `retitled_request`: "no, call mom instead" to "When?" (the title replaced);
- `completed_request`: "to buy stamps" to "What about?" (the request read again, whole).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from memo.domain import PendingHITL, PlanStep, TurnState
from memo.hitl import narrowing
from memo.hitl.complete_request import is_complete_request
from memo.hitl.plan_edits import bare_edit, origin_step
from memo.hitl.transitions import removes
from memo.planner.base import Planner, PlannerInput
from memo.text.language import detect_language


def is_new_request(
    raw: str, state: TurnState, now: datetime, rules: Planner, *, allow_missing: bool = False
) -> bool:
    """A message that is a complete request on its own, read in its own language (`allow_missing`:
    or a request that still lacks a detail, such as "remind me tomorrow")."""
    return is_complete_request(
        raw,
        now=now,
        timezone=state.input.timezone,
        language=detect_language(raw, state.input.language),
        allow_missing=allow_missing,
        rules=rules,
    )


_NO_THEN = re.compile(r"^\W*(?:no|nope|nah|not\s+that(?:\s+one)?|לא)\b[\s,!.:-]+(?P<rest>\S.*)$", re.I)
#: "no, the one after", "the week after", "לא, בשבוע שאחרי": the same day a week later.
_WEEK_LATER = re.compile(
    r"^(?:the\s+)?(?:one|week|tuesday|wednesday|thursday|friday|saturday|sunday|monday)\s+after(?:\s+that)?|"
    r"^(?:a\s+week\s+later|next\s+week(?:'?s)?(?:\s+one)?)|^(?:ב?שבוע\s+שאחרי|ב?שבוע\s+הבא|זה\s+שאחרי|שבוע\s+אחרי)",
    re.I,
)


_YES_AND = re.compile(
    r"^\W*(?:yes|yeah|yep|sure|ok(?:ay)?|go\s+ahead|approve[d]?|כן|בטח|אוקיי?|סבבה|מאשר[ת]?)\b[\s,!.;:-]*"
    r"(?:(?:(?:and|also|plus|then|&)\s+)+|ו(?:גם\s+)?(?=\S)|גם\s+)?(?P<rest>\S.*)$",
    re.I,
)


def yes_and_more(raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner) -> bool:
    """A yes with a request of its own after it ("yes, and remind me to call mom at 5", "yes, and
    add eggs too", even one Memo would confirm first, and "yes, and also delete the mom one" when
    that reminder was not shown); not a yes that says the approved removal again with some of the
    items shown ("yes, delete the call mom reminder": a narrowing, `narrowing.parse`)."""
    found = _YES_AND.match(raw.strip())
    if found is None:
        return False
    rest = found.group("rest")
    language = detect_language(rest, state.input.language)
    output = rules.plan(
        PlannerInput(message=rest, now=now, timezone=state.input.timezone, language=language)
    ).output
    if output.intent_type != "operation" or not output.plan or "intent_unclear" in output.missing_fields:
        return False  # "yes, thanks", "yes please do": no request of its own
    step = origin_step(state, pending)
    # Only a removal is narrowed by naming its items; any other request after a yes is one more.
    narrows = (
        step is not None
        and removes(step)
        and all(p.capability == step.capability and removes(p) for p in output.plan)
    )
    if not narrows:
        return True
    # The removal said again narrows only with what was shown; naming anything else is one more
    # removal ("yes and also delete the mom one"), which the yes would silently leave undone.
    shown = (pending.context.candidates if pending.context else None) or []
    named = narrowing.parse(
        rest, shown, now=now, timezone=state.input.timezone, language=language, removal=True
    )
    return named is None or named.unresolved or not named.ids


def redated_guess(
    state: TurnState, pending: PendingHITL, raw: str, now: datetime
) -> tuple[PlanStep, dict[str, Any]] | None:
    """ "Just to check — a reminder for Tue 8 Dec, 10:00?" answered "no, the 15th" or "no, the one
    after": the new time of the reminder to create (only its time changes); None for anything else
    (a plain "no" cancels)."""
    said = _NO_THEN.match(raw.strip())
    step = origin_step(state, pending)
    if (
        said is None
        or pending.reason != "low_confidence_plan"
        or step is None
        or (step.capability, step.action) != ("reminders", "create")
        or not isinstance(step.constraints.get("when"), str)
    ):
        return None
    rest = said.group("rest").strip(" .!")
    if _WEEK_LATER.match(rest):
        guessed = datetime.fromisoformat(str(step.constraints["when"]))
        return step, {"when": (guessed + timedelta(days=7)).isoformat()}
    mods = bare_edit(rest, step, state, now)
    if not mods or set(mods) - {"when"}:
        return None
    return step, mods


def retitled_request(state: TurnState, pending: PendingHITL, raw: str) -> str | None:
    """ "remind me to call dad" -> "When?" -> "no, call mom instead" (or "i meant call mom
    tomorrow"): the request with its title replaced by the answer's words, when the answer says it
    replaces and the request says the title word for word; None otherwise."""
    from memo.planner.intents.corrections import replacement_title

    step = origin_step(state, pending)
    new = replacement_title(raw.strip(), with_time=True)
    if step is None or new is None or (step.capability, step.action) != ("reminders", "create"):
        return None
    old = step.constraints.get("title")
    message = state.input.message
    if not isinstance(old, str) or not old or old not in message:
        return None
    return message.replace(old, new, 1)


def completed_request(state: TurnState, raw: str, now: datetime, rules: Planner) -> str | None:
    """The original request with the answer appended, when that reads as the same operation with
    fewer missing parts than before, or as many but more known ("remind me to stretch" -> "When?"
    -> "every sunday": it repeats, the time is still asked); None otherwise (the interpreter
    decides)."""
    from memo.planner.intents.reminders import after_remind_words

    before = state.planner_output
    if before is None or not before.plan or not raw.strip():
        return None
    # "remind me tomorrow" -> "what about?" -> "remind me to buy stamps": the answer's own
    # "remind me" is not part of the title.
    combined = f"{state.input.message.strip()} {after_remind_words(raw)}"
    output = rules.plan(
        PlannerInput(message=combined, now=now, timezone=state.input.timezone, language=state.input.language)
    ).output
    if output.intent_type != "operation" or not output.plan or "intent_unclear" in output.missing_fields:
        return None
    same = [(p.capability, p.action) for p in output.plan] == [(p.capability, p.action) for p in before.plan]
    if not same or len(output.missing_fields) > len(before.missing_fields):
        return None
    fewer = len(output.missing_fields) < len(before.missing_fields)
    more_known = any(
        set(new.constraints) > set(old.constraints) for new, old in zip(output.plan, before.plan, strict=True)
    )
    return combined if fewer or more_known else None
