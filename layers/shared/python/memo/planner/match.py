"""What a rule matcher finds (`Match`) and how it becomes a `PlannerResult`; the helpers matchers
share to read times, the latest actions and "it/that" targets.

Confidence is set honestly: a complete, explicit command CONFIDENT; a referential follow-up resolved
from the latest action REFERENTIAL; a guess GUESS, so the HITL gate asks `low_confidence_plan`;
nothing recognisable UNCLEAR with `intent_unclear`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from memo.domain import (
    Capability,
    IntentType,
    LatestAction,
    PlannerOutput,
    PlanStep,
    RiskLevel,
    RoutingSuggestion,
)
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.lexicon import REF_EN, REF_HE, as_title, clean, has_hebrew, named_in
from memo.planner.timeparse import ParsedWhen, extract_when
from memo.text.amounts import amount_digits

CONFIDENT = 0.9
REFERENTIAL = 0.85
GUESS = 0.55
UNCLEAR = 0.2


@dataclass(frozen=True)
class Match:
    capability: Capability
    action: str
    confidence: float
    risk: RiskLevel
    constraints: dict[str, object]
    changes: dict[str, object] | None = None
    missing: tuple[str, ...] = ()
    needs_approval: bool = False
    intent: IntentType = "operation"
    pattern: str = ""


def iso(when: datetime) -> str:
    return when.isoformat()


def to_result(found: Match) -> PlannerResult:
    steps = (
        []
        if found.capability == "general" and found.intent == "operation"
        else [
            PlanStep(
                id="s1",
                capability=found.capability,
                action=found.action,
                constraints=dict(found.constraints),
                changes=dict(found.changes or {}),
            )
        ]
    )
    output = PlannerOutput(
        intent_type=found.intent,
        confidence=found.confidence,
        risk_level=found.risk,
        needs_approval=found.needs_approval,
        missing_fields=list(found.missing),
        plan=steps,
    )
    suggestion = RoutingSuggestion(
        capability=found.capability,
        action=found.action,
        confidence=found.confidence,
        reason=found.pattern,
    )
    return PlannerResult(output=output, routing_suggestions=[suggestion], source="rules")


_HINTS: tuple[tuple[Capability, str, re.Pattern[str]], ...] = (
    ("reminders", "create", re.compile(r"remind|reminder|תזכ|alarm|don't forget|לא לשכוח", re.I)),
    ("notes", "save", re.compile(r"\bnote|write down|פתק|רשום|תרשום|remember", re.I)),
    ("lists", "add", re.compile(r"\blist\b|shopping|groceries|רשימ|קניות", re.I)),
    ("calendar", "create_event", re.compile(r"calendar|meeting|appointment|יומן|פגיש", re.I)),
    ("email", "send", re.compile(r"e-?mail|inbox|מייל", re.I)),
)


def unclear(text: str) -> PlannerResult:
    hints = [
        RoutingSuggestion(capability=cap, action=action, confidence=0.4, reason="keyword")
        for cap, action, pattern in _HINTS
        if pattern.search(text)
    ]
    output = PlannerOutput(
        intent_type="operation",
        confidence=UNCLEAR,
        risk_level="low",
        needs_approval=False,
        missing_fields=["intent_unclear"],
        plan=[],
    )
    return PlannerResult(output=output, routing_suggestions=hints, source="rules")


def parse_when(text: str, inp: PlannerInput, *, day: date | None = None) -> ParsedWhen:
    """The time in `text`; `day`: the day a bare time belongs to (a reminder being moved keeps its
    day, so "move it to 9" is 9 on that day, not the next 9 from now)."""
    return extract_when(
        text,
        now=inp.now,
        timezone=inp.timezone,
        language="he" if has_hebrew(text) else "en",
        default_day=day,
        limits=inp.recurrence_limits,
    )


def says_when(text: str, inp: PlannerInput) -> bool:
    """Whether `text` names a time, a day or a repetition ("remember the meeting at 5pm", "did you
    remind me to call mom tomorrow?"): a request's when, whatever else it says."""
    when = parse_when(text, inp)
    return when.when is not None or when.day is not None or when.recurrence is not None


_SHIFT_UNITS = {
    "m": 1,
    "min": 1,
    "mins": 1,
    "minute": 1,
    "minutes": 1,
    "h": 60,
    "hr": 60,
    "hrs": 60,
    "hour": 60,
    "hours": 60,
    "day": 24 * 60,
    "days": 24 * 60,
}
_SHIFT_EN = re.compile(
    r"(?:^|\s)(?:(?P<lead>back|forward|ahead)\s+)?(?:by\s+)?(?P<n>an?|one|half\s+an|\d{1,3})\s*"
    r"(?P<unit>minutes?|mins?|m|hours?|hrs?|h|days?)(?:\s+(?P<dir>later|earlier|back|forward|ahead))?\s*[.!]?$",
    re.I,
)
_EVERY_END = re.compile(r"\b(?:every|each)$", re.I)
_SHIFT_HE = re.compile(
    r"(?:^|\s)ב-?(?:(?P<n>\d{1,3})\s*)?(?P<unit>דקות|דקה|חצי\s+שעה|רבע\s+שעה|שלושה\s+רבעי\s+שעה|שעה\s+וחצי|שעה|שעות|שעתיים|יום|ימים|יומיים)"
    r"(?:\s+(?P<dir>מאוחר\s+יותר|אחר\s+כך|קודם|מוקדם\s+יותר))?\s*[.!]?$"
)
_HE_UNITS = {
    "דקות": 1,
    "דקה": 1,
    "חצי שעה": 30,
    "רבע שעה": 15,
    "שלושה רבעי שעה": 45,
    "שעה וחצי": 90,
    "שעה": 60,
    "שעות": 60,
    "שעתיים": 120,
    "יום": 24 * 60,
    "ימים": 24 * 60,
    "יומיים": 48 * 60,
}
_NEXT_DAY = re.compile(
    r"(?:^|\s)(?:to\s+|till\s+|until\s+)?(?:the\s+)?(?:day\s+after|next\s+day|following\s+day)\s*[.!]?$"
    r"|(?:^|\s)(?:ל|עד\s+)?(?:ה?יום\s+(?:שאחרי|אחרי|למחרת|שאחרי\s+זה)|למחרת)\s*[.!]?$",
    re.I,
)
#: Verbs that move a time later by themselves ("push it by an hour", "תדחה בשעה"), or earlier.
_LATER_VERBS = re.compile(r"^(?:push|delay|postpone|bump|תדחה|תדחי|דחה|לדחות)", re.I)
_EARLIER_VERBS = re.compile(r"^(?:bring|pull|תקדים|תקדימי|הקדם|להקדים)", re.I)


#: Actions that only showed items (a listing, a search): no one item they name is "it".
SHOWN_ONLY = frozenset({"list", "show", "show_all", "search", "find"})

#: "move it an hour": the missing field (which way), and the change that holds the amount meanwhile.
SHIFT_DIRECTION_REQUIRED = "shift_direction_required"
SHIFT_BY = "shiftBy"
#: The title the question names ("Move “call mom” 1 hour earlier or later?"), when one reminder is meant.
SHIFT_NAMES = "shiftNames"


def shift_of(verb: str, rest: str) -> tuple[int, str] | None:
    """ "push it by an hour", "move it 30 minutes earlier", "תדחה את זה בחצי שעה": the minutes the
    time moves by (later is positive) and the words before them; None when the words name no
    amount, or no direction ("move it an hour": earlier or later? `unsigned_shift`)."""
    next_day = _NEXT_DAY.search(rest)
    if next_day is not None:  # "move it to the day after": a day later, whatever the verb
        return 24 * 60, rest[: next_day.start()].strip()
    said = _amount_said(rest)
    if said is None:
        return None
    minutes, direction, before = said
    sign = _sign(verb, direction)
    return (sign * minutes, before) if sign else None


def unsigned_shift(verb: str, rest: str) -> tuple[int, str] | None:
    """ "move it an hour", "move it forward 30 minutes", "תזיז את זה בשעה": an amount said with no
    direction the words settle (earlier or later is asked, never guessed): the minutes, unsigned,
    and the words before them; None when the words say a direction or no amount."""
    said = _amount_said(rest)
    if said is None or _NEXT_DAY.search(rest) is not None:
        return None
    minutes, direction, before = said
    return (minutes, before) if not _sign(verb, direction) else None


def _amount_said(rest: str) -> tuple[int, str, str] | None:
    """The amount of time at the end of `rest` (minutes, up to a week), the direction word said
    with it ("" for none) and the words before it ("ten minutes" is "10 minutes")."""
    rest = amount_digits(rest)
    match = _SHIFT_EN.search(rest)
    if match is not None:
        n = match.group("n").lower()
        count = 0.5 if n == "half an" else 1 if n in ("a", "an", "one") else int(n)
        minutes = int(count * _SHIFT_UNITS[match.group("unit").lower()])
        direction = (match.group("dir") or match.group("lead") or "").lower()
    else:
        match = _SHIFT_HE.search(rest)
        if match is None:
            return None
        unit = " ".join(match.group("unit").split())
        minutes = (
            int(match.group("n") or 1) * _HE_UNITS[unit]
            if unit not in ("חצי שעה", "רבע שעה", "שלושה רבעי שעה", "שעה וחצי", "שעתיים", "יומיים")
            else _HE_UNITS[unit]
        )
        direction = {
            "מאוחר יותר": "later",
            "אחר כך": "later",
            "קודם": "earlier",
            "מוקדם יותר": "earlier",
        }.get(" ".join((match.group("dir") or "").split()), "")
    before = rest[: match.start()].strip()
    if not minutes or minutes > 7 * 24 * 60 or _EVERY_END.search(before):
        return None  # "change it to every 3 days": how often it repeats, not an amount to move by
    return minutes, direction, before


def _sign(verb: str, direction: str) -> int:
    """+1 later, -1 earlier, 0 when neither the direction word nor the verb says which ("move it
    forward" is earlier to some and later to others)."""
    if direction in ("later", "back"):
        return 1
    if direction == "earlier":
        return -1
    if direction in ("forward", "ahead"):
        return -1 if _EARLIER_VERBS.match(verb) else 0  # "bring it forward by an hour"
    if _LATER_VERBS.match(verb):
        return 1
    if _EARLIER_VERBS.match(verb):
        return -1
    return 0


def latest_action(inp: PlannerInput, capability: Capability | None = None) -> LatestAction | None:
    for action in inp.latest_actions:
        if capability is None or action.capability == capability:
            return action
    return None


#: "delete my last note", "the latest reminder", "הפתק האחרון": the one just made, like "it".
_LAST = r"(?:my\s+|the\s+)?(?:last|latest|newest|most\s+recent)(?:\s+one)?|האחרון|האחרונה"


def is_ref(target: str) -> bool:
    bare = clean(target).lower()
    return bool(re.fullmatch(rf"(?:{REF_EN}|{REF_HE}|{_LAST})", bare, re.I)) or bare == ""


#: "the last one", "האחרונה": of the several items the latest action named, the last.
_LAST_PLACE = re.compile(
    r"\b(?:the\s+)?last\s+one\b|(?:^|\s)(?:את\s+)?האחרונ(?:ה|ים|ות)?(?=\s|$|[.!?])", re.I
)


def ref_to(latest: LatestAction, text: str = "") -> dict[str, object]:
    """Constraints that point at the latest action's items: the title it named (none for a listing,
    whose summary "listed 2 reminders" names nothing), and the place "the last one" in `text` says."""
    constraints: dict[str, object] = {"targetRef": "latest_action"}
    if latest.action not in SHOWN_ONLY:
        constraints["target"] = named_in(latest.summary)
    if _LAST_PLACE.search(text):
        constraints["refPlace"] = "last"
    return constraints


def target_constraints(
    target: str, inp: PlannerInput, capability: Capability
) -> tuple[dict[str, object], tuple[str, ...], float]:
    """Constraints that select the entity, the missing fields, and the confidence."""
    if not is_ref(target):
        return {"target": as_title(target)}, (), CONFIDENT
    latest = latest_action(inp, capability)
    if latest is not None:
        return ref_to(latest, target), (), REFERENTIAL
    return {}, ("target_unclear",), CONFIDENT
