"""Follow-ups that point back at the latest actions: "delete it", "move it to 6", "תמחק את זה",
and a noun-less "delete X" matched against what was just done."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from memo.domain import LatestAction
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.lexicon import (
    DELETE_EN,
    DELETE_HE,
    MOVE_EN,
    MOVE_HE,
    PLURAL_REF_EN,
    PLURAL_REF_HE,
    REF_EN,
    REF_HE,
    RENAME_EN,
    as_title,
    named_in,
    the_one_named,
)
from memo.planner.match import GUESS, REFERENTIAL, Match, iso, latest_action, parse_when, shift_of, unclear

_RE_REF_DELETE = re.compile(rf"^(?:{DELETE_EN}|{DELETE_HE})\s+(?:{REF_EN}|{REF_HE})\s*[.!]?$", re.I)
_RE_REF_MOVE = re.compile(
    rf"^(?:{MOVE_EN}|{MOVE_HE}|bring|pull)\s+(?:{REF_EN}|{REF_HE})\b\s*(?P<rest>.*)$", re.I
)
_RE_REF_RENAME = re.compile(
    rf"^(?:(?:{RENAME_EN})\s+(?:{REF_EN})\s+(?:to|as)?|(?:תשנה|שנה|תקרא|תקראי)\s+(?:ל|את\s+השם\s+של\s+)?(?:{REF_HE})\s+ל-?)\s*(?P<new>.+)$",
    re.I,
)


#: "make it 6", "change it to 17:30", "move it to 9": a bare hour after "it" is a time of day.
_BARE_TIME = re.compile(r"^(?:to\s+|ל-?)?(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s*[.!]?$")
_PLURAL_REF = re.compile(rf"\s(?:{PLURAL_REF_EN}|{PLURAL_REF_HE})\s*[.!]?$", re.I)


def _latest_batch(inp: PlannerInput) -> list[LatestAction]:
    """The latest actions of the most recent request."""
    if not inp.latest_actions:
        return []
    newest = inp.latest_actions[0].request
    return [a for a in inp.latest_actions if a.request == newest]


#: A correction of the time just set: "oops i meant tomorrow", "no, at 6", "sorry, 8pm", "actually
#: tomorrow", "התכוונתי למחר", "טעיתי, בשש".
_CORRECTION = re.compile(
    r"^(?:(?:oops|oh|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+)*"
    r"(?:i\s+meant|i\s+mean|meant|i\s+said|התכוונתי|הכוונה)\s*(?:ל-?(?=\S))?(?P<rest>\S.*)$"
    r"|^(?:oops|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+(?P<rest2>\S.*)$",
    re.I,
)
_SAID_ACTUALLY = re.compile(
    r"^\W*(?:actually|wait|sorry|oops|no|nope|my\s+bad|בעצם|רגע|סליחה|אופס|טעיתי)(?=[\s,!.]|$)", re.I
)


def _correction(text: str, inp: PlannerInput) -> str | None:
    """ "i meant tomorrow" right after a reminder was set: "move it tomorrow" (only a time or day,
    and only when the latest thing done is that reminder)."""
    found = _CORRECTION.match(text)
    rest = (found.group("rest") or found.group("rest2")) if found else None
    if rest is None and _SAID_ACTUALLY.match(inp.message):
        rest = text  # "actually tomorrow": the lead-in word is already set aside
    latest = latest_action(inp)
    if rest is None or latest is None or latest.capability != "reminders":
        return None
    parsed = parse_when(f"at {rest}" if _BARE_TIME.match(rest) else rest, inp)
    if not parsed.found or re.sub(r"[\W_]+", "", parsed.remainder):
        return None  # "no, call dad instead": not a time
    return f"move it {rest}"


def referential(text: str, inp: PlannerInput) -> Match | PlannerResult | None:
    latest = latest_action(inp)
    text = _correction(text, inp) or text
    if _RE_REF_DELETE.match(text):
        if latest is None:
            # "delete it" with nothing recent to point at: ask what the user means.
            return unclear(text)
        plural = bool(_PLURAL_REF.search(text))
        if plural and len({a.capability for a in _latest_batch(inp)}) > 1:
            # "delete them" after a reminder and a list item: one request cannot delete both kinds.
            return unclear(text)
        key = (latest.external_ids or {}).get("listKey")
        if latest.capability == "lists" and isinstance(key, str) and key:
            # "delete it" after "add milk to my shopping list": milk comes off that list.
            return Match(
                capability="lists",
                action="remove",
                confidence=REFERENTIAL,
                risk="medium",
                constraints={
                    "listName": key,
                    "targetRef": "latest_action",
                    **({"plural": True} if plural else {}),
                },
                pattern="ref:remove",
            )
        return Match(
            capability=latest.capability,
            action="delete",
            confidence=REFERENTIAL,
            risk="high",
            constraints={
                "targetRef": "latest_action",
                "target": named_in(latest.summary),
                **({"plural": True} if plural else {}),
            },
            pattern="ref:delete",
        )
    rename = _RE_REF_RENAME.match(text)
    if rename:
        if latest is None:
            return unclear(text)
        return Match(
            capability=latest.capability,
            action="update",
            confidence=REFERENTIAL,
            risk="medium",
            constraints={"targetRef": "latest_action", "target": named_in(latest.summary)},
            changes={"title": as_title(rename.group("new"))},
            pattern="ref:rename",
        )
    move = _RE_REF_MOVE.match(text)
    if move:
        shift = shift_of(text.split()[0], move.group("rest"))
        if shift is not None and not shift[1]:
            # "push it by an hour", "תדחה את זה בחצי שעה": the reminder's own time, moved.
            reminder = latest_action(inp, "reminders")
            if reminder is None:
                return unclear(text)
            return Match(
                capability="reminders",
                action="update",
                confidence=REFERENTIAL if reminder is latest else 0.75,
                risk="medium",
                constraints={"targetRef": "latest_action", "target": named_in(reminder.summary)},
                changes={"shiftMinutes": shift[0]},
                pattern="ref:shift",
            )
        rest = move.group("rest")
        if _BARE_TIME.match(rest):
            rest = f"at {rest}"  # "make it 6", "change it to 17:30": a time of day
        retitled = _RE_RETITLE.match(rest)
        if retitled and latest is not None and not parse_when(rest, inp).found and not _TIMEISH.search(rest):
            # "change it to call dad": no time in it, so the words are the new title.
            return Match(
                capability=latest.capability,
                action="update",
                confidence=REFERENTIAL,
                risk="medium",
                constraints={"targetRef": "latest_action", "target": named_in(latest.summary)},
                changes={"title": as_title(retitled.group("new"))},
                pattern="ref:rename",
            )
        reminder = latest_action(inp, "reminders")
        zone = ZoneInfo(inp.timezone)
        own_day = reminder.when.astimezone(zone).date() if reminder and reminder.when else None
        if own_day == inp.now.astimezone(zone).date():
            own_day = None  # today: a bare hour already past is its evening ("move it to 9" at noon: 21:00)
        parsed = parse_when(rest, inp, day=own_day)
        if not parsed.found:
            return None
        if reminder is None:
            return unclear(text)
        when = parsed.when
        if when is None and parsed.day is not None and reminder.when is not None:
            # "move it to friday": keep the reminder's time of day.
            kept = reminder.when.astimezone(ZoneInfo(inp.timezone)).time()
            when = datetime.combine(parsed.day, kept, tzinfo=ZoneInfo(inp.timezone))
        changes: dict[str, object] = {"when": iso(when)} if when is not None else {}
        if when is None and parsed.day is not None:
            changes["day"] = parsed.day.isoformat()
        if "time" in parsed.change() or "recurrence" in parsed.change():
            # "change it to 6pm": a time alone keeps the reminder's day (each in its own timezone);
            # "move it to every sunday at 10": it repeats from then on.
            changes = dict(parsed.change())
            when = parsed.when
        return Match(
            capability="reminders",
            action="update",
            confidence=REFERENTIAL if reminder is latest else 0.75,
            risk="medium",
            constraints={"targetRef": "latest_action", "target": named_in(reminder.summary)},
            changes=changes,
            missing=() if when is not None else ("reminder_time_required",),
            pattern="ref:move",
        )
    return None


#: "change it to call dad", "תשנה את זה ל-להתקשר לאבא": the new words, after "to" / "ל".
_RE_RETITLE = re.compile(r"^(?:to|into|ל-?)\s*(?P<new>\S.*)$", re.I)
#: Words of a time the parser did not read ("change it to the evening"): never a new title.
_TIMEISH = re.compile(
    r"\d|\b(?:morning|afternoon|evening|night|noon|midnight|today|tonight|tomorrow|tmrw|week|weekend|month|"
    r"year|day|daily|weekly|monthly|later|earlier|sooner|am|pm|o'?clock|hour|minutes?|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b|"
    r"בוקר|ערב|לילה|צהריים|צהרים|מחר|היום|הערב|שבוע|חודש|שנה|יום|שעה|דקות|מאוחר|מוקדם",
    re.I,
)


_RE_BARE_DELETE = re.compile(rf"^(?:{DELETE_EN}|{DELETE_HE})\s+(?:the\s+|my\s+|את\s+)?(?P<target>.+)$", re.I)


def noun_less_delete(text: str, inp: PlannerInput) -> Match | None:
    match = _RE_BARE_DELETE.match(text)
    if not match:
        return None
    target = as_title(the_one_named(match.group("target")))
    from rapidfuzz import fuzz

    for action in inp.latest_actions:
        if fuzz.partial_ratio(target.lower(), action.summary.lower()) >= 80:
            return Match(
                capability=action.capability,
                action="delete",
                confidence=0.8,
                risk="high",
                constraints={"target": target},
                pattern="delete:latest_match",
            )
    return Match(
        capability="reminders",
        action="delete",
        confidence=GUESS,
        risk="high",
        constraints={"target": target},
        pattern="delete:guess",
    )
