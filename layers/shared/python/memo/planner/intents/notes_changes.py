"""A note changed without the words "change the note": "they changed the gate code to 5678",
"update the wifi note, new password is blue42", "שינו את הקוד ל-9911", "תעדכן בפתק של הוויפי
שהסיסמה היא 1234", and something added to a note ("edit my party note and add candles")."""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.notes import KEPT_THINGS
from memo.planner.lexicon import HE_CONSTRUCT_THING, clean
from memo.planner.match import CONFIDENT, GUESS, Match, parse_when, target_constraints

#: "they changed the gate code to 5678", "we reset the alarm code to 1122", "שינו את הקוד ל-9911":
#: something told changed, and its new value (the last "to"/"ל" starts it).
_RE_CHANGED = (
    re.compile(
        r"^(?:they|someone|we|he|she|i|the\s+\w+)\s+(?:have\s+|has\s+|'ve\s+|just\s+)?"
        r"(?:changed|updated|reset|switched)\s+(?:the\s+|my\s+|our\s+)?(?P<thing>.+)\s+to\s+(?P<value>\S+)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:the\s+|my\s+|our\s+)(?P<thing>.+?)\s+(?:has\s+|was\s+)?(?:changed|is\s+now|now\s+is|'s\s+now)"
        r"\s+(?:to\s+)?(?P<value>\S+)\s*[.!]*$",
        re.I,
    ),
    re.compile(r"^(?:the\s+)?new\s+(?P<thing>.+?)\s+is\s+(?P<value>\S+)\s*[.!]*$", re.I),
    re.compile(
        r"^(?:שינו|החליפו|עדכנו|שיניתי|החלפתי|עדכנתי|שינינו|החלפנו)\s+(?:את\s+)?(?P<thing>.+)\s+ל-?\s*"
        r"(?P<value>\S+)\s*[.!]*$"
    ),
    re.compile(
        rf"^(?P<thing>(?:ה\S+|{HE_CONSTRUCT_THING})(?:\s+\S+){{0,3}}?)\s+(?:השתנה|השתנתה|התחלף|התחלפה|הוחלף|הוחלפה|עכשיו|החדש|החדשה)"
        r"\s+(?:ל-?\s*|הוא\s+|היא\s+|זה\s+)?(?P<value>\S+)\s*[.!]*$"
    ),
)


_SAYS_CHANGED = (_RE_CHANGED[0], _RE_CHANGED[3])


def told_changed(text: str, inp: PlannerInput) -> Match | None:
    """ "they changed the gate code to 5678": the note about the gate code, its value now 5678
    (approved first, with what the note will then say). Only of a thing people keep (a code, a
    password, a number: `notes.KEPT_THINGS`), and never a time ("they changed the meeting to 5"
    is about a reminder or the calendar)."""
    for pattern in _RE_CHANGED:
        match = pattern.match(clean(text))
        if match is None:
            continue
        thing = clean(re.sub(r"^(?:את\s+)", "", match.group("thing")))
        value = clean(match.group("value"))
        if not thing or not value or _names_a_time(value, thing, inp):
            return None
        constraints, missing, confidence = target_constraints(thing, inp, "notes")
        return Match(
            capability="notes",
            action="update",
            # "they changed X to Y" says it changed; "X is now Y" may be a remark: asked first.
            confidence=min(confidence, CONFIDENT if pattern in _SAYS_CHANGED else GUESS),
            risk="medium",
            constraints=constraints,
            changes={"text": value},
            missing=missing,
            pattern="notes:update",
        )
    return None


def _names_a_time(value: str, thing: str, inp: PlannerInput) -> bool:
    """Whether "X changed to `value`" is about a time, or about nothing kept: "the meeting ... to 5"
    (an hour of a thing that is no code or number), "... to 5pm", "... to tomorrow"."""
    if not KEPT_THINGS.search(thing) and (
        not KEPT_THINGS.search(value) or (value.isdigit() and len(value) <= 2)
    ):
        return True
    parsed = parse_when(value, inp)
    return parsed.found and not re.sub(r"[\W_]+", "", parsed.remainder)


