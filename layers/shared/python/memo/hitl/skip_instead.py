"""A skip said to the delete of a repeating reminder: "Before I go ahead: I'm about to delete “take
vitamins” — every day at 08:00 — the whole series" answered "skip tomorrow", "skip the vitamins on
friday", "תדלג על מחר". The person keeps the series and means one of its times: the skip is a request
of its own, planned afresh (its own approval, as any skip), and the delete is set aside. A skip that
names no reminder is the listed series' ("skip tomorrow" -> "skip take vitamins tomorrow").
"""

from __future__ import annotations

import re
from datetime import datetime

from memo.domain import PendingHITL, TurnState
from memo.hitl.templates.approval import GOES_ON
from memo.planner.base import Planner, PlannerInput
from memo.text.language import detect_language

_SKIP = re.compile(
    r"^\W*(?:(?:no|wait|actually|oh|ok|לא|רגע|בעצם|אה)[\s,!.]+)*"
    r"(?P<verb>skip|just\s+skip|תדלג|תדלגי|דלג)\s+(?:(?P<on>על)\s+)?(?P<rest>\S.*?)\s*[.!]*$",
    re.I,
)

_IT = re.compile(r"^(?:it|that|this|that\s+one|this\s+one|אותה|אותו)\s+(?=\S)", re.I)


def skip_instead(
    raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner
) -> str | None:
    """The skip request an answer to a repeating reminder's delete asks for (see the module), or
    None when the question deletes no series that goes on, or the answer is no skip."""
    said = _SKIP.match(raw.strip())
    shown = (pending.context.candidates if pending.context else None) or []
    series = [c for c in shown if GOES_ON in c.data]
    if said is None or pending.kind != "approval" or not series:
        return None
    if _a_skip(raw.strip(), state, now, rules):
        return raw.strip()
    if len(series) != 1:
        return None  # "skip tomorrow" with two series listed: which one is not guessed
    verb = said.group("verb") if said.group("on") else "skip"  # "just skip" -> "skip"
    on = f"{said.group('on')} " if said.group("on") else ""
    rest = _IT.sub("", said.group("rest"), count=1)  # "skip it on friday": the series, on friday
    request = f"{verb} {on}{series[0].label} {rest}"
    return request if _a_skip(request, state, now, rules) else None


def _a_skip(text: str, state: TurnState, now: datetime, rules: Planner) -> bool:
    """Whether `text` plans as one skip: a reminder's delete of one of its times."""
    language = detect_language(text, state.input.language)
    output = rules.plan(
        PlannerInput(message=text, now=now, timezone=state.input.timezone, language=language)
    ).output
    return (
        output.intent_type == "operation"
        and len(output.plan) == 1
        and "intent_unclear" not in output.missing_fields
        and (output.plan[0].capability, output.plan[0].action) == ("reminders", "delete")
        and output.plan[0].constraints.get("scope") == "occurrence"
    )
