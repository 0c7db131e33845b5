"""Reminder commands: list, create, rename, move, delete, and deleting every reminder or note."""

from __future__ import annotations

import re

from memo.domain import Capability
from memo.planner.base import PlannerInput
from memo.planner.lexicon import (
    DELETE_EN,
    DELETE_HE,
    MOVE_EN,
    MOVE_HE,
    NOTE_EN,
    NOTE_HE,
    REMINDER_EN,
    REMINDER_HE,
    as_title,
    strip_lead,
)
from memo.planner.match import CONFIDENT, Match, iso, parse_when, target_constraints

_RE_DELETE_ALL = (
    re.compile(
        rf"^(?:{DELETE_EN})\s+(?:all|every|each|everything)(?:\s+of)?(?:\s+(?:my|the))?\s+(?P<what>{REMINDER_EN}|{NOTE_EN})\b",
        re.I,
    ),
    re.compile(r"^(?:clear|wipe)\s+(?:out\s+)?(?:my|the|all)\s+(?P<what>reminders|notes)\b", re.I),
    re.compile(
        rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?(?:כל|כול)\s+(?P<what>{REMINDER_HE}|{NOTE_HE})",
    ),
    re.compile(r"^(?:תנקה|נקה|לנקות)\s+(?:לי\s+)?(?:את\s+)?(?P<what>התזכורות|הפתקים|ההערות)"),
)


def _what_capability(word: str) -> Capability:
    return "reminders" if re.search(r"remind|תזכור", word, re.I) else "notes"


def delete_all(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_DELETE_ALL:
        match = pattern.search(text)
        if match:
            return Match(
                capability=_what_capability(match.group("what")),
                action="delete_all",
                confidence=CONFIDENT,
                risk="high",
                constraints={},
                needs_approval=True,
                pattern="delete_all",
            )
    return None


_RE_REMINDER_LIST = (
    re.compile(
        rf"^(?:what|which|show|list|see|view|get|tell|read|give|check|do i have|any|are there|what's|whats)\b.*\b{REMINDER_EN}\b",
        re.I,
    ),
    re.compile(rf"^(?:my|all(?:\s+my)?)\s+{REMINDER_EN}\b", re.I),
    re.compile(rf"^{REMINDER_EN}\s*\??$", re.I),
    re.compile(r"^(?:מה|אילו|איזה|אלו|תראה|תראי|הראה|תציג|תציגי|תגיד|תפרט|יש לי|רשימת|כל)\b.*תזכורות"),
    re.compile(r"^(?:ה)?תזכורות\s+(?:שלי|להיום|למחר)"),
)


def show(text: str, inp: PlannerInput) -> Match | None:
    if re.search(rf"\b(?:{DELETE_EN}|{MOVE_EN}|remind me)\b|{DELETE_HE}|{MOVE_HE}|תזכיר", text, re.I):
        return None
    for pattern in _RE_REMINDER_LIST:
        if pattern.search(text):
            parsed = parse_when(text, inp)
            constraints: dict[str, object] = {}
            day = parsed.day or (parsed.when.date() if parsed.when else None)
            if day is not None:
                constraints["day"] = day.isoformat()
            return Match(
                capability="reminders",
                action="list",
                confidence=CONFIDENT,
                risk="low",
                constraints=constraints,
                pattern="reminders:list",
            )
    return None


_RE_REMIND = (
    re.compile(
        r"^(?:remind\s+me|set\s+(?:up\s+)?(?:a\s+|an\s+|me\s+a\s+)?reminder|create\s+(?:a\s+)?reminder|"
        r"add\s+(?:a\s+)?reminder|new\s+reminder|make\s+(?:a\s+)?reminder|reminder|"
        r"don'?t\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t\s+forget\s+)?)\b[:,]?\s*(?P<rest>.*)$",
        re.I,
    ),
    re.compile(r"^(?P<rest>.+?)[,.]?\s+remind\s+me\b[.!]?$", re.I),
    re.compile(
        r"^(?:תזכיר|תזכירי|הזכר|תזכרי|להזכיר)\s+לי\s*(?P<rest>.*)$"
        r"|^(?:תקבע|תקבעי|קבע|תיצור|צור|תוסיף|הוסף|תגדיר|הגדר)\s+(?:לי\s+)?תזכורת\s*(?P<rest2>.*)$"
        r"|^תזכורת\s*[:\-]?\s*(?P<rest3>.*)$"
        r"|^(?:אל\s+תיתן|אל\s+תתן|אל\s+תני)\s+לי\s+לשכוח\s*(?P<rest4>.*)$"
    ),
)


def create(text: str, inp: PlannerInput) -> Match | None:
    rest: str | None = None
    for pattern in _RE_REMIND:
        match = pattern.search(text)
        if match:
            rest = next((g for g in match.groups() if g is not None), "")
            break
    if rest is None:
        return None
    parsed = parse_when(rest, inp)
    title = as_title(parsed.remainder)
    constraints: dict[str, object] = {"title": title} if title else {}
    missing: list[str] = []
    if not title:
        missing.append("reminder_title_required")
    if parsed.when is not None and parsed.when > inp.now:
        constraints["when"] = iso(parsed.when)
    else:
        if parsed.day is not None:
            constraints["day"] = parsed.day.isoformat()
        missing.append("reminder_time_required")
    return Match(
        capability="reminders",
        action="create",
        confidence=CONFIDENT,
        risk="low",
        constraints=constraints,
        missing=tuple(missing),
        pattern="reminders:create",
    )


_RE_REMINDER_RENAME = (
    re.compile(
        rf"^(?:rename|retitle)\s+(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?(?P<old>.*?)\s+(?:to|as|into)\s+(?P<new>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:change|update|set)\s+(?:the\s+)?(?:title|name|text)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?"
        r"(?P<old>.*?)\s+(?:to|as)\s+(?P<new>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{REMINDER_HE}\s*)?"
        r"(?P<old>.*)\s+ל-(?P<new>\S.*)$"
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{REMINDER_HE}\s*)?"
        r"(?P<old>.*?)\s+ל(?P<new>\S.*)$"
    ),
)