#: "update the wifi note, new password is blue42", "update my wifi note with blue42",
#: "תעדכן בפתק של הוויפי שהסיסמה היא 1234": a named note and what it should now say.
_RE_UPDATE_WITH = (
    re.compile(
        r"^(?:update|change|edit|fix|correct)\s+(?:the\s+|my\s+|that\s+)?(?P<named>.+?)\s+(?:note|memo)"
        r"\s*(?:[,:\-]\s*|\s+with\s+|\s+so\s+(?:that\s+)?)(?:it\s+says\s+)?(?P<text>\S.*?)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:תעדכן|תעדכני|עדכן|תשנה|תשני|שנה|תכתוב|תכתבי|כתוב|תרשום|תרשמי|רשום|תתקן|תתקני)\s+(?:לי\s+)?(?:את\s+)?"
        r"(?:ב|ל)?ה?(?:פתק|הערה)\s+(?:של|על|לגבי)\s+(?P<named>\S+(?:\s+(?!ש(?!ל\s))\S+){0,3}?)"
        r"\s*(?:,\s*|:\s*|\s+ש-?(?!ל\s))(?P<text>\S.*?)\s*[.!]*$"
    ),
)
#: "new password is blue42", "הסיסמה החדשה היא 1234": the value of what is said.
_SUBJECT_IS = re.compile(
    r"^(?P<subject>.+?)\s+(?:is|are|=|הוא|היא|זה)\s+(?P<value>\S.*)$|^(?P<subject2>.+?)\s*[:=]\s*(?P<value2>\S.*)$"
    # "המספר החדש 778899", "new password blue42": what is new, then its value
    r"|^(?P<subject3>\S+(?:\s+\S+)?\s+(?:החדש|החדשה|החדשים|החדשות)|new\s+\S+(?:\s+\S+)?)\s+(?P<value3>\S+)$",
    re.I,
)


def update_with(text: str, inp: PlannerInput) -> Match | None:
    """ "update the wifi note, new password is blue42": the wifi note, its value now "blue42" (a
    value alone replaces the note's value, `memo.capabilities.notes.revised_text`)."""
    for pattern in _RE_UPDATE_WITH:
        match = pattern.match(clean(text))
        if match is None:
            continue
        said = clean(match.group("text"))
        told = _SUBJECT_IS.match(said)
        value = clean((told.group("value") or told.group("value2") or told.group("value3")) if told else said)
        if not value:
            return None
        constraints, missing, confidence = target_constraints(match.group("named"), inp, "notes")
        return Match(
            capability="notes",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"text": value},
            missing=missing,
            pattern="notes:update",
        )
    return None


#: "edit my party note and add candles", "add candles to my party note", "תוסיף לפתק של המסיבה נרות".
_RE_ADD_TO_NOTE = (
    re.compile(
        r"^(?:edit|update|change|open)\s+(?:the\s+|my\s+)?(?P<named>.+?)\s+(?:note|memo)\s*,?\s+(?:and\s+)?"
        r"(?:add|append|put(?:\s+in)?|include|write)\s+(?P<item>\S.*?)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:add|append|put|write)\s+(?P<item>\S.*)\s+(?:to|in|into|on)\s+(?:the\s+|my\s+)?"
        r"(?:(?P<named>.+?)\s+(?:note|memo)|(?:note|memo)\s+(?:about|on|for)\s+(?P<about>.+?))\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|תכתוב|תכתבי|תרשום|תרשמי)\s+(?:לי\s+)?(?:ל|ב)ה?(?:פתק|הערה)\s+(?:של|על|לגבי)\s+"
        r"(?P<named>\S+)\s+(?:את\s+)?(?P<item>\S.*?)\s*[.!]*$"
    ),
    # "append to my wifi note: router in the closet", "add to the party note - candles": the note first
    re.compile(
        r"^(?:add|append|write)\s+(?:to|in|into|on)\s+(?:the\s+|my\s+)?(?!(?:my|the|a)\s+(?:note|memo))"
        r"(?P<named>.+?)\s+(?:note|memo)(?:\s*[:\-–]\s*|\s+(?:that|saying)\s+)"
        r"(?P<item>\S.*?)\s*[.!]*$",
        re.I,
    ),
)


def add_to_note(text: str, inp: PlannerInput) -> Match | None:
    """ "edit my party note and add candles": that note, with what to add at its end (`changes.text`
    with `append`: `memo.capabilities.notes.appended`); never a list item."""
    for pattern in _RE_ADD_TO_NOTE:
        match = pattern.match(clean(text))
        if match is None:
            continue
        named = match.groupdict().get("named") or match.group("about")
        constraints, missing, confidence = target_constraints(named, inp, "notes")
        return Match(
            capability="notes",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"text": clean(match.group("item")), "append": True},
            missing=missing,
            pattern="notes:add_to",
        )
    return None