def rename(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_REMINDER_RENAME:
        match = pattern.search(text)
        if not match:
            continue
        old = strip_lead(match.group("old"), r"about|to|for|called|named|על|של")
        capability: Capability = "notes" if re.search(rf"\b(?:{NOTE_EN})\b|פתק", text, re.I) else "reminders"
        constraints, missing, confidence = target_constraints(old, inp, capability)
        return Match(
            capability=capability,
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"title": as_title(match.group("new"))},
            missing=missing,
            pattern=f"{capability}:rename",
        )
    return None


_RE_REMINDER_MOVE = (
    re.compile(rf"^(?:{MOVE_EN})\s+(?:the\s+|my\s+)?{REMINDER_EN}\b\s*(?P<rest>.*)$", re.I),
    re.compile(rf"^(?:{MOVE_EN})\s+(?:the\s+|my\s+)?(?P<rest>.+?\s+{REMINDER_EN}\b.*)$", re.I),
    re.compile(rf"^(?:{MOVE_HE})\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s*(?P<rest>.*)$"),
)


def move(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_REMINDER_MOVE:
        match = pattern.search(text)
        if not match:
            continue
        rest = re.sub(rf"\b{REMINDER_EN}\b", " ", match.group("rest"), flags=re.I)
        parsed = parse_when(rest, inp)
        target = as_title(parsed.remainder)
        constraints, missing, confidence = target_constraints(target, inp, "reminders")
        changes: dict[str, object] = {}
        missing_fields = list(missing)
        if parsed.when is not None:
            changes["when"] = iso(parsed.when)
        elif parsed.day is not None:
            changes["day"] = parsed.day.isoformat()
            missing_fields.append("reminder_time_required")
        else:
            missing_fields.append("time_unclear")
        return Match(
            capability="reminders",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes=changes,
            missing=tuple(missing_fields),
            pattern="reminders:update",
        )
    return None


_PLURAL_NOUN = re.compile(r"\breminders\b|\bnotes\b|תזכורות|פתקים", re.I)

_RE_REMINDER_DELETE = (
    re.compile(
        rf"^(?:{DELETE_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?{REMINDER_EN}\b\s*(?P<target>.*)$", re.I
    ),
    re.compile(rf"^(?:{DELETE_EN})\s+(?:the\s+|my\s+)?(?P<target>.+?)\s+{REMINDER_EN}\b\s*$", re.I),
    re.compile(rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s*(?P<target>.*)$"),
)


def delete(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_REMINDER_DELETE:
        match = pattern.search(text)
        if match:
            constraints, missing, confidence = target_constraints(match.group("target"), inp, "reminders")
            if _PLURAL_NOUN.search(match.group(0)):
                constraints = {**constraints, "plural": True}  # "the call reminders": maybe several
            return Match(
                capability="reminders",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="reminders:delete",
            )
    return None
